package io.sluice.spark;

import io.sluice.core.Functions;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.Trigger;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same stateful queries on Spark 4.2 and on Sluice, over the same JSON files read one per batch
 * ({@code maxFilesPerTrigger} 1, {@code availableNow}): the rows of every batch, batch ids included (so the
 * no-data batches too), must be the same.
 */
class StatefulDifferentialTest {
    private static SparkSession spark;
    private static Sluice sluice;
    private static final String SCHEMA = "id STRING, ts TIMESTAMP";

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        spark = SharedSpark.session(Map.of("spark.sql.shuffle.partitions", "2"));
        sluice = Sluice.builder().config("spark.sql.session.timeZone", "UTC").build();
        Path in = dir.resolve("in");
        Files.createDirectories(in);
        String[][] files = {
                {"a@3", "b@7", "c@14", "a@8"},
                {"d@25", "i@19"},
                {"late@1", "e@16", "b@17"},
                {"f@40", "a@41"},
                {"g@12", "h@44"},
        };
        long mtime = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        for (int i = 0; i < files.length; i++) {
            StringBuilder json = new StringBuilder();
            for (String e : files[i]) {
                String[] p = e.split("@");
                json.append("{\"id\":\"").append(p[0]).append("\",\"ts\":\"")
                        .append(Instant.parse("2026-01-01T10:00:00Z").plusSeconds(Integer.parseInt(p[1])))
                        .append("\"}\n");
            }
            Path f = in.resolve("part-" + i + ".json");
            Files.writeString(f, json);
            Files.setLastModifiedTime(f, FileTime.fromMillis(mtime + i * 1000L));
        }
        Path names = dir.resolve("static");
        Files.createDirectories(names);
        Files.writeString(names.resolve("names.json"), "{\"key\":\"a\",\"name\":\"Ann\"}\n"
                + "{\"key\":\"b\",\"name\":\"Bob\"}\n{\"key\":\"b\",\"name\":\"Bea\"}\n");
    }

    private static final String SQL = "SELECT window(ts, '10 seconds') AS w, count(*) AS n, max(id) AS m, "
            + "sum(length(id)) - min(length(id)) AS spread FROM source WHERE id <> 'g' GROUP BY window(ts, '10 seconds')";

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.close();
        }
    }

    private static Map<Long, List<String>> onSpark(String query, String mode, Path chk) throws Exception {
        Dataset<org.apache.spark.sql.Row> in = spark.readStream().format("json").schema(SCHEMA)
                .option("maxFilesPerTrigger", 1).load(dir.resolve("in").toString());
        Dataset<org.apache.spark.sql.Row> q = switch (query) {
            case "window" -> in.withWatermark("ts", "10 seconds")
                    .groupBy(org.apache.spark.sql.functions.window(org.apache.spark.sql.functions.col("ts"), "10 seconds")).count()
                    .selectExpr("CAST(window.start AS STRING)", "CAST(window.end AS STRING)", "count");
            case "sliding" -> in.withWatermark("ts", "5 seconds")
                    .groupBy(org.apache.spark.sql.functions.window(org.apache.spark.sql.functions.col("ts"), "10 seconds", "5 seconds"))
                    .agg(org.apache.spark.sql.functions.count("*"), org.apache.spark.sql.functions.min("id"),
                            org.apache.spark.sql.functions.max("ts"))
                    .selectExpr("CAST(window.start AS STRING)", "`count(1)`", "`min(id)`", "CAST(`max(ts)` AS STRING)");
            case "dedup" -> in.withWatermark("ts", "10 seconds").dropDuplicates("id", "ts").select("id");
            case "dedupWithin" -> in.withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark("id")
                    .selectExpr("id", "CAST(ts AS STRING)");
            case "session" -> in.withWatermark("ts", "5 seconds")
                    .groupBy(org.apache.spark.sql.functions.session_window(org.apache.spark.sql.functions.col("ts"),
                            "5 seconds"), org.apache.spark.sql.functions.expr("id < 'd'").as("early")).agg(org.apache.spark.sql.functions.count("*"),
                            org.apache.spark.sql.functions.max("id"))
                    .selectExpr("CAST(session_window.start AS STRING)", "CAST(session_window.end AS STRING)",
                            "early", "`count(1)`", "`max(id)`");
            case "exprAgg" -> in.withWatermark("ts", "10 seconds")
                    .groupBy(org.apache.spark.sql.functions.expr("window(ts, '10 seconds')"))
                    .agg(org.apache.spark.sql.functions.expr("count(*) as n"), org.apache.spark.sql.functions.expr("max(ts)"),
                            org.apache.spark.sql.functions.expr("count(*) * 2 + length(max(id)) AS x"))
                    .selectExpr("CAST(window.start AS STRING)", "n", "CAST(`max(ts)` AS STRING)", "x");
            case "sql" -> {
                in.withWatermark("ts", "10 seconds").createOrReplaceTempView("source");
                yield spark.sql(SQL).selectExpr("CAST(w.start AS STRING)", "n", "m", "CAST(spread AS STRING)");
            }
            case "global" -> in.selectExpr("count(*) AS n", "max(id)", "min(ts) IS NOT NULL AS seen");
            case "dedupCount" -> in.withWatermark("ts", "10 seconds").dropDuplicates("id", "ts")
                    .groupBy(org.apache.spark.sql.functions.window(org.apache.spark.sql.functions.col("ts"), "10 seconds")).count()
                    .selectExpr("CAST(window.start AS STRING)", "count");
            case "union" -> in.withWatermark("ts", "10 seconds").union(spark.readStream().format("json").schema(SCHEMA)
                            .option("maxFilesPerTrigger", 2).load(dir.resolve("in").toString())
                            .withWatermark("ts", "2 seconds"))
                    .groupBy(org.apache.spark.sql.functions.window(org.apache.spark.sql.functions.col("ts"), "10 seconds")).count()
                    .selectExpr("CAST(window.start AS STRING)", "count");
            case "join" -> in.as("e").join(spark.read().format("json").schema("key STRING, name STRING")
                            .load(dir.resolve("static").toString()).as("s"),
                            org.apache.spark.sql.functions.expr("e.id = s.key AND s.name <> 'Bea'"), "left_outer")
                    .selectExpr("id", "CAST(ts AS STRING)", "name");
            default -> in.groupBy("id").count();
        };
        Map<Long, List<String>> out = new ConcurrentHashMap<>();
        VoidFunction2<Dataset<org.apache.spark.sql.Row>, Long> each = (batch, id) -> {
            List<String> rows = new ArrayList<>();
            for (org.apache.spark.sql.Row r : batch.collectAsList()) {
                rows.add(r.mkString("|"));
            }
            rows.sort(null);
            out.put(id, rows);
        };
        DataStreamWriter<org.apache.spark.sql.Row> w = q.writeStream().outputMode(mode)
                .option("checkpointLocation", chk.toString()).trigger(org.apache.spark.sql.streaming.Trigger
                        .AvailableNow()).foreachBatch(each);
        w.start().awaitTermination();
        return new TreeMap<>(out);
    }

    private static Map<Long, List<String>> onSluice(String query, String mode, Path chk) throws Exception {
        StreamFrame in = sluice.readStream().format("json").schema(SCHEMA).option("maxFilesPerTrigger", 1)
                .load(dir.resolve("in").toString());
        StreamFrame q = switch (query) {
            case "window" -> in.withWatermark("ts", "10 seconds")
                    .groupBy(Functions.window(Functions.col("ts"), "10 seconds")).count()
                    .selectExpr("CAST(window.start AS STRING)", "CAST(window.end AS STRING)", "count");
            case "sliding" -> in.withWatermark("ts", "5 seconds")
                    .groupBy(Functions.window(Functions.col("ts"), "10 seconds", "5 seconds"))
                    .agg(Functions.count("*"), Functions.min("id"), Functions.max("ts"))
                    .selectExpr("CAST(window.start AS STRING)", "`count(1)`", "`min(id)`", "CAST(`max(ts)` AS STRING)");
            case "dedup" -> in.withWatermark("ts", "10 seconds").dropDuplicates("id", "ts").select("id");
            case "dedupWithin" -> in.withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark("id")
                    .selectExpr("id", "CAST(ts AS STRING)");
            case "session" -> in.withWatermark("ts", "5 seconds")
                    .groupBy(Functions.sessionWindow(Functions.col("ts"), "5 seconds"),
                            Functions.expr("id < 'd'").as("early"))
                    .agg(Functions.count("*"), Functions.max("id"))
                    .selectExpr("CAST(session_window.start AS STRING)", "CAST(session_window.end AS STRING)",
                            "early", "`count(1)`", "`max(id)`");
            case "exprAgg" -> in.withWatermark("ts", "10 seconds")
                    .groupBy(Functions.expr("window(ts, '10 seconds')"))
                    .agg(Functions.expr("count(*) as n"), Functions.expr("max(ts)"),
                            Functions.expr("count(*) * 2 + length(max(id)) AS x"))
                    .selectExpr("CAST(window.start AS STRING)", "n", "CAST(`max(ts)` AS STRING)", "x");
            case "sql" -> in.withWatermark("ts", "10 seconds").sql(SQL)
                    .selectExpr("CAST(w.start AS STRING)", "n", "m", "CAST(spread AS STRING)");
            case "global" -> in.selectExpr("count(*) AS n", "max(id)", "min(ts) IS NOT NULL AS seen");
            case "dedupCount" -> in.withWatermark("ts", "10 seconds").dropDuplicates("id", "ts")
                    .groupBy(Functions.window(Functions.col("ts"), "10 seconds")).count()
                    .selectExpr("CAST(window.start AS STRING)", "count");
            case "union" -> in.withWatermark("ts", "10 seconds").union(sluice.readStream().format("json")
                            .schema(SCHEMA).option("maxFilesPerTrigger", 2).load(dir.resolve("in").toString())
                            .withWatermark("ts", "2 seconds"))
                    .groupBy(Functions.window(Functions.col("ts"), "10 seconds")).count()
                    .selectExpr("CAST(window.start AS STRING)", "count");
            case "join" -> in.as("e").join(sluice.read().format("json").schema("key STRING, name STRING")
                            .load(dir.resolve("static").toString()).as("s"),
                            Functions.expr("e.id = s.key AND s.name <> 'Bea'"), "left_outer")
                    .selectExpr("id", "CAST(ts AS STRING)", "name");
            default -> in.groupBy("id").count();
        };
        Map<Long, List<String>> out = new ConcurrentHashMap<>();
        q.writeStream().outputMode(mode).option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow())
                .foreachBatch((batch, id) -> {
                    List<String> rows = new ArrayList<>();
                    for (io.sluice.api.Row r : batch.rows()) {
                        StringBuilder sb = new StringBuilder();
                        for (int i = 0; i < r.size(); i++) {
                            sb.append(i == 0 ? "" : "|").append(r.get(i));
                        }
                        rows.add(sb.toString());
                    }
                    rows.sort(null);
                    out.put(id, rows);
                }).start().awaitTermination();
        return new TreeMap<>(out);
    }

    @ParameterizedTest
    @ValueSource(strings = {"window append", "window update", "sliding append", "count complete", "count update",
            "dedup append", "dedupWithin append", "session append", "session complete", "exprAgg append",
            "sql append", "global complete", "dedupCount append", "union append", "join append"})
    void sparkAndSluiceEmitTheSameRowsInTheSameBatches(String test) throws Exception {
        String[] t = test.split(" ");
        Path base = dir.resolve(test.replace(' ', '-'));
        Map<Long, List<String>> spark = onSpark(t[0], t[1], base.resolve("spark"));
        Map<Long, List<String>> ours = onSluice(t[0], t[1], base.resolve("sluice"));
        System.out.println(test + ": Spark " + spark + "\n" + test + ": Sluice " + ours);
        assertThat(ours).isEqualTo(spark);
    }
}
