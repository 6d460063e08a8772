package io.sluice.bench;

import static io.sluice.bench.Measure.*;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.window;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Spark 4.2's side of the stateful benchmarks: the queries and the measurement of {@code io.sluice.bench.StatefulBench}
 * (bench/sluice-bench) on Spark local[2] (UI off, 2 shuffle partitions, log level ERROR); {@code dedup10m} with
 * Spark's RocksDB state store provider. Run with the flags in jvm-opens.txt.
 *
 * <pre>
 * windowcount [rowsPerBatch=1000000] [seconds=40]
 * dedup10m [rowsPerBatch=1000000]
 * statefuloverhead [rowsPerBatch=1000] [seconds=20]
 * </pre>
 */
public final class SparkStatefulBench {
    static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

    private SparkStatefulBench() {
    }

    public static void main(String[] args) throws Exception {
        String workload = args.length > 0 ? args[0] : "windowcount";
        if (!List.of("windowcount", "dedup10m", "dedup10m-restart", "statefuloverhead").contains(workload)) {
            System.err.println("usage: SparkStatefulBench windowcount [rowsPerBatch=1000000] [seconds=40]"
                    + " | dedup10m [rowsPerBatch=1000000] | statefuloverhead [rowsPerBatch=1000] [seconds=20]");
            System.exit(2);
        }
        SparkSession spark = SparkSession.builder().master("local[2]").appName("sluice-spark-bench")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        switch (workload) {
            case "windowcount" -> System.out.print(StatefulMeasure.windowCountLine("spark",
                    windowRun(spark, "windowcount", longArg(args, 1, 1_000_000), longArg(args, 2, 40)),
                    longArg(args, 1, 1_000_000), longArg(args, 2, 40)));
            case "statefuloverhead" -> System.out.print(StatefulMeasure.overheadLine("spark",
                    windowRun(spark, "statefuloverhead", longArg(args, 1, 1_000), longArg(args, 2, 20)),
                    longArg(args, 1, 1_000), longArg(args, 2, 20)));
            case "dedup10m" -> dedup(spark, longArg(args, 1, 1_000_000));
            default -> dedupRestart(spark, args[1]);
        }
        // Spark leaves non-daemon threads behind; the result is printed, so leave at once.
        System.exit(0);
    }

    static Run windowRun(SparkSession spark, String name, long rowsPerBatch, long seconds) throws Exception {
        Path chk = Measure.checkpointDir("spark", name);
        SparkBench.Collector c = new SparkBench.Collector();
        spark.streams().addListener(c);
        try {
            long queryStartMs = System.currentTimeMillis();
            StreamingQuery q = spark.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", rowsPerBatch).option("numPartitions", 2).load()
                    .withWatermark("timestamp", "10 seconds")
                    .groupBy(window(col("timestamp"), "10 seconds")).count()
                    .writeStream().format("noop").outputMode("append").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.ProcessingTime(0L)).start();
            Thread.sleep(seconds * 1000);
            awaitBatches(c, 5);
            q.stop();
            c.awaitEnd();
            return new Run(c.samples(), queryStartMs);
        } finally {
            spark.streams().removeListener(c);
            deleteRecursively(chk);
        }
    }

    private static Dataset<Row> dedupQuery(SparkSession spark, long rowsPerBatch) {
        return spark.readStream().format("rate-micro-batch").option("rowsPerBatch", rowsPerBatch)
                .option("numPartitions", 2).load().dropDuplicates("value");
    }

    static void dedup(SparkSession spark, long rowsPerBatch) throws Exception {
        spark.conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
        Path chk = Measure.checkpointDir("spark", "dedup10m");
        SparkBench.Collector c = new SparkBench.Collector();
        spark.streams().addListener(c);
        try {
            StreamingQuery q = dedupQuery(spark, rowsPerBatch).writeStream().format("noop")
                    .option("checkpointLocation", chk.toString()).trigger(Trigger.ProcessingTime(0L)).start();
            awaitBatches(c, StatefulMeasure.DEDUP_BATCHES);
            q.stop();
            c.awaitEnd();
            List<Sample> samples = c.samples().subList(0, StatefulMeasure.DEDUP_BATCHES);
            long committed = StatefulMeasure.dropUncommittedBatch(chk);
            long stateBytes = sizeOf(chk.resolve("state"));
            String restart = StatefulMeasure.restartInChild("spark", SparkStatefulBench.class, chk.toString());
            System.out.print(StatefulMeasure.dedupLine("spark", samples, committed, stateBytes, restart));
        } finally {
            spark.streams().removeListener(c);
            deleteRecursively(chk);
        }
    }

    static void dedupRestart(SparkSession spark, String chk) throws Exception {
        spark.conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
        SparkBench.Collector c = new SparkBench.Collector();
        spark.streams().addListener(c);
        long t0 = System.nanoTime();
        StreamingQuery q = dedupQuery(spark, 1_000).writeStream().format("noop")
                .option("checkpointLocation", chk).trigger(Trigger.ProcessingTime(0L)).start();
        require(c.first.await(600, TimeUnit.SECONDS), "no batch within 600 s: " + q.status());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        q.stop();
        c.awaitEnd();
        StreamingQueryProgress p = c.progress.get(0);
        String durations = new TreeMap<>(p.durationMs()).entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(","));
        long keys = p.stateOperators().length == 0 ? -1 : p.stateOperators()[0].numRowsTotal();
        System.out.print(StatefulMeasure.restartLine("spark", ms, c.samples().get(0), durations + ",keys:" + keys));
    }

    private static void awaitBatches(SparkBench.Collector c, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (true) {
            synchronized (c.progress) {
                if (c.progress.size() >= n) {
                    return;
                }
            }
            require(System.nanoTime() < deadline, "fewer than " + n + " batches in 10 minutes");
            require(c.terminated.getCount() > 0, "the query ended: " + c.failure);
            Thread.sleep(20); // polling the listener's list: the bench's own wait, not a test's
        }
    }
}
