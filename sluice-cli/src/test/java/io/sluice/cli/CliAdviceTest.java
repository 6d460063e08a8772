package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Each engine message that advises a Java call, as the command line shows it: with the flag and the YAML key. */
class CliAdviceTest {
    @TempDir
    Path tmp;

    @Test
    void theFileSourceWithoutASchema() throws IOException {
        Files.createDirectory(tmp.resolve("in"));
        Cli.Result r = Cli.run("run", "--source", "json", "--source-option", "path=" + tmp.resolve("in"),
                "--sink", "noop", "--trigger", "availableNow");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: Schema must be specified when creating a streaming source DataFrame: "
                + "give --schema \"col type, ...\" (or source.schema in the pipeline file), or --source-option "
                + "inferSchema=true (source.options.inferSchema in the pipeline file) to infer it from the files "
                + "present at start, which is unsafe across restarts\n");
    }

    @Test
    void aSourceWithoutAFixedSchema() {
        Cli.Result r = Cli.run("run", "--source", "schema-test", "--sink", "noop", "--trigger", "availableNow");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: Schema must be specified when creating a streaming source DataFrame "
                + "for format 'schema-test': give --schema \"col1 type, col2 type\" (or source.schema in the pipeline "
                + "file)\n");
    }

    @Test
    void aSourceOptionNamedAsAJavaCall() {
        Cli.Result socket = Cli.run("run", "--source", "socket", "--sink", "noop");
        assertThat(socket.exitCode()).isEqualTo(1);
        assertThat(socket.err()).isEqualTo("sluice: Set a host to read from with --source-option host=... "
                + "(source.options.host in the pipeline file).\n");
        Cli.Result memory = Cli.run("run", "--source", "memory", "--sink", "noop");
        assertThat(memory.exitCode()).isEqualTo(1);
        assertThat(memory.err()).isEqualTo("sluice: The memory source needs --source-option name=... "
                + "(source.options.name in the pipeline file): the name() of a MemoryStream created with "
                + "MemoryStream.create(schema)\n");
    }

    @Test
    void aBlankFormat() {
        Cli.Result source = Cli.run("run", "--source", " ", "--sink", "noop");
        assertThat(source.exitCode()).isEqualTo(1);
        // avro, delta, iceberg, parquet: sluice-avro, sluice-delta, sluice-iceberg and sluice-parquet are on this
        // module's test class path (OptionDocsTest, KafkaCommandTest's reconcile with a Delta table)
        assertThat(source.err()).startsWith("sluice: No source format given: give --source FORMAT (or source.format "
                + "in the pipeline file); available: avro, csv, delta, iceberg, json, kafka, memory, parquet, "
                + "rate, rate-micro-batch, ");
        Cli.Result sink = Cli.run("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=1",
                "--sink", " ");
        assertThat(sink.exitCode()).isEqualTo(1);
        assertThat(sink.err()).startsWith("sluice: No sink format given: give --sink FORMAT (or sink.format in the "
                + "pipeline file); available: ");
    }

    @Test
    void aMessageWithoutJavaAdviceIsLeftAsItIs() {
        String m = "Invalid value '-1'. The option 'rowsPerBatch' must be positive";
        assertThat(CliAdvice.apply(m)).isEqualTo(m);
    }
}
