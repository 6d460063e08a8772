package io.sluice.cli;

import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --sql}, {@code --output-mode}, {@code --watermark} and their pipeline-file keys. */
class StatefulFlagsTest {
    @TempDir
    Path tmp;

    private static String[] rateArgs(String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--source", "rate-micro-batch",
                "--source-option", "rowsPerBatch=10", "--source-option", "numPartitions=1", "--trigger", "once"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static void assertUsage(Cli.Result r, String message) {
        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("sluice: " + message + "; see 'sluice run --help'\n");
    }

    @Test
    void sqlSelectsFromTheStreamNamedSourceAfterTheTransforms() {
        Cli.Result r = Cli.run(rateArgs("--sink", "memory", "--name", "cli_sql", "--transform", "where:value < 8",
                "--sql", "SELECT value * 10 AS tens FROM source WHERE value % 2 = 0", "--output-mode", "Append"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(MemorySink.rows("cli_sql")).extracting(row -> row.get(0))
                .containsExactlyInAnyOrder(0L, 20L, 40L, 60L);
        MemorySink.clear("cli_sql");
    }

    @Test
    void aSqlGlobalAggregationWithAnExpressionOverAggregatesInCompleteMode() {
        Cli.Result r = Cli.run(rateArgs("--sink", "memory", "--name", "cli_global", "--output-mode", "complete",
                "--sql", "SELECT count(*) AS n, max(value) - min(value) AS spread FROM source WHERE value < 8"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(MemorySink.rows("cli_global")).containsExactly(io.sluice.api.Row.of(8L, 7L));
        MemorySink.clear("cli_global");
    }

    @Test
    void aWindowedCountWithAWatermarkInUpdateMode() {
        Cli.Result r = Cli.run(rateArgs("--sink", "memory", "--name", "cli_windowed", "--source-option",
                "startTimestamp=0", "--watermark", "timestamp, 5 seconds", "--output-mode", "update", "--sql",
                "SELECT window(timestamp, '10 seconds') AS w, count(*) AS n FROM source "
                        + "GROUP BY window(timestamp, '10 seconds')"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(MemorySink.rows("cli_windowed")).containsExactly(io.sluice.api.Row.of(
                io.sluice.api.Row.of(java.time.Instant.EPOCH, java.time.Instant.ofEpochSecond(10)), 10L));
        MemorySink.clear("cli_windowed");
        // append without a watermark is refused with Spark's message, before any batch
        Cli.Result refused = Cli.run(rateArgs("--sink", "noop", "--sql",
                "SELECT value % 2 AS odd, count(*) FROM source GROUP BY value % 2"));
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("Invalid streaming output mode: append. This output mode is not "
                + "supported for streaming aggregations without watermark on streaming DataFrames/DataSets.");
    }

    @Test
    void theRocksDbStoreIsChosenWithConf() {
        Path chk = tmp.resolve("chk");
        Cli.Result r = Cli.run(rateArgs("--sink", "noop", "--checkpoint", chk.toString(), "--conf",
                "spark.sql.streaming.stateStore.providerClass="
                        + "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
                "--output-mode", "complete", "--sql",
                "SELECT value % 3 AS k, count(*) AS n FROM source GROUP BY value % 3"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(chk.resolve("state/0/0/1.zip")).exists();
        assertThat(chk.resolve("state/0/0/SSTs")).isDirectory();
    }

    @Test
    void aSqlQueryThatIsNotOverSourceFailsBeforeTheQueryStarts() {
        Cli.Result r = Cli.run(rateArgs("--sink", "noop", "--sql", "SELECT value FROM rates"));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice: [TABLE_OR_VIEW_NOT_FOUND] The table or view `rates` cannot be "
                + "found.");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badOutputModesAndWatermarksAreUsageErrors() {
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--output-mode", "upsert")),
                "Invalid --output-mode 'upsert': append, update or complete is accepted");
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--watermark", "timestamp")),
                "Invalid --watermark 'timestamp': give the event-time column and the delay separated by a comma, "
                        + "e.g. 'timestamp, 10 seconds'");
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--sql", " ")),
                "Invalid --sql: the query is empty; give \"SELECT ... FROM source [WHERE ...]\"");
    }

    @Test
    void pipelineFileKeysAreCheckedAndFlagsOverrideThem() throws IOException {
        Path yaml = tmp.resolve("p.yaml");
        Files.writeString(yaml, """
                source:
                  format: rate-micro-batch
                  options: {rowsPerBatch: 4, numPartitions: 1}
                sink: {format: memory}
                trigger: once
                outputMode: APPEND
                sql: SELECT value FROM source WHERE value > 100
                """);
        Cli.Result r = Cli.run("run", yaml.toString(), "--name", "cli_sql_yaml", "--sql",
                "SELECT value + 1 AS next FROM source");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(MemorySink.rows("cli_sql_yaml")).extracting(row -> row.get(0))
                .containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
        MemorySink.clear("cli_sql_yaml");

        Files.writeString(yaml, """
                source: {format: rate-micro-batch}
                sink: {format: noop}
                outputMode: sideways
                """);
        Cli.Result bad = Cli.run("run", yaml.toString());
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.err()).contains("line 3").contains("invalid outputMode 'sideways': append, update or "
                + "complete is accepted");
    }
}
