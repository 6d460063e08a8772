package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.Row;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RunCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BATCH_LINE = "batch %d: %d rows, \\d+\\.\\d input rows/s, \\d+\\.\\d processed rows/s, \\d+ ms";

    @TempDir
    Path tmp;

    private String chk() {
        return tmp.resolve("chk").toString();
    }

    private String[] rateArgs(String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--source", "rate-micro-batch",
                "--source-option", "rowsPerBatch=10", "--source-option", "numPartitions=1"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void runsAnAvailableNowQueryFromFlagsAndWritesProgressAndCheckpoint() throws IOException {
        Path progress = tmp.resolve("progress.jsonl");
        Cli.Result r = Cli.run(rateArgs("--sink", "noop", "--checkpoint", chk(), "--trigger", "availableNow",
                "--progress-file", progress.toString(), "--name", "rates"));

        assertThat(r.err()).isEmpty();
        assertThat(r.exitCode()).isZero();
        String id = queryId();
        List<String> out = r.out().lines().toList();
        assertThat(out).hasSize(3);
        assertThat(out.get(0)).isEqualTo("started query rates (id " + id + "): rate-micro-batch "
                + "{rowsPerBatch=10, numPartitions=1} -> noop {}; trigger availableNow; checkpoint " + chk());
        assertThat(out.get(1)).matches(BATCH_LINE.formatted(0, 10));
        assertThat(out.get(2)).isEqualTo("finished: 1 batch, 10 rows");

        List<String> lines = Files.readAllLines(progress);
        assertThat(lines).hasSize(1);
        JsonNode p = JSON.readTree(lines.get(0));
        assertThat(p.get("batchId").asLong()).isZero();
        assertThat(p.get("id").asText()).isEqualTo(id);
        assertThat(p.get("name").asText()).isEqualTo("rates");
        assertThat(p.get("numInputRows").asLong()).isEqualTo(10);
        assertThat(Files.readString(tmp.resolve("chk/commits/0"))).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
        assertThat(Files.readString(tmp.resolve("chk/offsets/0"))).endsWith("\n{\"offset\":10,\"timestamp\":1000}");

        // A second run resumes from the checkpoint and appends to the progress file.
        Cli.Result again = Cli.run(rateArgs("--sink", "noop", "--checkpoint", chk(), "--trigger", "availableNow",
                "--progress-file", progress.toString(), "--plain"));
        assertThat(again.exitCode()).isZero();
        assertThat(again.out().lines().toList().get(1)).matches(BATCH_LINE.formatted(1, 10));
        List<String> both = Files.readAllLines(progress);
        assertThat(both).hasSize(2);
        assertThat(JSON.readTree(both.get(1)).get("batchId").asLong()).isEqualTo(1);
        assertThat(Files.exists(tmp.resolve("chk/commits/1"))).isTrue();
    }

    @Test
    void memorySinkReceivesTheRows() {
        Cli.Result r = Cli.run(rateArgs("--sink", "memory", "--name", "cli_memory_rows", "--trigger", "once"));
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("; trigger once; checkpoint temporary\n").endsWith("finished: 1 batch, 10 rows\n");
        assertThat(MemorySink.rows("cli_memory_rows")).extracting(row -> row.get(1))
                .containsExactlyElementsOf(LongStream.range(0, 10).boxed().map(Object.class::cast).toList());
        MemorySink.clear("cli_memory_rows");
    }

    @Test
    void pipelineFileWithFlagOverrides() throws IOException {
        Path yaml = tmp.resolve("pipeline.yaml");
        Files.writeString(yaml, """
                name: cli_yaml
                source:
                  format: rate-micro-batch
                  options:
                    rowsPerBatch: 5
                    numPartitions: 1
                    startTimestamp: 1000
                sink:
                  format: memory
                checkpoint: %s
                trigger: availableNow
                progressFile: %s
                """.formatted(chk(), tmp.resolve("p.jsonl")));

        Cli.Result r = Cli.run("run", yaml.toString(), "--source-option", "ROWSPERBATCH=7", "--name", "cli_yaml2");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines().findFirst().orElseThrow()).isEqualTo("started query cli_yaml2 (id " + queryId()
                + "): rate-micro-batch {numPartitions=1, startTimestamp=1000, ROWSPERBATCH=7} -> memory {}; "
                + "trigger availableNow; checkpoint " + chk());
        List<Row> rows = MemorySink.rows("cli_yaml2");
        assertThat(rows).hasSize(7);
        assertThat(rows.get(0).get(0)).isEqualTo(java.time.Instant.ofEpochMilli(1000));
        assertThat(Files.readAllLines(tmp.resolve("p.jsonl"))).hasSize(1);
        MemorySink.clear("cli_yaml2");
    }

    @Test
    void ctrlCStopsAtABatchBoundaryWithExitCode130() throws Exception {
        AtomicReference<Runnable> hook = new AtomicReference<>();
        AtomicBoolean uninstalled = new AtomicBoolean();
        Env env = new Env(false, 80, onShutdown -> {
            hook.set(onShutdown);
            return () -> uninstalled.set(true);
        });
        Path progress = tmp.resolve("p.jsonl");
        CompletableFuture<Cli.Result> run = CompletableFuture.supplyAsync(() -> Cli.run(env,
                rateArgs("--sink", "noop", "--checkpoint", chk(), "--trigger", "processingTime=20ms",
                        "--progress-file", progress.toString())));
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(progress)
                && Files.readAllLines(progress).size() >= 2);

        // The checkpoint can be shown while the query runs and holds its lock.
        Cli.Result show = Cli.run("checkpoint", "show", chk());
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).contains("Batch 1: committed");

        hook.get().run(); // what the JVM does on Ctrl-C
        Cli.Result r = run.get(10, TimeUnit.SECONDS);

        assertThat(r.exitCode()).isEqualTo(130);
        assertThat(uninstalled).isTrue();
        long batches = Files.readAllLines(progress).size();
        assertThat(r.out()).endsWith("stopped: " + batches + " batches, " + batches * 10 + " rows\n");
        // Stopped at a boundary: every logged batch is committed.
        assertThat(Files.list(tmp.resolve("chk/offsets")).count()).isEqualTo(batches);
        assertThat(Files.list(tmp.resolve("chk/commits")).count()).isEqualTo(batches);
    }

    @Test
    void pluginsFolderJarsAreSearchedForProviders() throws IOException {
        Path plugins = Files.createDirectory(tmp.resolve("plugins"));
        try (OutputStream file = Files.newOutputStream(plugins.resolve("my-sink.jar"));
             JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new JarEntry("META-INF/services/io.sluice.api.sink.SinkProvider"));
            jar.write((TestProviders.PluginSink.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
        Cli.Result without = Cli.run(rateArgs("--sink", "plugin-test", "--trigger", "once"));
        assertThat(without.exitCode()).isEqualTo(1);
        assertThat(without.err()).startsWith("sluice: Unknown sink format 'plugin-test'. Available: ");

        Cli.Result with = Cli.run(rateArgs("--sink", "plugin-test", "--trigger", "once", "--plugins",
                plugins.toString()));
        assertThat(with.exitCode()).as(with.err()).isZero();
        assertThat(with.out()).endsWith("finished: 1 batch, 10 rows\n");
    }

    @Test
    void transformsFilterAndProjectTheRows() {
        Cli.Result r = Cli.run(rateArgs("--sink", "memory", "--name", "cli_transformed", "--trigger", "once",
                "--transform", "where:value > 4", "--transform", "select:value * 10 AS tens, value"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(MemorySink.rows("cli_transformed")).extracting(row -> row.get(0))
                .containsExactlyInAnyOrder(50L, 60L, 70L, 80L, 90L);
        MemorySink.clear("cli_transformed");
    }

    @Test
    void aTransformThatDoesNotResolveFailsBeforeTheQueryStarts() {
        Cli.Result r = Cli.run(rateArgs("--sink", "noop", "--trigger", "once", "--transform", "where:nope > 4"));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice: ").contains("`nope`");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void queryFailureExitsOneWithOneLineAndSecretsMasked() {
        Cli.Result r = Cli.run("run", "--source", "secret-test", "--source-option", "auth.token=tok-12345",
                "--sink", "noop", "--trigger", "once");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("secret-test {auth.token=*****} -> noop {}");
        assertThat(r.err()).matches("sluice: Query .* terminated with exception: "
                + "the server refused token \\*\\*\\*\\*\\*\n");

        Cli.Result verbose = Cli.run("run", "--verbose", "--source", "secret-test", "--source-option",
                "auth.token=tok-12345", "--sink", "noop", "--trigger", "once");
        assertThat(verbose.exitCode()).isEqualTo(1);
        assertThat(verbose.err()).contains("\tat ").contains("Caused by: java.lang.IllegalStateException")
                .doesNotContain("tok-12345");
    }

    @Test
    void optionErrorsFromASourceMaskSecrets() {
        Cli.Result r = Cli.run("run", "--source", "secret-test", "--source-option", "ssl.key.password=hunter2",
                "--sink", "noop");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: Invalid value '*****' for option 'ssl.key.password': at least 8 "
                + "characters are accepted\n");
    }

    // ------------------------------------------------------------------------------------- usage errors: exit 2

    private static void assertUsage(Cli.Result r, String message) {
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("sluice: " + message + "; see 'sluice run --help'\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badKeyValue() {
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--source-option", "rowsPerBatch")),
                "Invalid --source-option 'rowsPerBatch': expected KEY=VALUE");
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--sink-option", "=x")),
                "Invalid --sink-option: the KEY of KEY=VALUE is empty");
    }

    @Test
    void badTrigger() {
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--trigger", "sometimes")),
                "Invalid --trigger 'sometimes': accepted: availableNow, once, processingTime=<interval> "
                        + "(e.g. processingTime=30s, processingTime=10 seconds)");
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--trigger", "processingTime=soon")),
                "Invalid --trigger 'processingTime=soon': Invalid trigger interval 'soon': expected a whole number "
                        + "with an optional unit, e.g. '10 seconds', '500 ms', '1 minute'");
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--trigger", "processingTime=10 fortnights")),
                "Invalid --trigger 'processingTime=10 fortnights': Invalid trigger interval '10 fortnights': "
                        + "unknown unit 'fortnights'; accepted: ms, seconds, minutes, hours, days");
    }

    @Test
    void badTransform() {
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--transform", "value > 4")),
                "Invalid --transform 'value > 4': start it with 'where:' (a SQL condition) or 'select:' (SQL "
                        + "expressions separated by commas), e.g. 'where:amount > 10' or "
                        + "'select:id, amount * 2 AS doubled'");
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--transform", "where: ")),
                "Invalid --transform 'where: ': the condition after 'where:' is empty");
        assertUsage(Cli.run(rateArgs("--sink", "noop", "--transform", "select:a,,b")),
                "Invalid --transform 'select:a,,b': an expression after 'select:' is empty");
    }

    @Test
    void badSchema() {
        Cli.Result r = Cli.run(rateArgs("--sink", "noop", "--schema", "id"));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("sluice: Invalid --schema 'id': ");
    }

    @Test
    void missingSourceOrSink() {
        assertUsage(Cli.run("run", "--sink", "noop"),
                "No source: give --source FORMAT, or source.format in the pipeline file");
        assertUsage(Cli.run("run", "--source", "rate"),
                "No sink: give --sink FORMAT, or sink.format in the pipeline file");
    }

    @Test
    void unknownFlagAndMissingSubcommand() {
        Cli.Result r = Cli.run("run", "--sourse", "rate");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("sluice: Unknown option: '--sourse' (possible solutions: --source, "
                + "--source-option); see 'sluice run --help'\n");

        Cli.Result none = Cli.run();
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).isEqualTo("sluice: Missing required subcommand; see 'sluice --help'\n");
    }

    @Test
    void helpListsEveryFlag() {
        Cli.Result r = Cli.run("run", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("--source=FORMAT", "--source-option=KEY=VALUE", "--schema=DDL",
                "--transform=EXPR", "--sink=FORMAT", "--sink-option=KEY=VALUE", "--checkpoint=DIR",
                "--trigger=TRIGGER", "--name=NAME", "--progress-file=FILE", "--conf=KEY=VALUE", "--plugins=DIR",
                "--plain", "--verbose");
    }

    // ------------------------------------------------------------------------------------- runtime errors: exit 1

    private static void assertFailure(Cli.Result r, String message) {
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: " + message + "\n");
    }

    @Test
    void confSetsTheEngineConfigurationFromFlagsAndThePipelineFile() throws IOException {
        // A misspelt option name fails whatever the setting; a far unknown one only under error.
        assertFailure(Cli.run(rateArgs("--source-option", "rowPerBatch=5", "--sink", "noop")),
                "Unknown option 'rowPerBatch' for source 'rate-micro-batch': did you mean 'rowsPerBatch'?");
        Cli.Result warned = Cli.run(rateArgs("--source-option", "speed=5", "--sink", "noop", "--trigger",
                "availableNow", "--plain"));
        assertThat(warned.exitCode()).isZero();
        String strict = "Unknown option 'speed' for source 'rate-micro-batch' (sluice.options.unknown=error): the "
                + "declared options are rowsPerBatch, numPartitions, startTimestamp, advanceMillisPerBatch";
        assertFailure(Cli.run(rateArgs("--source-option", "speed=5", "--sink", "noop", "--conf",
                "sluice.options.unknown=error")), strict);
        Path yaml = tmp.resolve("p.yaml");
        Files.writeString(yaml, "source: {format: rate-micro-batch, options: {rowsPerBatch: 1, speed: 5}}\n"
                + "sink: {format: noop}\nconf:\n  sluice.options.unknown: error\n");
        assertFailure(Cli.run("run", yaml.toString()), strict);
        // The flag wins over the file, key by key.
        Cli.Result flagWins = Cli.run("run", yaml.toString(), "--conf", "SLUICE.OPTIONS.UNKNOWN=warn", "--trigger",
                "availableNow", "--plain");
        assertThat(flagWins.exitCode()).isZero();
        assertThat(flagWins.out()).endsWith("finished: 1 batch, 1 row\n");
        assertFailure(Cli.run(rateArgs("--sink", "noop", "--conf", "sluice.options.unknwn=error")),
                "Unknown Sluice configuration key 'sluice.options.unknwn': did you mean 'sluice.options.unknown'?");
        assertFailure(Cli.run(rateArgs("--sink", "noop", "--conf", "sluice.options.unknown=maybe")),
                "Invalid value 'maybe' for Sluice configuration 'sluice.options.unknown': warn or error is accepted");
        Files.writeString(yaml, "source: {format: rate-micro-batch}\nconf: [a]\n");
        assertFailure(Cli.run("run", yaml.toString()), yaml + ", line 2: 'conf' must be a mapping of option names "
                + "to values");
    }

    @Test
    void pipelineFileErrors() throws IOException {
        Path yaml = tmp.resolve("p.yaml");
        Files.writeString(yaml, "name: x\nsorce:\n  format: rate\n");
        assertFailure(Cli.run("run", yaml.toString()), yaml + ", line 2: unknown key 'sorce'; accepted keys: name, "
                + "source, transforms, sink, checkpoint, trigger, progressFile, conf, outputMode, sql, watermark, metricsPort, metricsHost, uiPort, uiHost, otlpEndpoint, otlpStep, otlpHeaders");
        assertFailure(Cli.run("run", tmp.resolve("nope.yaml").toString()),
                "Cannot read pipeline file " + tmp.resolve("nope.yaml") + ": no such file");
        Files.writeString(yaml, "source: {format: rate-micro-batch, options: {rowsPerBatch: 1}}\n"
                + "sink: {format: noop}\nschema: x\n");
        assertFailure(Cli.run("run", yaml.toString(), "--trigger", "once"), yaml + ", line 3: unknown key 'schema'; "
                + "accepted keys: name, source, transforms, sink, checkpoint, trigger, progressFile, conf, outputMode, sql, watermark, metricsPort, metricsHost, uiPort, uiHost, otlpEndpoint, otlpStep, otlpHeaders");
    }

    @Test
    void optionRefusedBySource() {
        assertFailure(Cli.run("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=-1",
                        "--sink", "noop"),
                "Invalid value '-1'. The option 'rowsPerBatch' must be positive");
    }

    @Test
    void unknownSourceFormat() {
        Cli.Result r = Cli.run("run", "--source", "kafkaa", "--sink", "noop");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice: Unknown source format 'kafkaa'. Available: ");
    }

    @Test
    void sinkNeedingACheckpointSaysWhichFlag() {
        assertFailure(Cli.run(rateArgs("--sink", "strict-test")), "The 'strict-test' sink needs a checkpoint "
                + "folder, so the query can recover after a restart: give --checkpoint DIR (or checkpoint: in the "
                + "pipeline file)");
    }

    @Test
    void memorySinkNeedsAName() {
        assertFailure(Cli.run(rateArgs("--sink", "memory")), "queryName must be specified for memory sink: give "
                + "--name NAME (or name: in the pipeline file)");
    }

    @Test
    void badPluginsFolderAndProgressFile() {
        Path missing = tmp.resolve("missing");
        assertFailure(Cli.run(rateArgs("--sink", "noop", "--plugins", missing.toString())),
                "Plugins folder " + missing + " does not exist or is not a folder");
        Path progress = missing.resolve("p.jsonl");
        assertFailure(Cli.run(rateArgs("--sink", "noop", "--progress-file", progress.toString())),
                "Cannot open progress file " + progress + ": the folder " + missing + " does not exist");
    }

    @Test
    void lockedCheckpointFailsBeforeStarting() throws Exception {
        AtomicReference<Runnable> hook = new AtomicReference<>();
        Env env = new Env(false, 80, onShutdown -> {
            hook.set(onShutdown);
            return () -> {
            };
        });
        CompletableFuture<Cli.Result> first = CompletableFuture.supplyAsync(() -> Cli.run(env,
                rateArgs("--sink", "noop", "--checkpoint", chk(), "--trigger", "processingTime=1 second")));
        await().atMost(Duration.ofSeconds(10)).until(() -> hook.get() != null);

        Cli.Result second = Cli.run(rateArgs("--sink", "noop", "--checkpoint", chk(), "--trigger", "once"));
        assertThat(second.exitCode()).isEqualTo(1);
        assertThat(second.err()).startsWith("sluice: ").contains("in use by another running query");
        assertThat(second.out()).isEmpty();

        hook.get().run();
        assertThat(first.get(10, TimeUnit.SECONDS).exitCode()).isEqualTo(130);
    }

    private String queryId() {
        try {
            return JSON.readTree(Files.readString(tmp.resolve("chk/metadata"))).get("id").asText();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
