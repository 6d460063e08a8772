package io.sluice.cli;

import io.sluice.api.Row;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** `--python FILE.py` and the *.py files of `--plugins DIR` register Python data sources, found by name. */
class PythonSourceFlagsTest {
    static final String SOURCE = """
            from pyspark.sql.datasource import DataSource, SimpleDataSourceStreamReader


            class Countdown(DataSource):
                @classmethod
                def name(cls):
                    return "pycountdown"

                def schema(self):
                    return "n BIGINT"

                def simpleStreamReader(self, schema):
                    return Reader()


            class Reader(SimpleDataSourceStreamReader):
                def initialOffset(self):
                    return {"done": 0}

                def read(self, start):
                    return [(n,) for n in range(3 - start["done"], 0, -1)], {"done": 3}

                def readBetweenOffsets(self, start, end):
                    return self.read(start)[0]
            """;

    @TempDir
    Path tmp;

    @AfterEach
    void clear() {
        MemorySink.clear("pycountdown_rows");
    }

    @Test
    void aPythonFileGivenWithPythonIsFoundByItsName() throws IOException {
        Path file = Files.writeString(tmp.resolve("countdown.py"), SOURCE);
        Cli.Result r = Cli.run("run", "--python", file.toString(), "--source", "pycountdown", "--sink", "memory",
                "--name", "pycountdown_rows", "--trigger", "once");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).endsWith("finished: 1 batch, 3 rows\n");
        assertThat(MemorySink.rows("pycountdown_rows")).containsExactly(Row.of(3L), Row.of(2L), Row.of(1L));
    }

    @Test
    void thePythonFilesOfThePluginsFolderAreRead() throws IOException {
        Path plugins = Files.createDirectory(tmp.resolve("plugins"));
        Files.writeString(plugins.resolve("countdown.py"), SOURCE);
        Cli.Result r = Cli.run("run", "--plugins", plugins.toString(), "--source", "pycountdown", "--sink", "memory",
                "--name", "pycountdown_rows", "--trigger", "once");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(MemorySink.rows("pycountdown_rows")).containsExactly(Row.of(3L), Row.of(2L), Row.of(1L));
    }

    @Test
    void aMissingFileIsAUsageError() {
        Cli.Result r = Cli.run("run", "--python", tmp.resolve("nope.py").toString(), "--source", "x", "--sink",
                "memory", "--trigger", "once");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("sluice: --python " + tmp.resolve("nope.py") + ": no such file");
    }
}
