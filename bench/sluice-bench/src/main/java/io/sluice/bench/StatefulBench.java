package io.sluice.bench;

import static io.sluice.bench.Measure.*;
import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.window;

import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Sluice's side of the stateful benchmarks; {@code io.sluice.bench.SparkStatefulBench} (bench/spark-bench) runs the
 * same queries on Spark 4.2 local[2], measured by the same {@link StatefulMeasure}. Sluice runs with 2 state
 * partitions ({@code spark.sql.shuffle.partitions=2}, as the Spark side).
 *
 * <pre>
 * windowcount [rowsPerBatch=1000000] [seconds=40]   rate-micro-batch, withWatermark("timestamp", "10 seconds"),
 *                                                    groupBy(window(timestamp, "10 seconds")).count(), append, to
 *                                                    noop: rows/s batch against batch (batches 0-2 warm-up)
 * dedup10m [rowsPerBatch=1000000]                    rate-micro-batch, dropDuplicates("value") in the RocksDB
 *                                                    store, until 10 batches committed (10 M distinct keys): rows/s;
 *                                                    then a fresh JVM restarts on that checkpoint (rowsPerBatch 1000):
 *                                                    start() to its first committed batch
 * statefuloverhead [rowsPerBatch=1000] [seconds=20]  the windowcount query at 1,000 rows a batch: median
 *                                                    batchDuration (batches in the first 3 s warm-up)
 * </pre>
 */
public final class StatefulBench {
    static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

    private StatefulBench() {
    }

    public static void main(String[] args) throws Exception {
        String workload = args.length > 0 ? args[0] : "windowcount";
        switch (workload) {
            case "windowcount" -> System.out.print(StatefulMeasure.windowCountLine("sluice",
                    windowRun("windowcount", longArg(args, 1, 1_000_000), longArg(args, 2, 40)),
                    longArg(args, 1, 1_000_000), longArg(args, 2, 40)));
            case "statefuloverhead" -> System.out.print(StatefulMeasure.overheadLine("sluice",
                    windowRun("statefuloverhead", longArg(args, 1, 1_000), longArg(args, 2, 20)),
                    longArg(args, 1, 1_000), longArg(args, 2, 20)));
            case "dedup10m" -> dedup(longArg(args, 1, 1_000_000));
            case "dedup10m-restart" -> dedupRestart(Path.of(args[1]));
            default -> {
                System.err.println("usage: StatefulBench windowcount [rowsPerBatch=1000000] [seconds=40]"
                        + " | dedup10m [rowsPerBatch=1000000] | statefuloverhead [rowsPerBatch=1000] [seconds=20]");
                System.exit(2);
            }
        }
        System.exit(0);
    }

    private static Sluice.Builder session() {
        return Sluice.builder().parallelism(2).config("spark.sql.shuffle.partitions", "2");
    }

    /** The windowed count back to back for {@code seconds}; every batch's progress. */
    static Run windowRun(String name, long rowsPerBatch, long seconds) throws Exception {
        Path chk = checkpointDir(name);
        EngineBench.Collector c = new EngineBench.Collector();
        try (Sluice sluice = session().build()) {
            sluice.addListener(c);
            long queryStartMs = System.currentTimeMillis();
            StreamingQuery q = sluice.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", rowsPerBatch).option("numPartitions", 2).load()
                    .withWatermark("timestamp", "10 seconds")
                    .groupBy(window(col("timestamp"), "10 seconds")).count()
                    .writeStream().format("noop").outputMode("append").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.defaultTrigger()).start();
            Thread.sleep(seconds * 1000);
            // Under load the 1 M-row query may not reach its warm-up's end in `seconds`: wait for 5 batches.
            awaitBatches(c, 5);
            q.stop();
            c.awaitEnd();
            return new Run(c.samples(), queryStartMs);
        } finally {
            deleteRecursively(chk);
        }
    }

    private static StreamFrame dedupQuery(Sluice sluice, long rowsPerBatch) {
        return sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", rowsPerBatch)
                .option("numPartitions", 2).load().dropDuplicates("value");
    }

    static void dedup(long rowsPerBatch) throws Exception {
        Path chk = checkpointDir("dedup10m");
        EngineBench.Collector c = new EngineBench.Collector();
        try {
            try (Sluice sluice = session().config("spark.sql.streaming.stateStore.providerClass", ROCKSDB).build()) {
                sluice.addListener(c);
                StreamingQuery q = dedupQuery(sluice, rowsPerBatch).writeStream().format("noop")
                        .option("checkpointLocation", chk.toString()).trigger(Trigger.defaultTrigger()).start();
                awaitBatches(c, StatefulMeasure.DEDUP_BATCHES);
                q.stop();
                c.awaitEnd();
            }
            List<Sample> samples = c.samples().subList(0, StatefulMeasure.DEDUP_BATCHES);
            long committed = StatefulMeasure.dropUncommittedBatch(chk);
            long stateBytes = sizeOf(chk.resolve("state"));
            String restart = StatefulMeasure.restartInChild("sluice", StatefulBench.class, chk.toString());
            System.out.print(StatefulMeasure.dedupLine("sluice", samples, committed, stateBytes, restart));
        } finally {
            deleteRecursively(chk);
        }
    }

    /** In a fresh JVM: the dedup query again on its checkpoint, 1,000 rows a batch, until its first batch. */
    static void dedupRestart(Path chk) throws Exception {
        EngineBench.Collector c = new EngineBench.Collector();
        try (Sluice sluice = session().config("spark.sql.streaming.stateStore.providerClass", ROCKSDB).build()) {
            sluice.addListener(c);
            long t0 = System.nanoTime();
            StreamingQuery q = dedupQuery(sluice, 1_000).writeStream().format("noop")
                    .option("checkpointLocation", chk.toString()).trigger(Trigger.defaultTrigger()).start();
            require(c.first.await(600, TimeUnit.SECONDS), "no batch within 600 s: " + q.status());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            q.stop();
            c.awaitEnd();
            StreamingQueryProgress p = c.progress.get(0);
            String durations = new TreeMap<>(p.durationMs()).entrySet().stream()
                    .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(","));
            long keys = p.stateOperators().isEmpty() ? -1 : p.stateOperators().get(0).numRowsTotal();
            System.out.print(StatefulMeasure.restartLine("sluice", ms, c.samples().get(0), durations + ",keys:"
                    + keys));
        }
    }

    private static void awaitBatches(EngineBench.Collector c, int n) throws InterruptedException {
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

    static Path checkpointDir(String name) throws java.io.IOException {
        return Measure.checkpointDir("sluice", name);
    }
}
