package io.sluice.core;

import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.kafka.KafkaSinkProvider;

/**
 * The process {@link KafkaSinkCrashTest} kills: rate-micro-batch (100 rows a batch, 2 partitions) into the Kafka
 * sink with {@code exactlyOnce=true}, each row's value the rate's value as text. Halts at the crash point of the
 * chosen batch (in the middle of a partition's sends, or after the sink's commit and before commits/N, or at the
 * engine's points); prints {@code batch N} per batch; stops cleanly on {@code stop} from stdin.
 *
 * <p>Arguments: checkpoint folder, bootstrap servers, topic, crash point, batch.
 */
public final class KafkaSinkCrashChild {
    private KafkaSinkCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        String checkpoint = args[0];
        String bootstrap = args[1];
        String topic = args[2];
        CrashChildMain.arm(CrashPoint.valueOf(args[3]), Long.parseLong(args[4]));
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.registerSource(new CrashChildMain.CrashingRate()).registerSink(new CrashingSink(new KafkaSinkProvider()));
            CrashChildMain.reportBatches(sluice);
            StreamingQuery q = sluice.readStream().format("crashing-rate")
                    .option("rowsPerBatch", CrashChildMain.ROWS_PER_BATCH).option("numPartitions", 2).load()
                    .selectExpr("CAST(value AS STRING) AS value")
                    .writeStream().format("crashing-kafka").option("kafka.bootstrap.servers", bootstrap)
                    .option("topic", topic).option("exactlyOnce", "true")
                    .option("checkpointLocation", checkpoint).start();
            CrashChildMain.runUntilStopped(q);
        }
    }
}
