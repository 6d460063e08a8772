package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.expr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Stream-static joins on a condition (join(right, expr("a.cust = b.id AND ..."), type)): equi-keys on differently
 * named columns, a residual condition, aliases, Spark's output columns (left's then right's) and refusals.
 */
class StreamStaticConditionJoinTest {
    private final String table = "cj_" + UUID.randomUUID().toString().replace('-', '_');
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private final MemoryStream orders = MemoryStream.create(StructType.fromDDL("id bigint, cust int, amount int"));
    private final MemoryStream customers = MemoryStream.create(StructType.fromDDL("id bigint, name string, vip boolean"));

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(table);
        orders.unregister();
        customers.unregister();
    }

    private StreamFrame stream() {
        return sluice.readStream().format("memory").option("name", orders.name()).load();
    }

    /** Customers 1 (two rows), 2, and one with a null key, read with read(). */
    private StreamFrame customers() {
        customers.addData(Row.of(1L, "ann", true), Row.of(1L, "ann-2", false), Row.of(2L, "bob", false),
                Row.of(null, "nobody", true));
        return sluice.read().format("memory").option("name", customers.name()).load();
    }

    private List<List<Row>> run(StreamFrame joined, Row... rows) throws Exception {
        StreamingQuery q = joined.writeStream().format("memory").queryName(table).start();
        orders.addData(rows);
        q.processAllAvailable();
        orders.addData(Row.of(20L, 2, 1));
        q.processAllAvailable();
        q.stop();
        return List.of(sorted(MemorySink.batches(table).get(0L)), sorted(MemorySink.batches(table).get(1L)));
    }

    private static List<Row> sorted(List<Row> rows) {
        return rows.stream().sorted(Comparator.comparing(Row::toString)).toList();
    }

    @Test
    void anInnerEquiJoinOnDifferentlyNamedColumnsKeepsEveryColumnOfBothSides() throws Exception {
        StreamFrame joined = stream().as("o").join(customers().as("c"), expr("o.cust = c.id"), "inner");
        assertThat(joined.schema()).isEqualTo(StructType.fromDDL(
                "id bigint, cust int, amount int, id bigint, name string, vip boolean"));
        List<List<Row>> b = run(joined, Row.of(10L, 1, 5), Row.of(11L, 3, 6), Row.of(12L, null, 7));
        assertThat(b.get(0)).containsExactly(Row.of(10L, 1, 5, 1L, "ann", true), Row.of(10L, 1, 5, 1L, "ann-2", false));
        assertThat(b.get(1)).containsExactly(Row.of(20L, 2, 1, 2L, "bob", false));
    }

    @Test
    void aLeftOuterJoinWithAResidualConditionKeepsTheStreamRowsNoPairPasses() throws Exception {
        StreamFrame joined = stream().as("o").join(customers().as("c"),
                expr("o.cust = c.id AND c.vip AND o.amount > 1"), "left_outer");
        assertThat(joined.schema().field(3).nullable()).isTrue();
        List<List<Row>> b = run(joined, Row.of(10L, 1, 5), Row.of(11L, 1, 1), Row.of(12L, 3, 7));
        assertThat(b.get(0)).containsExactly(Row.of(10L, 1, 5, 1L, "ann", true), Row.of(11L, 1, 1, null, null, null),
                Row.of(12L, 3, 7, null, null, null));
        assertThat(b.get(1)).containsExactly(Row.of(20L, 2, 1, null, null, null)); // bob is no vip
    }

    @Test
    void columnsOnlyOneSideHasNeedNoAliasAndKeysOfDifferentTypesCompareAsSparkCompares() throws Exception {
        StreamFrame right = customers().withColumnRenamed("id", "key");
        StreamFrame joined = stream().join(right, col("cust").equalTo(col("key")).and(col("name").notEqual("ann")));
        List<List<Row>> b = run(joined, Row.of(10L, 1, 5));
        assertThat(b.get(0)).containsExactly(Row.of(10L, 1, 5, 1L, "ann-2", false));
        assertThat(b.get(1)).containsExactly(Row.of(20L, 2, 1, 2L, "bob", false));
    }

    @Test
    void theStaticSideOnTheLeftOfAnInnerJoinAndSemiAndAntiJoins() throws Exception {
        StreamFrame joined = customers().as("c").join(stream().as("o"), expr("c.id = o.cust"));
        assertThat(joined.columns()).containsExactly("id", "name", "vip", "id", "cust", "amount");
        assertThat(joined.isStreaming()).isTrue();
        StreamFrame semi = stream().as("o").join(customers().as("c"), expr("o.cust = c.id AND c.vip"), "left_semi");
        assertThat(semi.schema()).isEqualTo(stream().schema());
        List<List<Row>> b = run(semi, Row.of(10L, 1, 5), Row.of(11L, 3, 6));
        assertThat(b.get(0)).containsExactly(Row.of(10L, 1, 5));
        assertThat(b.get(1)).isEmpty();
    }

    @Test
    void refusals() {
        assertThatThrownBy(() -> stream().as("o").join(customers().as("c"), expr("o.id = id")))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("[AMBIGUOUS_REFERENCE] Reference `id` is ambiguous, could be: [`o`.`id`, `c`.`id`].");
        assertThatThrownBy(() -> stream().as("o").join(customers().as("c"), expr("o.cust = c.nope")))
                .isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function "
                        + "parameter with name `c`.`nope` cannot be resolved.");
        assertThatThrownBy(() -> stream().as("o").join(customers().as("c"), expr("o.cust < c.id")))
                .isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("A stream-static join needs at least one equality between a column of each "
                        + "side");
        assertThatThrownBy(() -> stream().as("o").join(customers().as("c"), expr("o.cust = c.id"), "right_outer"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("RightOuter join with a streaming DataFrame/Dataset on the left and a static "
                        + "DataFrame/DataSet on the right not supported");
        assertThatThrownBy(() -> stream().as("o").join(customers().as("c"), expr("o.cust = c.id"), "full"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("FullOuter joins with streaming DataFrames/Datasets on the left");
    }
}
