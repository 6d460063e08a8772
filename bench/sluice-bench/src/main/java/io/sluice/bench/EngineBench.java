package io.sluice.bench;

import static io.sluice.bench.Measure.*;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sluice's side of the engine benchmarks; {@code io.sluice.bench.SparkBench} (bench/spark-bench) runs the same
 * workloads on Spark 4.2 with the same measurement. Every batch is collected through a listener (recentProgress
 * keeps only 100). One machine-readable line per result on stdout, starting with {@code sluice <workload>}.
 *
 * <pre>
 * overhead   [rowsPerBatch=1000]    [seconds=20]  per-batch overhead; batches in the first 3 s are warm-up
 * throughput [rowsPerBatch=5000000] [seconds=40]  rows/s; the first 3 batches are warm-up (as the Spark probe)
 * startup                                          JVM start to the first committed batch, then exit
 * jsonread DIR | csvread DIR | parquetread DIR     availableNow file source (the events schema) to noop: rows/s
 *                                                  from start() to termination
 * jsonwrite  [rowsPerBatch=1000000] [seconds=20]  rate-micro-batch to the json file sink: rows/s (sum rows / sum
 *                                                  batchDuration, batches 0-1 warm-up); run_rows_per_s: every
 *                                                  committed row over start() to the last committed batch's end
 * parquetwrite [rowsPerBatch=1000000] [seconds=20] the same into the parquet file sink (snappy, its defaults)
 * plan100k DIR [maxFilesPerTrigger=1000]          json file source over DIR's files: batch 0's latestOffset and total
 * plan200k DIR [maxFilesPerTrigger=1000]          the same (0: no maxFilesPerTrigger, every file in batch 0), peak RSS
 * manifest [batches=20000] [key=value]...         rate-micro-batch (1 row, 1 partition) to the json sink, back to back,
 *                                                  with these sink options: _spark_metadata's files and bytes and the
 *                                                  compaction batches' durations, early and late (Sluice only)
 * metricscost [rowsPerBatch=1000] [seconds=10] [rounds=3]  the overhead query bare and with SluiceMetrics and the
 *                                                  web UI served and polled, alternating: the per-batch cost
 *                                                  (MetricsCostBench; Sluice only)
 * metricscost [rowsPerBatch=1000] [seconds=10] [rounds=3]  the overhead query bare and with SluiceMetrics and
 *                                                  the web UI served and polled, alternating in one JVM: the
 *                                                  per-batch cost (MetricsCostBench; Sluice only)
 * python [rows=4000000] [rounds=3]               a Python stream reader of (seq, account, amount) tuples, 2
 *                                                  reading workers, availableNow to noop, against its Java twin in
 *                                                  the same JVM, alternating; then the Python row's stages
 *                                                  (io.sluice.python.PythonBench; Sluice only)
 * </pre>
 *
 * Every query: rate-micro-batch (numPartitions=2) to noop, the default trigger (back to back), a real checkpoint
 * folder on disk (under {@code -Dbench.dir}, default the temp dir), so the fsynced log writes are included.
 */
public final class EngineBench {
    private EngineBench() {
    }

    public static void main(String[] args) throws Exception {
        String workload = args.length > 0 ? args[0] : "overhead";
        switch (workload) {
            case "overhead" -> overhead(longArg(args, 1, 1_000), longArg(args, 2, 20));
            case "throughput" -> throughput(longArg(args, 1, 5_000_000), longArg(args, 2, 40));
            case "startup" -> startup();
            case "jsonread", "csvread", "parquetread" -> {
                // -Dbench.rounds=N: the same read N times in this JVM, one line each (round=K): the later rounds
                // show the engine without the JVM's warm-up; the benchmark's figure is round 1 of a fresh JVM.
                int rounds = Integer.getInteger("bench.rounds", 1);
                for (int round = 1; round <= rounds; round++) {
                    fileRead(workload, args[1], rounds > 1 ? " round=" + round : "");
                }
            }
            case "jsonwrite", "parquetwrite" -> fileWrite(workload, longArg(args, 1, 1_000_000), longArg(args, 2, 20));
            case "plan100k", "plan200k" -> plan(workload, args[1], longArg(args, 2, 1_000));
            case "python" -> {
                Path dir = checkpointDir("python");
                try {
                    io.sluice.python.PythonBench.run(longArg(args, 1, 4_000_000), (int) longArg(args, 2, 3), dir);
                } finally {
                    deleteRecursively(dir);
                }
            }
            case "s3jsonread", "s3plan100k" -> S3Bench.main(args); // ENDPOINT s3a://B/P/ (S3Bench)
            case "metricscost" -> MetricsCostBench.run(longArg(args, 1, 1_000), longArg(args, 2, 10),
                    (int) longArg(args, 3, 3));
            case "manifest" -> manifest(longArg(args, 1, 20_000), List.of(args).subList(Math.min(2, args.length),
                    args.length));
            default -> {
                System.err.println("usage: EngineBench overhead [rowsPerBatch=1000] [seconds=20]"
                        + " | throughput [rowsPerBatch=5000000] [seconds=40] | startup | jsonread|csvread|parquetread DIR"
                        + " | jsonwrite|parquetwrite [rowsPerBatch=1000000] [seconds=20] | plan100k|plan200k DIR [maxFilesPerTrigger=1000]"
                        + " | manifest [batches=20000] [sinkOption=value]..."
                        + " | metricscost [rowsPerBatch=1000] [seconds=10] [rounds=3] | python [rows=4000000] [rounds=3]");
                System.exit(2);
            }
        }
        System.exit(0);
    }

    // ---------------------------------------------------------------- workloads

    static void overhead(long rowsPerBatch, long seconds) throws Exception {
        Run run = runFor("overhead", rowsPerBatch, seconds);
        System.out.print(Measure.overheadLine("sluice", run, rowsPerBatch, seconds));
    }

    static void throughput(long rowsPerBatch, long seconds) throws Exception {
        Run run = runFor("throughput", rowsPerBatch, seconds);
        System.out.print(Measure.throughputLine("sluice", run, rowsPerBatch, seconds));
    }

    static void startup() throws Exception {
        long mainEntered = System.currentTimeMillis();
        Path chk = checkpointDir("startup");
        CountDownLatch first = new CountDownLatch(1);
        long[] firstBatchAt = new long[1];
        long[] firstBatchDuration = new long[1];
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.addListener(new Listener() {
                @Override
                public void onQueryProgress(QueryProgressEvent event) {
                    if (first.getCount() > 0) {
                        firstBatchAt[0] = System.currentTimeMillis();
                        firstBatchDuration[0] = event.progress().batchDuration();
                        first.countDown();
                    }
                }
            });
            StreamingQuery q = sluice.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", 1000).option("numPartitions", 2).load()
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.defaultTrigger()).start();
            if (!first.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no batch within 60 s: " + q.status());
            }
            // Management beans are touched only now, so loading them is not counted.
            long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
            long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            long heapPeak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                    heapPeak += pool.getPeakUsage().getUsed();
                }
            }
            System.out.printf(Locale.ROOT, "sluice startup first_batch_ms=%d main_to_first_batch_ms=%d"
                            + " first_batch_duration_ms=%d heap_used_mb=%.1f heap_peak_mb=%.1f rss_peak_mb=%s%n",
                    firstBatchAt[0] - jvmStart, firstBatchAt[0] - mainEntered, firstBatchDuration[0],
                    heapUsed / 1048576.0, heapPeak / 1048576.0, rssPeakMb());
            q.stop();
        } finally {
            deleteRecursively(chk);
        }
    }

    /** The file benchmarks' schema; GenerateEvents writes rows of it. */
    static final String EVENTS_DDL = "event_id string, user_id string, amount_cents long, event_time timestamp";

    static void fileRead(String workload, String dir, String round) throws Exception {
        String format = workload.substring(0, workload.length() - "read".length());
        Path chk = checkpointDir(workload);
        Collector c = new Collector();
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.addListener(c);
            long t0 = System.nanoTime();
            StreamingQuery q = sluice.readStream().format(format).schema(EVENTS_DDL).load(dir)
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            double seconds = (System.nanoTime() - t0) / 1e9;
            c.awaitEnd();
            List<Sample> samples = c.samples();
            long rows = samples.stream().mapToLong(Sample::rows).sum();
            // batch_ms: the batches' own durations; the rest of `seconds` is starting and stopping the query.
            long batchMs = samples.stream().mapToLong(Sample::durationMs).sum();
            System.out.printf(Locale.ROOT, "sluice %s rows=%d batches=%d seconds=%.3f rows_per_s=%.0f batch_ms=%d"
                            + " batch_rows_per_s=%.0f%s%n", workload, rows, samples.size(), seconds, rows / seconds,
                    batchMs, rows * 1000.0 / Math.max(1, batchMs), round);
            if (Boolean.getBoolean("bench.durations")) {
                c.progress.forEach(p -> System.out.println("  batch " + p.batchId() + " durationMs " + p.durationMs()));
            }
        } finally {
            deleteRecursively(chk);
        }
    }

    /** rate-micro-batch into the file sink of {@code jsonwrite}'s or {@code parquetwrite}'s format, back to back. */
    static void fileWrite(String workload, long rowsPerBatch, long seconds) throws Exception {
        String format = workload.substring(0, workload.length() - "write".length());
        Path chk = checkpointDir(workload);
        Path out = checkpointDir(workload + "-out");
        Collector c = new Collector();
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.addListener(c);
            long startMs = System.currentTimeMillis();
            StreamingQuery q = sluice.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", rowsPerBatch).option("numPartitions", 2).load()
                    .writeStream().format(format).option("path", out.toString())
                    .option("checkpointLocation", chk.toString())
                    .trigger(Trigger.defaultTrigger()).start();
            Thread.sleep(seconds * 1000);
            // On a loaded machine Spark may not reach its third batch in `seconds`: wait for it (up to 10 minutes).
            require(c.three.await(600, TimeUnit.SECONDS), "fewer than 3 batches in 10 minutes");
            q.stop();
            c.awaitEnd();
            System.out.print(Measure.writeLine("sluice", workload, c.samples(), startMs, rowsPerBatch, seconds,
                    sizeOf(out)));
        } finally {
            deleteRecursively(chk);
            deleteRecursively(out);
        }
    }

    static void plan(String workload, String dir, long maxFilesPerTrigger) throws Exception {
        Path chk = checkpointDir(workload);
        Collector c = new Collector();
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.addListener(c);
            long t0 = System.nanoTime();
            var reader = sluice.readStream().format("json").schema(EVENTS_DDL);
            if (maxFilesPerTrigger > 0) {
                reader = reader.option("maxFilesPerTrigger", maxFilesPerTrigger);
            }
            StreamingQuery q = reader.load(dir)
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.defaultTrigger()).start();
            require(c.first.await(300, TimeUnit.SECONDS), "no batch within 300 s: " + q.status());
            double firstS = (System.nanoTime() - t0) / 1e9;
            q.stop();
            c.awaitEnd();
            StreamingQueryProgress p0 = c.progress.get(0);
            System.out.printf(Locale.ROOT, "sluice %s max_files_per_trigger=%d batch0_latest_offset_ms=%d"
                            + " batch0_total_ms=%d batch0_rows=%d start_to_batch0_s=%.3f rss_peak_mb=%s%n", workload,
                    maxFilesPerTrigger, p0.durationMs().getOrDefault("latestOffset", -1L), p0.batchDuration(),
                    p0.numInputRows(), firstS, rssPeakMb());
        } finally {
            deleteRecursively(chk);
        }
    }

    /**
     * {@code batches} tiny batches into the json sink: every 1,000 batches one {@code sluice manifest-at} line (the
     * manifest folder's files and bytes, the newest compact file's entries, the median {@code addBatch} of the
     * compaction batches and of the others among those 1,000), then one {@code sluice manifest} line comparing the
     * first and the last 1,000. {@code addBatch} holds the sink's whole commit (data file, renames, manifest write,
     * compaction, deletion of expired manifest files).
     */
    static void manifest(long batches, List<String> sinkOptions) throws Exception {
        Path chk = checkpointDir("manifest");
        Path out = checkpointDir("manifest-out");
        Path metadata = out.resolve("_spark_metadata");
        Collector c = new Collector();
        CountDownLatch done = new CountDownLatch(1);
        List<long[]> points = new ArrayList<>(); // batch, files, bytes, compactEntries, compactMs, otherMs
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.addListener(c);
            sluice.addListener(new Listener() {
                private final List<Long> compactMs = new ArrayList<>();
                private final List<Long> otherMs = new ArrayList<>();

                @Override
                public void onQueryProgress(QueryProgressEvent event) {
                    StreamingQueryProgress p = event.progress();
                    long ms = p.durationMs().getOrDefault("addBatch", -1L);
                    ((p.batchId() + 1) % 10 == 0 ? compactMs : otherMs).add(ms);
                    if ((p.batchId() + 1) % 1_000 == 0) {
                        long[] point = manifestPoint(metadata, p.batchId(), compactMs, otherMs);
                        points.add(point);
                        System.out.printf(Locale.ROOT, "sluice manifest-at batch=%d files=%d bytes=%d"
                                        + " compact_entries=%d compact_add_batch_ms=%d other_add_batch_ms=%d%n",
                                point[0], point[1], point[2], point[3], point[4], point[5]);
                        compactMs.clear();
                        otherMs.clear();
                    }
                    if (p.batchId() + 1 >= batches) {
                        done.countDown();
                    }
                }
            });
            var writer = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 1)
                    .option("numPartitions", 1).load()
                    .writeStream().format("json").option("path", out.toString())
                    .option("checkpointLocation", chk.toString());
            for (String kv : sinkOptions) {
                int eq = kv.indexOf('=');
                writer = writer.option(kv.substring(0, eq), kv.substring(eq + 1));
            }
            long t0 = System.nanoTime();
            StreamingQuery q = writer.trigger(Trigger.defaultTrigger()).start();
            require(done.await(3_600, TimeUnit.SECONDS), "not " + batches + " batches within an hour: " + q.status());
            double seconds = (System.nanoTime() - t0) / 1e9;
            q.stop();
            c.awaitEnd();
            require(!points.isEmpty(), "fewer than 1,000 batches");
            long[] first = points.get(0);
            long[] last = points.get(points.size() - 1);
            System.out.printf(Locale.ROOT, "sluice manifest batches=%d options=%s seconds=%.1f files_start=%d"
                            + " files_end=%d bytes_start=%d bytes_end=%d compact_entries_start=%d"
                            + " compact_entries_end=%d compact_ms_start=%d compact_ms_end=%d other_ms_start=%d"
                            + " other_ms_end=%d max_files=%d max_bytes=%d%n", c.progress.size(),
                    String.join(",", sinkOptions), seconds, first[1], last[1], first[2], last[2], first[3], last[3],
                    first[4], last[4], first[5], last[5], points.stream().mapToLong(pt -> pt[1]).max().orElse(0),
                    points.stream().mapToLong(pt -> pt[2]).max().orElse(0));
        } finally {
            deleteRecursively(chk);
            deleteRecursively(out);
        }
    }

    private static long[] manifestPoint(Path metadata, long batchId, List<Long> compactMs, List<Long> otherMs) {
        long files = 0;
        long bytes = 0;
        Path newestCompact = null;
        long newestId = -1;
        try (var list = java.nio.file.Files.newDirectoryStream(metadata)) {
            for (Path f : list) {
                String name = f.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                files++;
                bytes += java.nio.file.Files.size(f);
                if (name.endsWith(".compact")) {
                    long id = Long.parseLong(name.substring(0, name.length() - 8));
                    if (id > newestId) {
                        newestId = id;
                        newestCompact = f;
                    }
                }
            }
        } catch (IOException e) {
            // a file deleted between the listing and its size: count the next time
        }
        long entries = 0;
        if (newestCompact != null) {
            try (var lines = java.nio.file.Files.lines(newestCompact)) {
                entries = lines.count() - 1;
            } catch (IOException | java.io.UncheckedIOException e) {
                entries = -1; // deleted meanwhile
            }
        }
        return new long[] {batchId, files, bytes, entries,
                percentile(compactMs.stream().mapToLong(Long::longValue).sorted().toArray(), 50),
                percentile(otherMs.stream().mapToLong(Long::longValue).sorted().toArray(), 50)};
    }

    /** Collects every progress in order, and the end of the query. */
    static final class Collector extends Listener {
        final List<StreamingQueryProgress> progress = new ArrayList<>();
        final CountDownLatch first = new CountDownLatch(1);
        /** Three batches: the write workloads' two warm-up batches and one measured. */
        final CountDownLatch three = new CountDownLatch(3);
        final CountDownLatch terminated = new CountDownLatch(1);
        volatile String failure;

        @Override
        public void onQueryProgress(QueryProgressEvent event) {
            synchronized (progress) {
                progress.add(event.progress());
            }
            first.countDown();
            three.countDown();
        }

        @Override
        public void onQueryTerminated(QueryTerminatedEvent event) {
            failure = event.exception();
            terminated.countDown();
        }

        /** Events arrive in order on the listener thread: after onQueryTerminated every progress is in. */
        void awaitEnd() throws InterruptedException {
            require(terminated.await(60, TimeUnit.SECONDS), "the query did not report its end");
            require(failure == null, "the query failed: " + failure);
        }

        List<Sample> samples() {
            synchronized (progress) {
                return progress.stream().map(p -> new Sample(p.batchId(), p.batchDuration(), p.numInputRows(),
                        Instant.parse(p.timestamp()).toEpochMilli())).toList();
            }
        }
    }

    // ---------------------------------------------------------------- running a query

    /** Runs rate-micro-batch to noop back to back for {@code seconds}, stops, and returns every batch's progress. */
    static Run runFor(String name, long rowsPerBatch, long seconds) throws Exception {
        Path chk = checkpointDir(name);
        List<Sample> samples = new ArrayList<>();
        CountDownLatch terminated = new CountDownLatch(1);
        String[] failure = new String[1];
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.addListener(new Listener() {
                @Override
                public void onQueryProgress(QueryProgressEvent event) {
                    StreamingQueryProgress p = event.progress();
                    synchronized (samples) {
                        samples.add(new Sample(p.batchId(), p.batchDuration(), p.numInputRows(),
                                Instant.parse(p.timestamp()).toEpochMilli()));
                    }
                }

                @Override
                public void onQueryTerminated(QueryTerminatedEvent event) {
                    failure[0] = event.exception();
                    terminated.countDown();
                }
            });
            long queryStartMs = System.currentTimeMillis();
            StreamingQuery q = sluice.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", rowsPerBatch).option("numPartitions", 2).load()
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.defaultTrigger()).start();
            Thread.sleep(seconds * 1000);
            q.stop();
            // Events arrive in order on the listener thread: after onQueryTerminated every progress is in.
            require(terminated.await(60, TimeUnit.SECONDS), "the query did not report its end");
            require(failure[0] == null, "the query failed: " + failure[0]);
            synchronized (samples) {
                return new Run(new ArrayList<>(samples), queryStartMs);
            }
        } finally {
            deleteRecursively(chk);
        }
    }

    // ---------------------------------------------------------------- helpers

    /** A listener with empty defaults. */
    private abstract static class Listener extends StreamingQueryListener {
        @Override
        public void onQueryStarted(QueryStartedEvent event) {
        }

        @Override
        public void onQueryProgress(QueryProgressEvent event) {
        }

        @Override
        public void onQueryTerminated(QueryTerminatedEvent event) {
        }
    }

    static Path checkpointDir(String name) throws IOException {
        return Measure.checkpointDir("sluice", name);
    }

}
