package io.sluice.delta.spark;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import io.sluice.api.types.StructType;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * delta-spark 4.0.0 on Spark 4.0 as the judge: tables Spark writes are streamed by Sluice with the rows and the table
 * id Spark sees, Spark's own stream and Sluice's fail alike on a DELETE, and Spark reads Sluice's tables back, nested
 * columns included.
 * One Spark session for the class.
 */
class DeltaSparkJudgeTest {

    private static SparkSession spark;
    private static Sluice sluice;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[1]").appName("delta-judge")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "1")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .getOrCreate();
        sluice = Sluice.builder().parallelism(1).build();
    }

    @AfterAll
    static void stop() {
        sluice.close();
        spark.stop();
    }

    private static void sparkAppend(Path t, long from, long to) {
        spark.range(from, to).selectExpr("id", "concat('n', cast(id as string)) as name").coalesce(1).write()
                .format("delta").mode("append").save(t.toString());
    }

    private static List<String> sparkRows(Path t) {
        return spark.read().format("delta").load(t.toString()).collectAsList().stream()
                .map(r -> r.get(0) + "," + r.get(1)).sorted().toList();
    }

    private List<Row> sluiceStream(Path t, Path chk, Map<String, String> options) throws Exception {
        String name = "judge_" + UUID.randomUUID().toString().replace('-', '_');
        var r = sluice.readStream().format("delta");
        for (var e : options.entrySet()) {
            r = r.option(e.getKey(), e.getValue());
        }
        StreamingQuery q = r.load(t.toString()).writeStream().format("memory").queryName(name)
                .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start();
        try {
            q.awaitTermination();
            return MemorySink.rows(name);
        } finally {
            MemorySink.clear(name);
        }
    }

    private static List<String> strings(List<Row> rows) {
        return rows.stream().map(r -> r.get(0) + "," + r.get(1)).sorted().toList();
    }

    @Test
    void sluiceStreamsWhatSparkWritesWithSparksTableId() throws Exception {
        Path t = tmp.resolve("spark-table");
        sparkAppend(t, 0, 3);
        sparkAppend(t, 3, 5);
        Path chk = tmp.resolve("chk");
        assertThat(strings(sluiceStream(t, chk, Map.of()))).isEqualTo(sparkRows(t));
        sparkAppend(t, 5, 8);
        assertThat(strings(sluiceStream(t, chk, Map.of()))).containsExactly("5,n5", "6,n6", "7,n7");

        String tableId = spark.sql("DESCRIBE DETAIL delta.`" + t + "`").collectAsList().get(0).getAs("id");
        List<String> offsets = Files.readAllLines(chk.resolve("offsets").resolve("1"));
        assertThat(offsets.get(offsets.size() - 1)).isEqualTo("{\"sourceVersion\":1,\"reservoirId\":\"" + tableId
                + "\",\"reservoirVersion\":3,\"index\":-1,\"isStartingVersion\":false}");
    }

    @Test
    void aDeleteFailsSparksStreamAndSluicesAlikeAndSkipChangeCommitsPassesIt() throws Exception {
        Path t = tmp.resolve("deleted");
        sparkAppend(t, 0, 4);
        spark.sql("DELETE FROM delta.`" + t + "` WHERE id = 1");
        sparkAppend(t, 10, 12);

        String sparkError = sparkStreamError(t);
        assertThat(sparkError).contains("[DELTA_SOURCE_TABLE_IGNORE_CHANGES]");
        assertThatThrownBy(() -> sluiceStream(t, tmp.resolve("c1"), Map.of("startingVersion", "0")))
                .hasMessageContaining(sparkError.substring(sparkError.indexOf("[DELTA_SOURCE_TABLE_IGNORE_CHANGES]"),
                        sparkError.indexOf("/deleted.") + "/deleted.".length()));
        assertThat(strings(sluiceStream(t, tmp.resolve("c2"), Map.of("startingVersion", "0",
                "skipChangeCommits", "true"))))
                .containsExactly("0,n0", "1,n1", "10,n10", "11,n11", "2,n2", "3,n3");
    }

    /** The message of Spark's own Delta stream of the table from version 0 (it fails at the DELETE). */
    private String sparkStreamError(Path t) throws Exception {
        var q = spark.readStream().format("delta").option("startingVersion", "0").load(t.toString()).writeStream()
                .format("noop").option("checkpointLocation", tmp.resolve("spark-chk").toString())
                .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow()).start();
        try {
            q.awaitTermination(TimeUnit.MINUTES.toMillis(2));
            throw new AssertionError("Spark's stream did not fail");
        } catch (org.apache.spark.sql.streaming.StreamingQueryException e) {
            return e.getMessage();
        }
    }

    @Test
    void sparkReadsWhatSluiceWrites() throws Exception {
        Path t = tmp.resolve("sluice-table");
        MemoryStream in = MemoryStream.create(StructType.fromDDL("id bigint, name string"));
        try {
            StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("delta").partitionBy("name").option("checkpointLocation", tmp.resolve("w").toString())
                    .start(t.toString());
            in.addData(Row.of(1L, "a"), Row.of(2L, "b"));
            q.processAllAvailable();
            in.addData(Row.of(3L, "a"));
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        assertThat(sparkRows(t)).containsExactly("1,a", "2,b", "3,a");
        assertThat(spark.sql("DESCRIBE HISTORY delta.`" + t + "`").count()).isEqualTo(2);
        assertThat(spark.sql("DESCRIBE DETAIL delta.`" + t + "`").collectAsList().get(0)
                .getList(spark.sql("DESCRIBE DETAIL delta.`" + t + "`").schema().fieldIndex("partitionColumns")))
                .containsExactly("name");
    }

    /** Structs, arrays and maps nested in each other, over every kind of value the sink writes at the top level. */
    private static final String NESTED_DDL = "id bigint, s struct<a:int,d:date,inner:struct<ts:timestamp,"
            + "amount:decimal(10,2)>>, tags array<string>, pts array<struct<x:int,bin:binary>>, "
            + "m map<string,array<bigint>>, mm map<int,struct<f:double,ok:boolean>>, p string";

    private static List<Row> nestedRows() {
        Map<String, List<Long>> m2 = new LinkedHashMap<>();
        m2.put("n", null);
        m2.put("e", Arrays.asList(5L, null));
        Map<Integer, Row> mm2 = new LinkedHashMap<>();
        mm2.put(4, Row.of(null, null));
        mm2.put(5, null);
        return List.of(
                Row.of(1L, Row.of(7, LocalDate.of(2024, 2, 29), Row.of(Instant.parse("2024-03-01T10:15:30.123456Z"),
                                new BigDecimal("12.50"))), List.of("a", "b"), List.of(Row.of(1, new byte[]{1, 2})),
                        Map.of("k", List.of(1L, 2L)), Map.of(3, Row.of(1.5, true)), "eu"),
                Row.of(2L, Row.of(null, null, Row.of(null, null)), Arrays.asList("c", null),
                        Arrays.asList(null, Row.of(null, null)), m2, mm2, "us"),
                Row.of(3L, null, null, null, null, null, "eu"),
                Row.of(4L, Row.of(1, LocalDate.of(1969, 12, 31), null), List.of(), List.of(), Map.of(), Map.of(),
                        null));
    }

    /** Spark's rows as Sluice holds the same values (structs as rows, lists, maps, dates and instants). */
    private static List<Row> sparkNestedRows(Path t) {
        return spark.read().format("delta").load(t.toString()).collectAsList().stream()
                .map(r -> (Row) sluiceValue(r)).toList();
    }

    private static Object sluiceValue(Object v) {
        if (v instanceof org.apache.spark.sql.Row r) {
            Object[] values = new Object[r.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = sluiceValue(r.get(i));
            }
            return Row.of(values);
        } else if (v instanceof scala.collection.Seq<?> seq) {
            List<Object> out = new ArrayList<>();
            scala.jdk.javaapi.CollectionConverters.asJava(seq).forEach(e -> out.add(sluiceValue(e)));
            return out;
        } else if (v instanceof scala.collection.Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            scala.jdk.javaapi.CollectionConverters.asJava(map).forEach((k, e) -> out.put(sluiceValue(k),
                    sluiceValue(e)));
            return out;
        } else if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        } else if (v instanceof java.sql.Timestamp ts) {
            return ts.toInstant();
        }
        return v;
    }

    @Test
    void sparkReadsTheNestedColumnsSluiceWritesWithTheSameValues() throws Exception {
        Path t = tmp.resolve("sluice-nested");
        MemoryStream in = MemoryStream.create(StructType.fromDDL(NESTED_DDL));
        try {
            StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("delta").partitionBy("p").option("checkpointLocation", tmp.resolve("w").toString())
                    .start(t.toString());
            in.addData(nestedRows().toArray(Row[]::new));
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        assertThat(spark.read().format("delta").load(t.toString()).schema().simpleString())
                .isEqualTo(StructType.fromDDL(NESTED_DDL).simpleString());
        assertThat(sparkNestedRows(t)).containsExactlyInAnyOrderElementsOf(nestedRows());
    }

    @Test
    void sluiceAppendsToAndReadsANestedTableSparkMade() throws Exception {
        Path t = tmp.resolve("spark-nested");
        spark.sql("SELECT 1L AS id, named_struct('a', 1, 'tags', array('x', null), 'in', named_struct('d', "
                        + "DATE'2024-01-02')) AS s, map('k', array(1L, null), 'n', null) AS m, 'eu' AS p "
                        + "UNION ALL SELECT 2L, null, map(), 'us'").coalesce(1).write().format("delta")
                .partitionBy("p").save(t.toString());
        Row spark1 = Row.of(1L, Row.of(1, Arrays.asList("x", null), Row.of(LocalDate.of(2024, 1, 2))),
                mapOf("k", Arrays.asList(1L, null), "n", null), "eu");
        Row spark2 = Row.of(2L, null, Map.of(), "us");
        assertThat(sluice.read().format("delta").load(t.toString()).collectAsList())
                .containsExactlyInAnyOrder(spark1, spark2);

        String ddl = "id bigint, s struct<a:int,tags:array<string>,in:struct<d:date>>, m map<string,array<bigint>>, "
                + "p string";
        MemoryStream in = MemoryStream.create(StructType.fromDDL(ddl));
        Row sluice3 = Row.of(3L, Row.of(null, List.of(), Row.of((Object) null)), Map.of("z", List.of(9L)), "us");
        Row sluice4 = Row.of(4L, Row.of(4, Arrays.asList(null, "y"), null), null, "eu");
        try {
            StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("delta").option("checkpointLocation", tmp.resolve("w").toString()).start(t.toString());
            in.addData(sluice3, sluice4);
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        assertThat(sluice.read().format("delta").load(t.toString()).collectAsList())
                .containsExactlyInAnyOrder(spark1, spark2, sluice3, sluice4);
        assertThat(sparkNestedRows(t)).containsExactlyInAnyOrder(spark1, spark2, sluice3, sluice4);
    }

    private static Map<String, Object> mapOf(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    @Test
    void aNestedPartitionColumnIsRefusedWithSparksMessage() throws Exception {
        var ms = new org.apache.spark.sql.execution.streaming.MemoryStream<Long>(1, spark.sqlContext(),
                scala.Option.apply(1), org.apache.spark.sql.Encoders.LONG());
        var sparkQuery = ms.toDF().selectExpr("value AS id", "named_struct('a', 1, 'b', array('x')) AS s")
                .writeStream().format("delta").partitionBy("s")
                .option("checkpointLocation", tmp.resolve("spark-chk").toString()).start(tmp.resolve("st").toString());
        String sparkError;
        try {
            ms.addData(scala.jdk.javaapi.CollectionConverters.asScala(List.of(1L)).toSeq());
            sparkQuery.processAllAvailable();
            throw new AssertionError("Spark's stream did not fail");
        } catch (Exception e) { // Scala's processAllAvailable declares no StreamingQueryException
            assertThat(e).isInstanceOf(org.apache.spark.sql.streaming.StreamingQueryException.class);
            sparkError = e.getMessage();
        } finally {
            sparkQuery.stop();
        }
        String message = "[DELTA_INVALID_PARTITION_COLUMN_TYPE] Using column s of type "
                + "StructType(StructField(a,IntegerType,true),StructField(b,ArrayType(StringType,true),true)) "
                + "as a partition column is not supported.";
        assertThat(sparkError).contains(message); // Spark fails the first batch, Sluice refuses at start()
        MemoryStream in = MemoryStream.create(StructType.fromDDL("id bigint, s struct<a:int,b:array<string>>"));
        try {
            assertThatThrownBy(() -> sluice.readStream().format("memory").option("name", in.name()).load()
                    .writeStream().format("delta").partitionBy("s")
                    .option("checkpointLocation", tmp.resolve("w").toString()).start(tmp.resolve("t").toString()))
                    .hasMessage(message);
        } finally {
            in.unregister();
        }
    }
}
