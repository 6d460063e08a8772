package io.sluice.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The stateful workloads' measuring, shared by StatefulBench (Sluice) and SparkStatefulBench (Spark) as
 * {@link Measure} is: the same result lines, the same warm-up rules, and the restart run in a fresh child JVM
 * started the same way by both.
 */
final class StatefulMeasure {
    /** The dedup workload's batches: {@value} x 1 M rows = 10 M distinct keys. */
    static final int DEDUP_BATCHES = 10;

    private StatefulMeasure() {
    }

    /** {@code windowcount}: {@link Measure#throughputLine}'s figures (batches 0-2 warm-up) under its own name. */
    static String windowCountLine(String engine, Measure.Run run, long rowsPerBatch, long seconds) {
        return Measure.throughputLine(engine, run, rowsPerBatch, seconds)
                .replaceFirst(" throughput ", " windowcount ");
    }

    /** {@code statefuloverhead}: {@link Measure#overheadLine}'s figures (the first 3 s warm-up) under its own name. */
    static String overheadLine(String engine, Measure.Run run, long rowsPerBatch, long seconds) {
        return Measure.overheadLine(engine, run, rowsPerBatch, seconds)
                .replaceFirst(" overhead ", " statefuloverhead ");
    }

    /**
     * The {@code dedup10m} line: rows/s over every batch (sum rows / sum batchDuration: the state grows from empty
     * to 10 M keys, so every batch counts, none is warm-up), the last batch's duration, the checkpoint's state
     * size (after {@code committed} batches: the query may commit more than 10 before it stops), and {@code restart} (the child's line, its figures prefixed {@code restart_}).
     */
    static String dedupLine(String engine, List<Measure.Sample> samples, long committed, long stateBytes,
                            String restart) {
        long rows = samples.stream().mapToLong(Measure.Sample::rows).sum();
        long ms = samples.stream().mapToLong(Measure.Sample::durationMs).sum();
        long[] durations = samples.stream().mapToLong(Measure.Sample::durationMs).sorted().toArray();
        return String.format(Locale.ROOT, "%s dedup10m batches=%d rows=%d rows_per_s=%.0f median_ms=%d last_ms=%d"
                        + " committed_batches=%d state_mb=%.1f %s%n", engine, samples.size(), rows, rows * 1000.0 / Math.max(1, ms),
                Measure.percentile(durations, 50), samples.get(samples.size() - 1).durationMs(), committed, stateBytes / 1e6,
                restart);
    }

    /**
     * Deletes the newest {@code offsets/N} when {@code commits/N} is missing, and returns the committed batches.
     * Both engines stop a back-to-back query in the middle of its next batch (Spark interrupts it, Sluice lets it
     * finish or not, depending on timing), so the checkpoint may end with a planned 1 M-row batch that a restart would
     * re-run whole; without its offsets the restart plans a new batch at its own rowsPerBatch (1,000), and the
     * restart measures loading the state, not re-running a large batch. The state of the committed batches is
     * untouched (a re-planned batch N writes state version N + 1 again, as any re-run does).
     */
    static long dropUncommittedBatch(java.nio.file.Path chk) throws IOException {
        long lastOffset = lastId(chk.resolve("offsets"));
        long lastCommit = lastId(chk.resolve("commits"));
        if (lastOffset > lastCommit) {
            java.nio.file.Files.delete(chk.resolve("offsets").resolve(Long.toString(lastOffset)));
        }
        return lastCommit + 1;
    }

    private static long lastId(java.nio.file.Path dir) throws IOException {
        try (var names = java.nio.file.Files.list(dir)) {
            return names.map(f -> f.getFileName().toString()).filter(n -> n.matches("\\d+"))
                    .mapToLong(Long::parseLong).max().orElse(-1);
        }
    }

    /**
     * Runs {@code main restart CHECKPOINT} in a fresh JVM with this JVM's flags and class path, and returns its
     * {@code <engine> dedup10m-restart} line's figures (after the name), each prefixed {@code restart_}.
     */
    static String restartInChild(String engine, Class<?> main, String checkpoint) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName(), "dedup10m-restart",
                checkpoint));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String prefix = engine + " dedup10m-restart ";
        String result = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(prefix)) {
                    result = line.substring(prefix.length());
                }
            }
        }
        Measure.require(p.waitFor(10, TimeUnit.MINUTES), "the restart child did not end in 10 minutes");
        Measure.require(result != null, "the restart child printed no result (exit " + p.exitValue() + ")");
        return ("restart_" + result.trim().replace(" ", " restart_"));
    }

    /** The child's line: start() to the first committed batch, and that batch's own figures. */
    static String restartLine(String engine, long startToFirstMs, Measure.Sample first, String durations) {
        return String.format(Locale.ROOT, "%s dedup10m-restart ms=%d first_batch_ms=%d first_batch_rows=%d"
                + " durations=%s%n", engine, startToFirstMs, first.durationMs(), first.rows(), durations);
    }
}
