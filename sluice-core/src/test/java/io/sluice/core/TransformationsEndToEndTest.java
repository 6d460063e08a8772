package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.currentTimestamp;
import static io.sluice.core.Functions.fromJson;
import static io.sluice.core.Functions.lit;
import static io.sluice.core.Functions.upper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Transformations through the whole engine: MemoryStream, then transformations, then the memory sink. */
class TransformationsEndToEndTest {
    private static final StructType KAFKA = StructType.fromDDL(
            "key binary, value binary, topic string, partition int, offset bigint, timestamp timestamp");
    private final String table = "t_" + UUID.randomUUID().toString().replace('-', '_');
    private final List<MemoryStream> streams = new ArrayList<>();
    private Sluice sluice = Sluice.builder().parallelism(2).build();

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(table);
        streams.forEach(MemoryStream::unregister);
    }

    private MemoryStream stream(StructType schema) {
        MemoryStream s = MemoryStream.create(schema);
        streams.add(s);
        return s;
    }

    private StreamFrame frame(MemoryStream s) {
        return sluice.readStream().format("memory").option("name", s.name()).load();
    }

    private List<Row> run(StreamFrame frame) throws Exception {
        StreamingQuery q = frame.writeStream().format("memory").queryName(table).start();
        q.processAllAvailable();
        q.stop();
        assertThat(q.exception()).isEmpty();
        return MemorySink.rows(table);
    }

    private static Row kafka(long offset, String json) {
        return Row.of(null, json == null ? null : json.getBytes(StandardCharsets.UTF_8), "payments", 0, offset,
                Instant.parse("2026-10-02T00:00:00Z"));
    }

    @Test
    void theKafkaJsonPipelineFromSpark() throws Exception {
        MemoryStream input = stream(KAFKA);
        input.addData(
                kafka(0, "{\"seq\":1,\"account\":\"a-1\",\"amount\":50}"),
                kafka(1, "{\"seq\":2,\"account\":\"a-2\",\"amount\":150}"),
                kafka(2, "{\"seq\":3,\"account\":\"a-1\",\"amount\":\"lots\"}"),
                kafka(3, "not json at all"),
                kafka(4, null));
        input.addData(kafka(5, "{\"amount\":1000,\"seq\":4,\"account\":\"a-3\",\"note\":\"extra\"}"));

        StreamFrame result = frame(input)
                .selectExpr("CAST(value AS STRING) AS json")
                .select(fromJson(col("json"), "seq long, account string, amount long").as("data"))
                .select("data.*")
                .where("amount > 100");

        assertThat(result.schema()).isEqualTo(StructType.fromDDL("seq bigint, account string, amount bigint"));
        assertThat(result.columns()).containsExactly("seq", "account", "amount");
        List<Row> rows = run(result);
        assertThat(rows).containsExactly(Row.of(2L, "a-2", 150L), Row.of(4L, "a-3", 1000L));
        assertThat(rows.get(0).<Long>getAs("amount")).isEqualTo(150L);
    }

    @Test
    void theSamePipelineInSqlOnly() throws Exception {
        MemoryStream input = stream(KAFKA);
        input.addData(kafka(0, "{\"seq\":1,\"account\":\"a-1\",\"amount\":50}"),
                kafka(1, "{\"seq\":2,\"account\":\"a-2\",\"amount\":150}"));
        StreamFrame result = frame(input)
                .selectExpr("from_json(CAST(value AS STRING), 'seq long, account string, amount long') AS data",
                        "offset")
                .selectExpr("data.*", "offset", "data.amount * 2 AS doubled", "upper(data.account) account_upper")
                .where("amount BETWEEN 100 AND 200 AND account LIKE 'a-%'");
        assertThat(result.schema()).isEqualTo(StructType.fromDDL(
                "seq bigint, account string, amount bigint, offset bigint, doubled bigint, account_upper string"));
        assertThat(run(result)).containsExactly(Row.of(2L, "a-2", 150L, 1L, 300L, "A-2"));
    }

    @Test
    void selectWithColumnDropRenameAndFilters() throws Exception {
        MemoryStream input = stream(StructType.fromDDL("id bigint, name string, price decimal(10,2)"));
        input.addData(Row.of(1L, "apple", new BigDecimal("1.50")), Row.of(2L, "pear", new BigDecimal("2.25")),
                Row.of(3L, null, new BigDecimal("9.99")));
        StreamFrame result = frame(input)
                .withColumn("total", col("price").multiply(2))
                .withColumn("name", upper(col("name")))
                .withColumn("source", lit("shop"))
                .drop("price", "no_such_column")
                .withColumnRenamed("id", "item_id")
                .withColumnRenamed("nope", "whatever")
                .filter(col("name").isNotNull())
                .filter("total > 3")
                .select(col("item_id"), col("name"), col("total"), col("source"));
        assertThat(result.schema()).isEqualTo(StructType.fromDDL(
                "item_id bigint, name string, total decimal(12,2), source string NOT NULL"));
        assertThat(result.schema().field(0).nullable()).isTrue();
        assertThat(run(result)).containsExactly(Row.of(2L, "PEAR", new BigDecimal("4.50"), "shop"));
    }

    @Test
    void javaLambdasSeeRowsWithTheirSchema() throws Exception {
        MemoryStream input = stream(StructType.fromDDL("id bigint, name string"));
        input.addData(Row.of(1L, "a"), Row.of(2L, "bb"), Row.of(3L, "ccc"));
        StructType out = StructType.fromDDL("id bigint, name_length int, tag string");
        StreamFrame result = frame(input)
                .withColumnRenamed("name", "label")
                .filter(row -> row.<String>getAs("label").length() > 1)
                .map(row -> Row.of(row.getLong("id"), row.getString("label").length(), "t" + row.getAs("id")), out)
                .where("name_length < 3");
        assertThat(result.schema()).isEqualTo(out);
        List<Row> rows = run(result);
        assertThat(rows).containsExactly(Row.of(2L, 2, "t2"));
        assertThat(rows.get(0).<String>getAs("tag")).isEqualTo("t2");
    }

    @Test
    void aMapFunctionReturningAWrongRowFailsTheQuery() throws Exception {
        MemoryStream input = stream(StructType.fromDDL("id bigint"));
        input.addData(Row.of(1L));
        StreamingQuery q = frame(input).map(row -> Row.of(1L, 2L), StructType.fromDDL("id bigint"))
                .writeStream().format("memory").queryName(table).start();
        await().until(() -> !q.isActive());
        assertThat(q.exception().orElseThrow()).rootCause().hasMessage("The map function returned a row of 2 values, [1,2], but its "
                + "output schema struct<id:bigint> has 1 columns");
    }

    @Test
    void manyPartitionsReadInParallelGiveEveryRowOnce() throws Exception {
        MemoryStream input = stream(StructType.fromDDL("id bigint, json string"));
        List<Row> expected = new ArrayList<>();
        for (int block = 0; block < 8; block++) {
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                long id = block * 500L + i;
                rows.add(Row.of(id, "{\"v\":" + id + "}"));
                if (id % 3 == 0) {
                    expected.add(Row.of(id, id * 10, "id-" + id));
                }
            }
            input.addData(rows);
        }
        StreamFrame result = frame(input)
                .select(col("id"), fromJson(col("json"), "v long").getField("v").multiply(10).as("v10"),
                        Functions.concat(lit("id-"), col("id")).as("label"))
                .where("id % 3 = 0");
        List<Row> rows = new ArrayList<>(run(result));
        rows.sort(Comparator.comparingLong(r -> r.getLong(0)));
        assertThat(rows).isEqualTo(expected);
    }

    @Test
    void currentTimestampReadsTheSluiceClock() throws Exception {
        sluice.close();
        ManualClock clock = new ManualClock(1_790_899_200_000L);
        sluice = Sluice.builder().clock(clock).parallelism(2).build();
        MemoryStream input = stream(StructType.fromDDL("id bigint"));
        input.addData(Row.of(1L));
        StreamingQuery q = frame(input).select(col("id"), currentTimestamp().as("at"))
                .writeStream().format("memory").queryName(table).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        assertThat(MemorySink.rows(table)).containsExactly(Row.of(1L, Instant.ofEpochMilli(1_790_899_200_000L)));
    }

    @Test
    void everyResolutionErrorIsThrownByTheTransformationItself() {
        MemoryStream input = stream(StructType.fromDDL("seq bigint, account string, amount bigint"));
        StreamFrame f = frame(input);
        assertThatThrownBy(() -> f.where("amout > 100")).isInstanceOf(AnalysisException.class)
                .hasMessage("A column or function parameter with name `amout` cannot be resolved. Did you mean one "
                        + "of the following? [`amount`, `account`, `seq`].\namout > 100\n^");
        assertThatThrownBy(() -> f.select("nope")).isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("A column or function parameter with name `nope` cannot be resolved.");
        assertThatThrownBy(() -> f.selectExpr("amount +")).isInstanceOf(ParseException.class);
        assertThatThrownBy(() -> f.where("account")).isInstanceOf(AnalysisException.class)
                .hasMessage("Cannot resolve \"account\" due to data type mismatch: Filter expression \"account\" of "
                        + "type \"STRING\" is not a boolean.\naccount\n^");
        assertThatThrownBy(() -> f.withColumn("x", col("nope"))).isInstanceOf(AnalysisException.class);
        assertThatThrownBy(() -> f.select(Functions.expr("frob(amount)"))).isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("Cannot resolve function `frob`");
        assertThatThrownBy(() -> f.select("account.*")).isInstanceOf(AnalysisException.class)
                .hasMessage("Can only star expand struct data types. Attribute: `account` has the type \"STRING\".");
    }

    @Test
    void noOpTransformationsReturnTheSameFrame() {
        MemoryStream input = stream(StructType.fromDDL("a int, b int"));
        StreamFrame f = frame(input);
        assertThat(f.select("*")).isSameAs(f);
        assertThat(f.selectExpr("*")).isSameAs(f);
        assertThat(f.drop("c")).isSameAs(f);
        assertThat(f.withColumnRenamed("c", "d")).isSameAs(f);
        assertThat(f.select("b", "a").schema()).isEqualTo(StructType.fromDDL("b int, a int"));
        assertThat(f.withColumn("A", lit(1)).schema()).isEqualTo(StructType.fromDDL("A int NOT NULL, b int"));
        assertThat(f.drop("A").schema()).isEqualTo(StructType.fromDDL("b int"));
    }

    @Test
    void theSinkReceivesTheFramesSchema() throws Exception {
        MemoryStream input = stream(StructType.fromDDL("a int"));
        input.addData(Row.of(1));
        StreamFrame f = frame(input).selectExpr("a", "a * 2 AS b", "CAST(a AS STRING) s");
        assertThat(run(f)).containsExactly(Row.of(1, 2, "1"));
        assertThat(MemorySink.rows(table).get(0).schema()).isEqualTo(f.schema());
        assertThat(Map.of("schema", f.schema().simpleString())).containsEntry("schema", "struct<a:int,b:int,s:string>");
    }
}
