package io.sluice.bench;

import static io.sluice.bench.Measure.*;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

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
import java.util.function.Supplier;

/**
 * Spark 4.2's side of the engine benchmarks: the workloads and the measurement of {@code io.sluice.bench.EngineBench}
 * (bench/sluice-bench), on Spark local[2] (UI off, 2 shuffle partitions, log level ERROR). One machine-readable line
 * per result on stdout, starting with {@code spark <workload>}. Run with the flags in jvm-opens.txt.
 *
 * <pre>
 * overhead   [rowsPerBatch=1000]    [seconds=20]  per-batch overhead; batches in the first 3 s are warm-up
 * throughput [rowsPerBatch=5000000] [seconds=40]  rows/s; the first 3 batches are warm-up
 * startup                                          JVM start to the first committed batch (SparkSession included)
 * jsonread DIR | csvread DIR | parquetread DIR     availableNow file source (the events schema) to noop: rows/s
 *                                                  from start() to termination
 * jsonwrite  [rowsPerBatch=1000000] [seconds=20]  rate-micro-batch to the json file sink: rows/s (sum rows / sum
 *                                                  batchDuration, batches 0-1 warm-up); run_rows_per_s: every
 *                                                  committed row over start() to the last committed batch's end
 * parquetwrite [rowsPerBatch=1000000] [seconds=20] the same into the parquet file sink (snappy, Spark's default)
 * plan100k DIR [maxFilesPerTrigger=1000]          json file source over DIR's files: batch 0's latestOffset and total
 * plan200k DIR [maxFilesPerTrigger=1000]          the same (0: no maxFilesPerTrigger, every file in batch 0), peak RSS
 * kafka BOOTSTRAP TOPIC                           Spark's Kafka source (spark-sql-kafka-0-10), startingOffsets
 *                                                  earliest, availableNow to noop: rows/s from start() to termination
 * </pre>
 */
public final class SparkBench {
    private SparkBench() {
    }

    public static void main(String[] args) throws Exception {
        long mainEntered = System.currentTimeMillis();
        String workload = args.length > 0 ? args[0] : "overhead";
        if (!List.of("overhead", "throughput", "startup", "jsonread", "csvread", "parquetread", "jsonwrite",
                "parquetwrite", "plan100k", "plan200k", "kafka", "s3jsonread", "s3plan100k").contains(workload)) {
            System.err.println("usage: SparkBench overhead [rowsPerBatch=1000] [seconds=20]"
                    + " | throughput [rowsPerBatch=5000000] [seconds=40] | startup | jsonread|csvread|parquetread DIR"
                    + " | jsonwrite|parquetwrite [rowsPerBatch=1000000] [seconds=20] | plan100k|plan200k DIR [maxFilesPerTrigger=1000]"
                    + " | kafka BOOTSTRAP TOPIC | s3jsonread ENDPOINT s3a://B/P/ | s3plan100k ENDPOINT s3a://B/P/ [max]");
            System.exit(2);
        }
        long s0 = System.nanoTime();
        SparkSession spark = SparkSession.builder().master("local[2]").appName("sluice-spark-bench")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        double sessionSeconds = (System.nanoTime() - s0) / 1e9;
        switch (workload) {
            case "overhead" -> overhead(spark, longArg(args, 1, 1_000), longArg(args, 2, 20));
            case "throughput" -> throughput(spark, longArg(args, 1, 5_000_000), longArg(args, 2, 40));
            case "jsonread", "csvread", "parquetread" -> {
                // -Dbench.rounds=N: the same read N times in this JVM, one line each (round=K): the later rounds
                // show the engine without the JVM's warm-up; the benchmark's figure is round 1 of a fresh JVM.
                int rounds = Integer.getInteger("bench.rounds", 1);
                for (int round = 1; round <= rounds; round++) {
                    fileRead(spark, workload, args[1], rounds > 1 ? " round=" + round : "");
                }
            }
            case "jsonwrite", "parquetwrite" -> fileWrite(spark, workload, longArg(args, 1, 1_000_000),
                    longArg(args, 2, 20));
            case "plan100k", "plan200k" -> plan(spark, workload, args[1], longArg(args, 2, 1_000));
            case "kafka" -> kafka(spark, args[1], args[2]);
            case "s3jsonread" -> SparkS3Bench.read(spark, args[1], args[2]);
            case "s3plan100k" -> SparkS3Bench.plan(spark, args[1], args[2], longArg(args, 3, 1_000));
            default -> startup(spark, mainEntered, sessionSeconds);
        }
        // Spark leaves non-daemon threads behind; the result is printed, so leave at once.
        System.exit(0);
    }

    // ---------------------------------------------------------------- workloads

    static void overhead(SparkSession spark, long rowsPerBatch, long seconds) throws Exception {
        Run run = runFor(spark, "overhead", rowsPerBatch, seconds);
        System.out.print(Measure.overheadLine("spark", run, rowsPerBatch, seconds));
    }

    static void throughput(SparkSession spark, long rowsPerBatch, long seconds) throws Exception {
        Run run = runFor(spark, "throughput", rowsPerBatch, seconds);
        System.out.print(Measure.throughputLine("spark", run, rowsPerBatch, seconds));
    }

    static void startup(SparkSession spark, long mainEntered, double sessionSeconds) throws Exception {
        Path chk = checkpointDir("startup");
        CountDownLatch first = new CountDownLatch(1);
        long[] firstBatchAt = new long[1];
        long[] firstBatchDuration = new long[1];
        spark.streams().addListener(new Listener() {
            @Override
            public void onQueryProgress(QueryProgressEvent event) {
                if (first.getCount() > 0) {
                    firstBatchAt[0] = System.currentTimeMillis();
                    firstBatchDuration[0] = event.progress().batchDuration();
                    first.countDown();
                }
            }
        });
        try {
            StreamingQuery q = spark.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", 1000).option("numPartitions", 2).load()
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.ProcessingTime(0L)).start();
            require(first.await(120, TimeUnit.SECONDS), "no batch within 120 s: " + q.status());
            long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
            long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            long heapPeak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                    heapPeak += pool.getPeakUsage().getUsed();
                }
            }
            System.out.printf(Locale.ROOT, "spark startup first_batch_ms=%d main_to_first_batch_ms=%d session_s=%.2f"
                            + " first_batch_duration_ms=%d heap_used_mb=%.1f heap_peak_mb=%.1f rss_peak_mb=%s%n",
                    firstBatchAt[0] - jvmStart, firstBatchAt[0] - mainEntered, sessionSeconds,
                    firstBatchDuration[0], heapUsed / 1048576.0, heapPeak / 1048576.0, rssPeakMb());
            q.stop();
        } finally {
            deleteRecursively(chk);
        }
    }

    static final String EVENTS_DDL = "event_id string, user_id string, amount_cents long, event_time timestamp";

    static void fileRead(SparkSession spark, String workload, String dir, String round) throws Exception {
        String format = workload.substring(0, workload.length() - "read".length());
        availableNowToNoop(spark, workload, round, () -> spark.readStream().format(format).schema(EVENTS_DDL).load(dir));
    }

    /**
     * Builds the input (inside the measured time, as sluice-bench does), runs it with availableNow into noop and
     * prints {@code spark NAME rows=.. batches=.. seconds=.. rows_per_s=.. batch_ms=.. batch_rows_per_s=..} and
     * {@code extra}.
     */
    static void availableNowToNoop(SparkSession spark, String name, String extra, Supplier<Dataset<Row>> input)
            throws Exception {
        Path chk = checkpointDir(name);
        Collector c = new Collector();
        spark.streams().addListener(c);
        try {
            long t0 = System.nanoTime();
            StreamingQuery q = input.get().writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.AvailableNow()).start();
            q.awaitTermination();
            double seconds = (System.nanoTime() - t0) / 1e9;
            c.awaitEnd();
            List<Sample> samples = c.samples();
            long rows = samples.stream().mapToLong(Sample::rows).sum();
            // batch_ms: the batches' own durations; the rest of `seconds` is starting and stopping the query.
            long batchMs = samples.stream().mapToLong(Sample::durationMs).sum();
            System.out.printf(Locale.ROOT, "spark %s rows=%d batches=%d seconds=%.3f rows_per_s=%.0f batch_ms=%d"
                            + " batch_rows_per_s=%.0f%s%n", name, rows, samples.size(), seconds, rows / seconds,
                    batchMs, rows * 1000.0 / Math.max(1, batchMs), extra);
        } finally {
            spark.streams().removeListener(c);
            deleteRecursively(chk);
        }
    }

    /** rate-micro-batch into the file sink of {@code jsonwrite}'s or {@code parquetwrite}'s format, back to back. */
    static void fileWrite(SparkSession spark, String workload, long rowsPerBatch, long seconds) throws Exception {
        String format = workload.substring(0, workload.length() - "write".length());
        Path chk = checkpointDir(workload);
        Path out = checkpointDir(workload + "-out");
        Collector c = new Collector();
        spark.streams().addListener(c);
        try {
            long startMs = System.currentTimeMillis();
            StreamingQuery q = spark.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", rowsPerBatch).option("numPartitions", 2).load()
                    .writeStream().format(format).option("path", out.toString())
                    .option("checkpointLocation", chk.toString())
                    .trigger(Trigger.ProcessingTime(0L)).start();
            Thread.sleep(seconds * 1000);
            // On a loaded machine Spark may not reach its third batch in `seconds`: wait for it (up to 10 minutes).
            require(c.three.await(600, TimeUnit.SECONDS), "fewer than 3 batches in 10 minutes");
            q.stop();
            c.awaitEnd();
            System.out.print(Measure.writeLine("spark", workload, c.samples(), startMs, rowsPerBatch, seconds,
                    sizeOf(out)));
        } finally {
            deleteRecursively(chk);
            deleteRecursively(out);
        }
    }

    static void plan(SparkSession spark, String workload, String dir, long maxFilesPerTrigger) throws Exception {
        Path chk = checkpointDir(workload);
        Collector c = new Collector();
        spark.streams().addListener(c);
        try {
            long t0 = System.nanoTime();
            var reader = spark.readStream().format("json").schema(EVENTS_DDL);
            if (maxFilesPerTrigger > 0) {
                reader = reader.option("maxFilesPerTrigger", maxFilesPerTrigger);
            }
            StreamingQuery q = reader.load(dir)
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.ProcessingTime(0L)).start();
            require(c.first.await(600, TimeUnit.SECONDS), "no batch within 600 s: " + q.status());
            double firstS = (System.nanoTime() - t0) / 1e9;
            q.stop();
            c.awaitEnd();
            StreamingQueryProgress p0 = c.progress.get(0);
            Long latest = p0.durationMs().get("latestOffset");
            System.out.printf(Locale.ROOT, "spark %s max_files_per_trigger=%d batch0_latest_offset_ms=%d"
                            + " batch0_total_ms=%d batch0_rows=%d start_to_batch0_s=%.3f rss_peak_mb=%s%n", workload,
                    maxFilesPerTrigger, latest == null ? -1L : latest, p0.batchDuration(), p0.numInputRows(), firstS,
                    rssPeakMb());
        } finally {
            deleteRecursively(chk);
        }
    }

    /** The same query as sluice-bench's KafkaBench sluice: every record of TOPIC once, availableNow, to noop. */
    static void kafka(SparkSession spark, String bootstrap, String topic) throws Exception {
        availableNowToNoop(spark, "kafka", "", () -> spark.readStream().format("kafka")
                .option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic)
                .option("startingOffsets", "earliest").load());
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
            failure = event.exception().isDefined() ? event.exception().get() : null;
            terminated.countDown();
        }

        /** Spark's listener bus delivers in order: after onQueryTerminated every progress is in. */
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
    static Run runFor(SparkSession spark, String name, long rowsPerBatch, long seconds) throws Exception {
        Path chk = checkpointDir(name);
        List<Sample> samples = new ArrayList<>();
        CountDownLatch terminated = new CountDownLatch(1);
        String[] failure = new String[1];
        spark.streams().addListener(new Listener() {
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
                failure[0] = event.exception().isDefined() ? event.exception().get() : null;
                terminated.countDown();
            }
        });
        try {
            long queryStartMs = System.currentTimeMillis();
            StreamingQuery q = spark.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", rowsPerBatch).option("numPartitions", 2).load()
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.ProcessingTime(0L)).start();
            Thread.sleep(seconds * 1000);
            q.stop();
            // Spark's listener bus delivers in order: after onQueryTerminated every progress is in.
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
        return Measure.checkpointDir("spark", name);
    }

}
