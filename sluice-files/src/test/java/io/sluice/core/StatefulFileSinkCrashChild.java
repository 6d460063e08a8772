package io.sluice.core;

import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.files.sink.JsonSinkProvider;

import static io.sluice.core.Functions.col;

/**
 * The process {@link StatefulFileSinkCrashTest} kills: a stateful query over rate-micro-batch ({@value #ROWS_PER_BATCH}
 * rows a batch, 2 partitions, event time {@link #START_MS} advancing 1 s a batch) into the real JSON file sink
 * (wrapped by {@link CrashingSink}, which can halt after the sink's commit and before {@code commits/N}). Prints
 * {@code batch N} per batch; stops cleanly on {@code stop} from stdin.
 *
 * <p>Arguments: query ({@code window}: a 5-second tumbling count, watermark 2 s, append, as rows {@code start}
 * (epoch seconds), {@code count}; {@code dedup}: {@code dropDuplicates} of {@code key = value % 300}, as rows
 * {@code key}), checkpoint folder, output folder, crash point, batch.
 */
public final class StatefulFileSinkCrashChild {
    static final int ROWS_PER_BATCH = 50;
    static final long START_MS = java.time.Instant.parse("2026-01-01T10:00:00Z").toEpochMilli();

    private StatefulFileSinkCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        CrashChildMain.arm(CrashPoint.valueOf(args[3]), Long.parseLong(args[4]));
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.registerSink(new CrashingSink(new JsonSinkProvider()));
            CrashChildMain.reportBatches(sluice);
            StreamFrame rate = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", ROWS_PER_BATCH)
                    .option("numPartitions", 2).option("startTimestamp", START_MS)
                    .option("advanceMillisPerBatch", 1000).load();
            StreamFrame query = args[0].equals("window")
                    ? rate.withWatermark("timestamp", "2 seconds")
                            .groupBy(Functions.window(col("timestamp"), "5 seconds")).count()
                            .select(col("window").getField("start").cast("long").as("start"), col("count"))
                    : rate.withColumn("key", col("value").mod(300)).dropDuplicates("key").select("key");
            StreamingQuery q = query.writeStream().format("crashing-json").outputMode("append")
                    .option("path", args[2]).option("checkpointLocation", args[1])
                    .trigger(Trigger.processingTime(20)).start();
            CrashChildMain.runUntilStopped(q);
        }
        System.out.println("stopped");
    }
}
