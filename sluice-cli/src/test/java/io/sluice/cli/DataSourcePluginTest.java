package io.sluice.cli;

import io.sluice.api.Row;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** A real plugin jar, compiled here, holding a high-level DataSource: `--plugins DIR` finds it by its name. */
class DataSourcePluginTest {
    private static final String SOURCE = """
            package plug;

            import io.sluice.api.Options;
            import io.sluice.api.Row;
            import io.sluice.api.datasource.*;
            import java.util.*;

            public final class Countdown implements DataSource {
                public String name() { return "countdown"; }
                public String schemaDdl(Options o) { return "n bigint"; }
                public SimpleDataSourceStreamReader<?> simpleStreamReader(DataSourceContext c) {
                    return new SimpleDataSourceStreamReader<Map<String, Object>>() {
                        public Map<String, Object> initialOffset() { return Map.of("done", 0L); }
                        public ReadResult<Map<String, Object>> read(Map<String, Object> start) {
                            long done = ((Number) start.get("done")).longValue();
                            List<Row> rows = new ArrayList<>();
                            for (long n = 3 - done; n > 0; n--) { rows.add(Row.of(n)); }
                            return new ReadResult<>(rows, Map.of("done", 3L));
                        }
                        public List<Row> readBetweenOffsets(Map<String, Object> s, Map<String, Object> e) {
                            return read(s).rows();
                        }
                    };
                }
            }
            """;

    @TempDir
    Path tmp;

    @AfterEach
    void clear() {
        MemorySink.clear("countdown_rows");
    }

    @Test
    void aDataSourceInAPluginJarIsFoundByItsName() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src/plug"));
        Files.writeString(src.resolve("Countdown.java"), SOURCE);
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                src.resolve("Countdown.java").toString());
        assertThat(rc).isZero();
        Path plugins = Files.createDirectory(tmp.resolve("plugins"));
        try (OutputStream file = Files.newOutputStream(plugins.resolve("countdown.jar"));
             JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new JarEntry("META-INF/services/io.sluice.api.datasource.DataSource"));
            jar.write("plug.Countdown\n".getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
            try (var files = Files.walk(classes)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    jar.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                    jar.write(Files.readAllBytes(f));
                    jar.closeEntry();
                }
            }
        }

        Cli.Result without = Cli.run("run", "--source", "countdown", "--sink", "memory", "--trigger", "once");
        assertThat(without.exitCode()).isEqualTo(1);
        assertThat(without.err()).startsWith("sluice: Unknown source format 'countdown'. Available: ");

        Cli.Result with = Cli.run("run", "--source", "countdown", "--sink", "memory", "--name", "countdown_rows",
                "--trigger", "once", "--plugins", plugins.toString());
        assertThat(with.exitCode()).as(with.err()).isZero();
        assertThat(with.out()).endsWith("finished: 1 batch, 3 rows\n");
        assertThat(MemorySink.rows("countdown_rows")).containsExactly(Row.of(3L), Row.of(2L), Row.of(1L));
    }
}
