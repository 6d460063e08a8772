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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Stream-static joins on USING columns: a memory stream against another read with {@code read()}; exact rows per
 * batch, Spark's column order and refusals, nulls never matching, duplicate static keys, reload on request.
 */
class StreamStaticJoinTest {
    private final String table = "j_" + UUID.randomUUID().toString().replace('-', '_');
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private final MemoryStream orders = MemoryStream.create(StructType.fromDDL("id bigint, cust int, amount int"));
    private MemoryStream customers;

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(table);
        orders.unregister();
        if (customers != null) {
            customers.unregister();
        }
    }

    private StreamFrame stream() {
        return sluice.readStream().format("memory").option("name", orders.name()).load();
    }

    /** Customers 1 (twice: two rows), 2, and one with a null key, read with read(). */
    private StreamFrame customers() {
        if (customers == null) {
            customers = MemoryStream.create(StructType.fromDDL("cust bigint, name string"));
            customers.addData(Row.of(1L, "ann"), Row.of(1L, "ann-2"), Row.of(2L, "bob"), Row.of(null, "nobody"));
        }
        return sluice.read().format("memory").option("name", customers.name()).load();
    }

    private StreamingQuery start(StreamFrame frame) {
        return frame.writeStream().format("memory").queryName(table).start();
    }

    @Test
    void innerJoinGivesOneRowPerStaticMatchAndNullsNeverMatch() throws Exception {
        StreamFrame joined = stream().join(customers(), "cust");
        assertThat(joined.schema()).isEqualTo(StructType.fromDDL("cust int, id bigint, amount int, name string"));
        orders.addData(Row.of(10L, 1, 5), Row.of(11L, 2, 6), Row.of(12L, 3, 7), Row.of(13L, null, 8));
        StreamingQuery q = start(joined);
        q.processAllAvailable();
        orders.addData(Row.of(14L, 2, 9));
        q.processAllAvailable();
        q.stop();

        assertThat(sorted(MemorySink.batches(table).get(0L))).containsExactly(
                Row.of(1, 10L, 5, "ann"), Row.of(1, 10L, 5, "ann-2"), Row.of(2, 11L, 6, "bob"));
        assertThat(MemorySink.batches(table).get(1L)).containsExactly(Row.of(2, 14L, 9, "bob"));
        assertThat(q.lastProgress().sources().get(0).numInputRows()).isEqualTo(1);
    }

    @Test
    void leftOuterKeepsUnmatchedStreamRowsWithNullsAndSemiAndAntiGiveTheStreamRow() throws Exception {
        StreamFrame statics = customers();
        StreamFrame left = stream().join(statics, List.of("cust"), "left_outer");
        assertThat(left.schema()).isEqualTo(StructType.fromDDL("cust int, id bigint, amount int, name string"));
        assertThat(left.schema().field(3).nullable()).isTrue();
        orders.addData(Row.of(10L, 1, 5), Row.of(12L, 3, 7), Row.of(13L, null, 8));
        StreamingQuery q = start(left);
        q.processAllAvailable();
        q.stop();
        assertThat(sorted(MemorySink.rows(table))).containsExactly(Row.of(1, 10L, 5, "ann"),
                Row.of(1, 10L, 5, "ann-2"), Row.of(3, 12L, 7, null), Row.of(null, 13L, 8, null));

        MemorySink.clear(table);
        MemoryStream more = MemoryStream.create(orders.schema());
        try {
            StreamFrame input = sluice.readStream().format("memory").option("name", more.name()).load();
            StreamFrame semi = input.join(statics, List.of("cust"), "semi");
            assertThat(semi.schema()).isEqualTo(input.schema());
            StreamFrame anti = input.join(statics, List.of("CUST"), "left_anti").selectExpr("id + 1000", "cust",
                    "amount");
            more.addData(Row.of(20L, 1, 1), Row.of(21L, 4, 2));
            StreamingQuery s = start(semi.union(anti));
            s.processAllAvailable();
            s.stop();
            assertThat(MemorySink.rows(table)).containsExactlyInAnyOrder(Row.of(20L, 1, 1), Row.of(1021L, 4, 2));
        } finally {
            more.unregister();
        }
    }

    @Test
    void rightOuterWithTheStreamOnTheRightPutsTheStaticColumnsFirst() throws Exception {
        StreamFrame joined = customers().join(stream(), List.of("cust"), "right");
        assertThat(joined.isStreaming()).isTrue();
        assertThat(joined.schema()).isEqualTo(StructType.fromDDL("cust int, name string, id bigint, amount int"));
        StreamFrame inner = customers().join(stream(), "cust");
        assertThat(inner.schema()).isEqualTo(StructType.fromDDL("cust bigint, name string, id bigint, amount int"));
        orders.addData(Row.of(10L, 2, 5), Row.of(12L, 3, 7));
        StreamingQuery q = start(joined);
        q.processAllAvailable();
        q.stop();
        assertThat(sorted(MemorySink.rows(table))).containsExactly(Row.of(2, "bob", 10L, 5),
                Row.of(3, null, 12L, 7));
    }

    @Test
    void theStaticSideIsReadOnceAndAgainOnlyWhenAsked() throws Exception {
        StreamFrame joined = stream().join(customers(), "cust");
        orders.addData(Row.of(10L, 3, 5));
        StreamingQuery q = start(joined);
        q.processAllAvailable();
        customers.addData(Row.of(3L, "cy"));
        orders.addData(Row.of(11L, 3, 6));
        q.processAllAvailable();
        assertThat(joined.reloadStaticSides()).isEqualTo(1);
        orders.addData(Row.of(12L, 3, 7));
        q.processAllAvailable();
        q.stop();

        assertThat(MemorySink.batches(table).get(0L)).isEmpty();
        assertThat(MemorySink.batches(table).get(1L)).isEmpty(); // not seen before the reload
        assertThat(MemorySink.batches(table).get(2L)).containsExactly(Row.of(3, 12L, 7, "cy"));
    }

    @Test
    void refusedCombinationsCarrySparksMessages() throws Exception {
        StreamFrame statics = customers();
        assertThatThrownBy(() -> stream().join(statics, List.of("cust"), "right_outer"))
                .isInstanceOf(AnalysisException.class).hasMessage("RightOuter join with a streaming "
                        + "DataFrame/Dataset on the left and a static DataFrame/DataSet on the right not supported");
        assertThatThrownBy(() -> stream().join(statics, List.of("cust"), "full"))
                .hasMessage("FullOuter joins with streaming DataFrames/Datasets on the left and a static "
                        + "DataFrame/Dataset on the right is not supported");
        assertThatThrownBy(() -> statics.join(stream(), List.of("cust"), "full_outer"))
                .hasMessage("FullOuter joins with streaming DataFrames/Datasets on the right and a static "
                        + "DataFrame/Dataset on the left is not supported");
        assertThatThrownBy(() -> statics.join(stream(), List.of("cust"), "left"))
                .hasMessage("LeftOuter join with a streaming DataFrame/Dataset on the right and a static "
                        + "DataFrame/Dataset on the left is not supported");
        assertThatThrownBy(() -> statics.join(stream(), List.of("cust"), "leftsemi"))
                .hasMessage("LeftSemi join with a streaming DataFrame/Dataset on the right and a static "
                        + "DataFrame/Dataset on the left is not supported");
        assertThatThrownBy(() -> statics.join(stream(), List.of("cust"), "anti"))
                .hasMessage("LeftAnti joins with a streaming DataFrame/Dataset on the right are not supported");
        assertThatThrownBy(() -> stream().join(statics, List.of("cust"), "sideways"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("Unsupported join type "
                        + "'sideways'. Supported join types include: 'inner', 'outer',");
        assertThatThrownBy(() -> stream().join(statics, "nope"))
                .hasMessage("[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column `nope` cannot be resolved on the left "
                        + "side of the join. The left-side columns: [`id`, `cust`, `amount`].");
        assertThatThrownBy(() -> stream().join(stream(), "cust")).isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("Joins between two streaming DataFrames/Datasets are not supported");
    }

    private static List<Row> sorted(List<Row> rows) {
        return rows.stream().sorted(Comparator.comparing((Row r) -> String.valueOf(r.get(0)))
                .thenComparing(r -> String.valueOf(r.get(r.size() - 1)))).toList();
    }
}
