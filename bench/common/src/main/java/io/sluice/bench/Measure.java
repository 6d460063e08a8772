package io.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The measuring both benchmark programs share (EngineBench on Sluice, SparkBench on Spark), so the two engines are
 * measured and reported by the same code. Compiled into both programs as an extra source folder (bench/common):
 * it depends on the JDK only, as each program has its own, incompatible classpath.
 */
final class Measure {
    static final long WARMUP_MS = 3_000;
    static final int WARMUP_BATCHES = 3;

    private Measure() {
    }

    /** One batch as its progress reported it. {@code triggerStartMs} is the progress timestamp. */
    record Sample(long batchId, long durationMs, long rows, long triggerStartMs) {
    }

    /** What a timed run collected: every batch's progress, and when start() was called (epoch ms). */
    record Run(List<Sample> samples, long queryStartMs) {
    }

    /** Wall clock over consecutive batches: from the first one's trigger start to the last one's. */
    record Wall(double msPerBatch, double rowsPerSecond) {
    }

    /** The {@code overhead} result line: batches whose trigger started in the first 3 s are warm-up. */
    static String overheadLine(String engine, Run run, long rowsPerBatch, long seconds) {
        List<Sample> counted = run.samples().stream()
                .filter(s -> s.triggerStartMs() >= run.queryStartMs() + WARMUP_MS).toList();
        require(counted.size() >= 2, "too few batches after the warm-up: " + counted.size());
        long[] durations = counted.stream().mapToLong(Sample::durationMs).sorted().toArray();
        Wall wall = wall(counted);
        return String.format(Locale.ROOT, "%s overhead rows_per_batch=%d seconds=%d batches=%d median_ms=%d p90_ms=%d"
                        + " mean_ms=%.2f wall_ms_per_batch=%.3f rows_per_s=%.0f%n",
                engine, rowsPerBatch, seconds, counted.size(), percentile(durations, 50), percentile(durations, 90),
                Arrays.stream(durations).average().orElse(0), wall.msPerBatch(), wall.rowsPerSecond());
    }

    /** The {@code throughput} result line: batches 0-2 are warm-up; rows/s = sum of rows / sum of durations. */
    static String throughputLine(String engine, Run run, long rowsPerBatch, long seconds) {
        List<Sample> counted = run.samples().stream().filter(s -> s.batchId() >= WARMUP_BATCHES).toList();
        require(counted.size() >= 2, "too few batches after the warm-up: " + counted.size());
        long rows = counted.stream().mapToLong(Sample::rows).sum();
        long ms = counted.stream().mapToLong(Sample::durationMs).sum();
        long[] durations = counted.stream().mapToLong(Sample::durationMs).sorted().toArray();
        return String.format(Locale.ROOT, "%s throughput rows_per_batch=%d seconds=%d batches=%d rows_per_s=%.0f"
                        + " wall_rows_per_s=%.0f median_ms=%d%n",
                engine, rowsPerBatch, seconds, counted.size(), rows * 1000.0 / Math.max(1, ms),
                wall(counted).rowsPerSecond(), percentile(durations, 50));
    }

    /**
     * The {@code jsonwrite} / {@code parquetwrite} result line. Batch against batch: batches 0-1 are warm-up,
     * {@code rows_per_s} = sum of rows / sum of durations. Whole run: {@code run_rows_per_s} = every committed
     * batch's rows over the time from the {@code start()} call ({@code startMs}) to the end of the last committed
     * batch (its trigger start plus its duration), so query start, warm-up and the JIT are in it.
     */
    static String writeLine(String engine, String workload, List<Sample> samples, long startMs, long rowsPerBatch,
                            long seconds, long outBytes) {
        List<Sample> counted = samples.stream().filter(s -> s.batchId() >= 2).toList();
        require(counted.size() >= 1, "too few batches after the warm-up: " + counted.size());
        long rows = counted.stream().mapToLong(Sample::rows).sum();
        long ms = counted.stream().mapToLong(Sample::durationMs).sum();
        long[] durations = counted.stream().mapToLong(Sample::durationMs).sorted().toArray();
        Sample last = samples.get(samples.size() - 1);
        long runRows = samples.stream().mapToLong(Sample::rows).sum();
        double runSeconds = (last.triggerStartMs() + last.durationMs() - startMs) / 1000.0;
        return String.format(Locale.ROOT, "%s %s rows_per_batch=%d seconds=%d batches=%d rows_per_s=%.0f"
                        + " median_ms=%d out_mb=%.1f run_batches=%d run_rows=%d run_seconds=%.3f run_rows_per_s=%.0f%n",
                engine, workload, rowsPerBatch, seconds, counted.size(), rows * 1000.0 / Math.max(1, ms),
                percentile(durations, 50), outBytes / 1e6, samples.size(), runRows, runSeconds, runRows / runSeconds);
    }

    static Wall wall(List<Sample> counted) {
        Sample first = counted.get(0);
        Sample last = counted.get(counted.size() - 1);
        long elapsed = Math.max(1, last.triggerStartMs() - first.triggerStartMs());
        int intervals = counted.size() - 1;
        long rows = 0;
        for (int i = 0; i < intervals; i++) {
            rows += counted.get(i).rows();
        }
        return new Wall((double) elapsed / intervals, rows * 1000.0 / elapsed);
    }

    /** Nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static long sizeOf(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            return -1;
        }
    }

    /** A fresh folder under {@code -Dbench.dir} (default: the temp dir), named {@code <engine>-<name>-...}. */
    static Path checkpointDir(String engine, String name) throws IOException {
        Path base = Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(base);
        return Files.createTempDirectory(base, engine + "-" + name + "-");
    }

    static String rssPeakMb() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
            return lines.filter(l -> l.startsWith("VmHWM:"))
                    .map(l -> String.format(Locale.ROOT, "%.1f", Long.parseLong(l.replaceAll("\\D", "")) / 1024.0))
                    .findFirst().orElse("na");
        } catch (IOException | RuntimeException e) {
            return "na";
        }
    }

    static long longArg(String[] args, int i, long dflt) {
        return args.length > i ? Long.parseLong(args[i].replace("_", "")) : dflt;
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException(message);
        }
    }

    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort
        }
    }
}
