package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.count;
import static io.sluice.core.Functions.expr;
import static io.sluice.core.Functions.max;
import static io.sluice.core.Functions.window;
import static io.sluice.core.StatefulQueryTest.sorted;
import static io.sluice.core.StatefulQueryTest.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * window(...) and the aggregate functions in the expression language: groupBy(expr(...)), agg(expr(...)) with
 * expressions over aggregates, aggregates in select/selectExpr (a global aggregation) and in SQL.
 */
class AggregateExpressionTest {
    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private final MemoryStream input = MemoryStream.create(StructType.fromDDL("id string, ts timestamp, v long"));
    private final String table = "ae" + UUID.randomUUID().toString().replace("-", "");

    @AfterEach
    void tearDown() throws Exception {
        input.unregister();
        sluice.close();
        MemorySink.clear(table);
    }

    private StreamFrame stream() {
        return sluice.readStream().format("memory").option("name", input.name()).load()
                .withWatermark("ts", "10 seconds");
    }

    private StreamingQuery start(StreamFrame frame, String mode) {
        return frame.writeStream().format("memory").queryName(table).outputMode(mode)
                .option("checkpointLocation", tmp.resolve("chk").toString()).start();
    }

    private void add(StreamingQuery q, Row... rows) throws Exception {
        input.addData(rows);
        q.processAllAvailable();
    }

    private Map<Long, List<Row>> batches() {
        Map<Long, List<Row>> out = new TreeMap<>();
        MemorySink.batches(table).forEach((k, v) -> out.put(k, sorted(v)));
        return out;
    }

    private static Row ev(String id, int second, long v) {
        return Row.of(id, t(second), v);
    }

    @Test
    void aWindowFromExprWithAggregatesFromExprThenSelectExprOverTheResultInAppendMode() throws Exception {
        StreamFrame f = stream().groupBy(expr("window(ts, '10 seconds')"))
                .agg(expr("count(*) as n"), expr("max(v)"))
                .selectExpr("window.start", "n", "`max(v)` AS top");
        assertThat(f.schema().simpleString()).isEqualTo("struct<start:timestamp,n:bigint,top:bigint>");
        StreamingQuery q = start(f, "append");
        add(q, ev("a", 3, 5), ev("b", 7, 9), ev("c", 14, 1));  // batch 0, wm -> 10:00:04, no-data batch 1
        add(q, ev("d", 25, 2));                                 // batch 2, wm -> 10:00:15: batch 3 closes [0, 10)
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(), 1L, List.of(), 2L, List.of(),
                3L, List.of(Row.of(t(0), 2L, 9L))));
    }

    @Test
    void expressionsOverAggregatesAndKeysAreComputedOnTheEmittedGroups() throws Exception {
        StreamFrame f = stream().groupBy(col("id"))
                .agg(expr("sum(v) * 2 AS doubled"), expr("max(v) - min(v)"), count("*"),
                        expr("concat(id, ':', count(*))"));
        assertThat(f.columns()).containsExactly("id", "doubled", "(max(v) - min(v))", "count(1)",
                "concat(id, :, count(1))");
        StreamingQuery q = start(f, "update");
        add(q, ev("a", 1, 5), ev("a", 2, 9), ev("b", 3, 4));
        add(q, ev("a", 4, 1));
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(
                0L, List.of(Row.of("a", 28L, 4L, 2L, "a:2"), Row.of("b", 8L, 0L, 1L, "b:1")),
                1L, List.of(Row.of("a", 30L, 8L, 3L, "a:3"))));
    }

    @Test
    void aggregatesInSelectExprAreAGlobalAggregationAsInSpark() throws Exception {
        StreamFrame f = stream().selectExpr("count(*) AS n", "sum(v)", "max(v) + 1 AS next");
        assertThat(f.schema().simpleString()).isEqualTo("struct<n:bigint,sum(v):bigint,next:bigint>");
        StreamingQuery q = start(f, "complete");
        add(q, ev("a", 1, 5), ev("b", 2, 7));
        add(q, ev("c", 3, 1));
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(Row.of(2L, 12L, 8L)), 1L, List.of(Row.of(3L, 13L, 8L))));
        assertThat(MemorySink.rows(table)).containsExactly(Row.of(3L, 13L, 8L));
    }

    @Test
    void aggregatesInSelectAreAGlobalAggregationToo() throws Exception {
        assertThat(stream().select(count("*"), max(col("v")).as("m")).columns()).containsExactly("count(1)", "m");
    }

    @Test
    void aSelectListMixingAggregatesWithColumnsWithoutGroupByIsRefusedAsSparkRefusesIt() throws Exception {
        assertThatThrownBy(() -> stream().selectExpr("id", "count(*)"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("[MISSING_GROUP_BY] The query does not include a GROUP BY clause. Add GROUP BY or turn "
                        + "it into the window functions using OVER clauses.");
        assertThatThrownBy(() -> stream().sql("SELECT id, max(v) FROM source"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("[MISSING_GROUP_BY]");
    }

    @Test
    void aDistinctAggregateInSqlTextIsRefusedWithSparksMessage() throws Exception {
        String refusal = "Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider using "
                + "approx_count_distinct() instead.";
        assertThatThrownBy(() -> stream().sql("SELECT id, count(DISTINCT v) AS n FROM source GROUP BY id"))
                .isInstanceOf(AnalysisException.class).hasMessage(refusal);
        assertThatThrownBy(() -> stream().sql("SELECT sum(DISTINCT v) FROM source"))
                .isInstanceOf(AnalysisException.class).hasMessage(refusal);
        assertThatThrownBy(() -> stream().groupBy("id").agg(expr("count(DISTINCT v, ts)")))
                .isInstanceOf(AnalysisException.class).hasMessage(refusal);
        assertThatThrownBy(() -> stream().groupBy("id").agg(expr("approx_count_distinct(v)")))
                .isInstanceOf(AnalysisException.class).hasMessage("approx_count_distinct is not supported by Sluice "
                        + "yet: use dropDuplicates on the key columns, then count()");
        assertThatThrownBy(() -> stream().sql("SELECT count(DISTINCT) FROM source"))
                .hasMessageContaining("an expression after DISTINCT");
    }

    @Test
    void anItemOfAggWithoutAnyAggregateIsRefused() throws Exception {
        assertThatThrownBy(() -> stream().groupBy("id").agg(expr("max(v)"), expr("v + 1")))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("The expression (v + 1) given to agg is not an aggregate function: use count, sum, avg, "
                        + "min, max, first or last, or an expression over them");
    }

    @Test
    void sqlWithWindowInSelectAndAnExpressionOverAggregates() throws Exception {
        StreamFrame f = stream().sql("SELECT window(ts, '10 seconds') AS w, count(*) AS n, max(v) - min(v) AS spread "
                + "FROM source WHERE id <> 'skip' GROUP BY window(ts, '10 seconds')");
        assertThat(f.schema().simpleString())
                .isEqualTo("struct<w:struct<start:timestamp,end:timestamp>,n:bigint,spread:bigint>");
        StreamingQuery q = start(f, "append");
        add(q, ev("a", 3, 5), ev("b", 7, 9), ev("skip", 8, 100), ev("c", 14, 1));
        add(q, ev("d", 25, 2));
        q.stop();
        List<Row> emitted = batches().values().stream().flatMap(List::stream).toList();
        assertThat(emitted).containsExactly(Row.of(Row.of(t(0), t(10)), 2L, 4L));
    }

    @Test
    void sqlGroupByComparesTheSelectListWithTheGroupByExpressions() throws Exception {
        // A non-aggregate item that is not a GROUP BY expression was grouped by before, silently (a wrong answer).
        assertThatThrownBy(() -> stream().sql("SELECT v, count(*) AS n FROM source GROUP BY id"))
                .isInstanceOf(AnalysisException.class).hasMessage("[MISSING_AGGREGATION] The non-aggregating "
                        + "expression \"v\" is based on columns which are not participating in the GROUP BY clause. "
                        + "Add the columns or the expression to the GROUP BY, aggregate the expression, or use "
                        + "\"any_value(v)\" if you do not care which of the values within a group is returned.");
        assertThatThrownBy(() -> stream().sql("SELECT id FROM source GROUP BY id"))
                .isInstanceOf(AnalysisException.class).hasMessageStartingWith("With GROUP BY, Sluice's SQL takes at "
                        + "least one aggregate");
        // Keys in another order than GROUP BY's, one aliased, names compared case-insensitively, a key not selected.
        StreamFrame f = stream().sql("SELECT sum(v) AS total, ID AS k, window(ts, '10 seconds') FROM source "
                + "GROUP BY window(ts, '10 seconds'), id, v % 2");
        assertThat(f.schema().simpleString()).isEqualTo(
                "struct<total:bigint,k:string,window:struct<start:timestamp,end:timestamp>>");
        StreamingQuery q = start(f, "append");
        add(q, ev("a", 3, 5), ev("a", 7, 7), ev("a", 8, 2), ev("b", 4, 1));
        add(q, ev("d", 25, 2));
        q.stop();
        List<Row> emitted = batches().values().stream().flatMap(List::stream).toList();
        assertThat(sorted(emitted)).containsExactlyElementsOf(sorted(List.of(
                Row.of(12L, "a", Row.of(t(0), t(10))),   // v odd: 5 + 7
                Row.of(2L, "a", Row.of(t(0), t(10))),    // v even
                Row.of(1L, "b", Row.of(t(0), t(10))))));
    }

    @Test
    void sqlWithoutGroupByButWithAggregatesIsAGlobalAggregation() throws Exception {
        StreamFrame f = stream().sql("SELECT count(*) AS n, min(ts) AS first_seen FROM source WHERE v > 1");
        StreamingQuery q = start(f, "complete");
        add(q, ev("a", 3, 5), ev("b", 1, 1), ev("c", 9, 2));
        q.stop();
        assertThat(MemorySink.rows(table)).containsExactly(Row.of(2L, t(3)));
    }

    @Test
    void aWindowInSelectOfAWatermarkedColumnCarriesTheWatermarkToAGroupByOfIt() throws Exception {
        StreamFrame f = stream().select(window(col("ts"), "10 seconds"), col("v"))
                .groupBy("window").agg(expr("sum(v) AS total"));
        assertThat(f.schema().simpleString())
                .isEqualTo("struct<window:struct<start:timestamp,end:timestamp>,total:bigint>");
        StreamingQuery q = start(f, "append");       // append needs the watermarked key: the window column is one
        add(q, ev("a", 3, 5), ev("b", 7, 9), ev("c", 14, 1));
        add(q, ev("d", 25, 2));
        add(q, ev("late", 2, 100));                  // behind the watermark (15 s): dropped
        q.stop();
        List<Row> emitted = batches().values().stream().flatMap(List::stream).toList();
        assertThat(emitted).containsExactly(Row.of(Row.of(t(0), t(10)), 14L));
        assertThat(batches().get(3L)).containsExactly(Row.of(Row.of(t(0), t(10)), 14L));
    }

    @Test
    void aSlidingWindowInSelectExprGivesARowPerWindowAndDropsNullTimes() throws Exception {
        StreamFrame f = sluice.readStream().format("memory").option("name", input.name()).load()
                .selectExpr("id", "window(ts, '10 seconds', '5 seconds') AS w");
        assertThat(f.schema().simpleString()).isEqualTo("struct<id:string,w:struct<start:timestamp,end:timestamp>>");
        StreamingQuery q = start(f, "append");
        add(q, ev("a", 7, 1), Row.of("none", null, 2L));
        q.stop();
        assertThat(batches().get(0L)).containsExactly(Row.of("a", Row.of(t(0), t(10))), Row.of("a", Row.of(t(5), t(15))));
    }

    @Test
    void twoWindowsInASelectListAreRefusedAsSparkRefusesThem() {
        assertThatThrownBy(() -> stream().selectExpr("window(ts, '10 seconds')", "window(ts, '5 seconds') AS w"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Multiple time/session window expressions would result in a cartesian product of rows, "
                        + "therefore they are currently not supported.");
    }
}
