package io.sluice.parquet;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;

/**
 * The small-heap process of {@link ParquetMemoryTest}: one batch of rate-micro-batch rows (two partitions, two
 * writer threads) into the Parquet sink with {@code partitionBy("p")} over many {@code p} values, every open file
 * getting rows to the end. Prints {@code done} once the query finished.
 *
 * <p>Arguments: checkpoint folder, output folder, rows, partitions, then sink option pairs.
 */
public final class ParquetMemoryChild {
    private ParquetMemoryChild() {
    }

    public static void main(String[] args) throws Exception {
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            var w = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", args[2])
                    .option("numPartitions", 2).load()
                    .selectExpr("value % " + args[3] + " AS p", "value AS id",
                            "concat(cast(value * 2654435761 AS string), '-', cast(value * 40503 AS string), '-', "
                                    + "cast(value * 7919 AS string), '-', cast(value * 104729 AS string)) AS s")
                    .writeStream().format("parquet").partitionBy("p").option("checkpointLocation", args[0])
                    .trigger(Trigger.availableNow());
            for (int i = 4; i + 1 < args.length; i += 2) {
                w = w.option(args[i], args[i + 1]);
            }
            StreamingQuery q = w.start(args[1]);
            q.awaitTermination();
        }
        System.out.println("done");
    }
}
