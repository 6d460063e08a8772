package io.sluice.core;

import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.parquet.ParquetSinkProvider;

/**
 * The process {@link ParquetSinkCrashTest} kills: rate-micro-batch (100 rows a batch, two partitions) into the real
 * Parquet file sink, halting at the crash point of the chosen batch; prints {@code batch N} per batch; stops
 * cleanly on {@code stop} from stdin.
 *
 * <p>Arguments: checkpoint folder, output folder, crash point, batch.
 */
public final class ParquetSinkCrashChild {
    private ParquetSinkCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        CrashChildMain.arm(CrashPoint.valueOf(args[2]), Long.parseLong(args[3]));
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.registerSource(new CrashChildMain.CrashingRate());
            sluice.registerSink(new CrashingSink(new ParquetSinkProvider()));
            CrashChildMain.reportBatches(sluice);
            StreamingQuery q = sluice.readStream().format("crashing-rate")
                    .option("rowsPerBatch", CrashChildMain.ROWS_PER_BATCH).option("numPartitions", 2).load()
                    .writeStream().option("checkpointLocation", args[0])
                    .format("crashing-parquet").option("path", args[1]).start();
            CrashChildMain.runUntilStopped(q);
        }
    }
}
