package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failure at each stage, in a JVM of its own (so the logging is the command's real one): stderr holds exactly one
 * line, {@code sluice: <message>}, and no log line or stack trace; with {@code --verbose} the same line, then the
 * trace (masked), still no log line of the failure.
 */
class OneLineErrorsTest {
    private static final String QUERY_FAILED = "sluice: Query [id = %s, runId = R] terminated with exception: ";

    @TempDir
    Path tmp;

    private Cli.Result sluice(String... args) throws Exception {
        return CliProcess.run(tmp, args);
    }

    /** The line {@code started query <id>: ...} is stdout's only line; returns the id. */
    private static String startedId(Cli.Result r) {
        List<String> out = r.out().lines().toList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0)).startsWith("started query ");
        return out.get(0).substring("started query ".length(), out.get(0).indexOf(':'));
    }

    private static String withoutRunId(String err) {
        return err.replaceFirst("runId = [0-9a-f-]{36}", "runId = R");
    }

    @Test
    void anOptionRefusedAtLoad() throws Exception {
        Cli.Result r = sluice("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=-1",
                "--sink", "noop", "--checkpoint", "chk", "--trigger", "availableNow");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("sluice: Invalid value '-1'. The option 'rowsPerBatch' must be positive\n");
    }

    @Test
    void aBatchThatFailsWhileRunning() throws Exception {
        Files.createDirectory(tmp.resolve("in"));
        Files.writeString(tmp.resolve("in/a.json"), "{not json\n");
        String[] args = {"run", "--source", "json", "--source-option", "path=in", "--source-option", "mode=FAILFAST",
                "--schema", "a long", "--sink", "noop", "--checkpoint", "chk", "--trigger", "availableNow"};
        String expected = QUERY_FAILED + "Malformed records are "
                + "detected in record parsing: file " + tmp.resolve("in/a.json").toRealPath() + ", line 1: {not json "
                + "Reason: Unexpected character ('n' (code 110)): was expecting double-quote to start field name "
                + "Parse Mode: FAILFAST. To process malformed records as null result, try setting the option 'mode' "
                + "as 'PERMISSIVE'.\n";

        Cli.Result r = sluice(args);
        assertThat(r.exitCode()).isEqualTo(1);
        String id = startedId(r);
        assertThat(withoutRunId(r.err())).isEqualTo(expected.formatted(id));

        // --verbose: the same line first, then the trace; the engine's own log of the failure is still left out.
        args[args.length - 3] = "chk2";
        Cli.Result v = sluice(append(args, "--verbose"));
        assertThat(v.exitCode()).isEqualTo(1);
        List<String> all = v.err().lines().toList();
        int at = errorLine(all);
        // Before the error line, only Sluice's own INFO lines (--verbose raises them).
        assertThat(all.subList(0, at)).isNotEmpty().allMatch(l -> l.startsWith("INFO "))
                .contains("INFO Checkpoint - Checkpoint " + tmp.resolve("chk2")
                        + " is empty: starting a new query at batch 0");
        List<String> err = all.subList(at, all.size());
        assertThat(withoutRunId(err.get(0) + "\n")).isEqualTo(expected.formatted(startedId(v)));
        assertThat(err.get(1)).startsWith("io.sluice.core.StreamingQueryException: Query [id = ");
        assertThat(err).anyMatch(l -> l.startsWith("\tat io.sluice.core.MicroBatchExecution.run("));
        assertThat(err).contains("Caused by: com.fasterxml.jackson.core.JsonParseException: Unexpected character "
                + "('n' (code 110)): was expecting double-quote to start field name");
        assertThat(err).noneMatch(l -> l.startsWith("ERROR") || l.contains("QueryFailure"));
    }

    @Test
    void aFailingBatchWithASecretShowsTheSecretMaskedInTheLineAndTheTrace() throws Exception {
        String[] args = {"run", "--source", "secret-test", "--source-option", "auth.token=tok-12345", "--sink", "noop",
                "--checkpoint", "chk", "--trigger", "availableNow", "--verbose"};
        Cli.Result v = sluice(args);
        assertThat(v.exitCode()).isEqualTo(1);
        List<String> all = v.err().lines().toList();
        List<String> err = all.subList(errorLine(all), all.size());
        assertThat(withoutRunId(err.get(0))).isEqualTo(QUERY_FAILED.formatted(startedId(v))
                + "the server refused token *****");
        assertThat(err).contains("Caused by: java.lang.IllegalStateException: the server refused token *****");
        assertThat(v.err()).doesNotContain("tok-12345");
    }

    /**
     * Brokers that never answer: the query fails within the source's bound (here 2 s) with one line naming the
     * bootstrap servers; Kafka's connection warnings (one a second) are not shown without --verbose.
     */
    @Test
    void unreachableKafkaBrokers() throws Exception {
        String servers;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            servers = "localhost:" + s.getLocalPort();
        }
        Cli.Result r = sluice("run", "--source", "kafka", "--source-option", "kafka.bootstrap.servers=" + servers,
                "--source-option", "subscribe=orders", "--source-option", "kafka.default.api.timeout.ms=2000",
                "--sink", "noop", "--checkpoint", "chk", "--trigger", "availableNow");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(withoutRunId(r.err())).isEqualTo(QUERY_FAILED.formatted(startedId(r))
                + "Could not reach the Kafka brokers at " + servers + " (kafka.bootstrap.servers) within 2 s"
                + " (kafka.default.api.timeout.ms): org.apache.kafka.common.errors.TimeoutException: Timed out waiting"
                + " for a node assignment. Call: listTopics\n");
    }

    @Test
    void aCheckpointThatCannotBeShown() throws Exception {
        Cli.Result r = sluice("checkpoint", "show", "nowhere");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        // A relative DIR is named as the absolute folder it resolved to (from the command's working folder).
        assertThat(r.err()).isEqualTo("sluice: No checkpoint at " + tmp.toAbsolutePath().resolve("nowhere")
                + ": no such folder\n");
    }

    @Test
    void aBadPipelineFile() throws Exception {
        Files.writeString(tmp.resolve("p.yaml"), "sorce: x\n");
        Cli.Result r = sluice("run", "p.yaml");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("sluice: p.yaml, line 1: unknown key 'sorce'; accepted keys: name, source, "
                + "transforms, sink, checkpoint, trigger, progressFile, conf, outputMode, sql, watermark, metricsPort, metricsHost, uiPort, uiHost, otlpEndpoint, otlpStep, otlpHeaders\n");
    }

    @Test
    void aUsageError() throws Exception {
        Cli.Result r = sluice("run", "--sourse", "json");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("sluice: Unknown option: '--sourse' (possible solutions: --source, "
                + "--source-option); see 'sluice run --help'\n");
    }

    @Test
    void anUpstreamErrorPageIsCutToOneReadableLine() throws Exception {
        Cli.Result r = sluice("run", "--source", "upstream-test", "--sink", "noop", "--checkpoint", "chk",
                "--trigger", "availableNow");
        assertThat(r.exitCode()).isEqualTo(1);
        String shown = TestProviders.UpstreamErrorSource.errorPage(50_000).replaceAll("\\s*\\R\\s*", " ").strip();
        // Parts are what ": " separates: the page's last part (after its CSS "font-family: ") is cut at 300.
        int last = shown.lastIndexOf(": ") + 2;
        String tail = shown.substring(last);
        String line = withoutRunId(r.err());
        assertThat(line).isEqualTo(QUERY_FAILED.formatted(startedId(r)) + "GET "
                + TestProviders.UpstreamErrorSource.URL + " answered 502: " + shown.substring(0, last)
                + tail.substring(0, ErrorReporter.PART_LIMIT) + "... (" + (tail.length() - ErrorReporter.PART_LIMIT)
                + " more characters; --verbose for all)\n");
        assertThat(line).hasSizeLessThan(ErrorReporter.LINE_LIMIT);
        assertThat(line.split("<!DOCTYPE html>", -1)).as("the page is quoted once").hasSize(2);
    }

    private static int errorLine(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("sluice: ")) {
                return i;
            }
        }
        throw new AssertionError("no error line in " + lines);
    }

    private static String[] append(String[] args, String more) {
        String[] out = java.util.Arrays.copyOf(args, args.length + 1);
        out[args.length] = more;
        return out;
    }
}
