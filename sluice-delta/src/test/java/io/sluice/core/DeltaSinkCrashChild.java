package io.sluice.core;

import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.delta.DeltaSinkProvider;

/**
 * The process {@link DeltaSinkCrashTest} kills: rate-micro-batch (100 rows a batch, two partitions) into the Delta
 * sink, halting at the crash point of the chosen batch; prints {@code batch N} per batch; stops cleanly on
 * {@code stop} from stdin.
 *
 * <p>Arguments: checkpoint folder, table folder, crash point, batch.
 */
public final class DeltaSinkCrashChild {
    private DeltaSinkCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        CrashChildMain.arm(CrashPoint.valueOf(args[2]), Long.parseLong(args[3]));
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.registerSource(new CrashChildMain.CrashingRate());
            sluice.registerSink(new CrashingSink(new DeltaSinkProvider()));
            CrashChildMain.reportBatches(sluice);
            StreamingQuery q = sluice.readStream().format("crashing-rate")
                    .option("rowsPerBatch", CrashChildMain.ROWS_PER_BATCH).option("numPartitions", 2).load()
                    .writeStream().option("checkpointLocation", args[0])
                    .format("crashing-delta").option("path", args[1]).start();
            CrashChildMain.runUntilStopped(q);
        }
    }
}
