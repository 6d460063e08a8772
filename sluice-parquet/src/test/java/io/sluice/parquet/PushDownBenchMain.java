package io.sluice.parquet;

import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Measures column pruning and row-group skipping by hand (docs/benchmarks.md): writes 2 M rows of five columns
 * into Parquet once (4 MB row groups, two files) under the folder given, then reads them to the noop sink three
 * times in four ways: a 1% {@code where} and a one-column {@code select}, each behind a Java {@code filter}
 * (opaque to the engine: no push-down) and without it. Not a test: run with the module's test class path.
 */
public final class PushDownBenchMain {
    private PushDownBenchMain() {
    }

    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0]);
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            if (!Files.exists(dir.resolve("out"))) {
                long t0 = System.nanoTime();
                StreamingQuery w = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 2_000_000)
                        .option("numPartitions", 2).load()
                        .selectExpr("value AS id", "value % 1000 AS k",
                                "concat('name-', CAST(value AS STRING)) AS name",
                                "CAST(value AS DOUBLE) * 1.5 AS amount", "timestamp AS ts")
                        .writeStream().format("parquet").option("parquet.block.size", 4 << 20)
                        .option("checkpointLocation", dir.resolve("chk-w").toString())
                        .trigger(Trigger.availableNow()).start(dir.resolve("out").toString());
                w.awaitTermination();
                System.out.printf("write %.2f s%n", (System.nanoTime() - t0) / 1e9);
            }
            String ddl = "id bigint, k bigint, name string, amount double, ts timestamp";
            int run = 0;
            for (int rep = 0; rep < 3; rep++) {
                for (String variant : new String[]{"opaque-where", "pushdown-where", "opaque-select",
                        "pushdown-select"}) {
                    UnaryOperator<StreamFrame> q = switch (variant) {
                        case "opaque-where" -> f -> f.filter(r -> true).where("id >= 1980000");
                        case "pushdown-where" -> f -> f.where("id >= 1980000");
                        case "opaque-select" -> f -> f.filter(r -> true).select("id");
                        default -> f -> f.select("id");
                    };
                    long t0 = System.nanoTime();
                    StreamingQuery r = q.apply(sluice.readStream().format("parquet").schema(ddl)
                            .load(dir.resolve("out").toString())).writeStream().format("noop")
                            .option("checkpointLocation", dir.resolve("chk-r" + run++).toString())
                            .trigger(Trigger.availableNow()).start();
                    r.awaitTermination();
                    double s = (System.nanoTime() - t0) / 1e9;
                    var p = r.lastProgress();
                    System.out.printf("%s rep %d: %.2f s, rows out %d, metrics %s%n", variant, rep, s,
                            p.sink().numOutputRows(), p.sources().get(0).metrics().entrySet().stream()
                                    .filter(e -> e.getKey().startsWith("numRowGroups")).toList());
                }
            }
        }
    }
}
