package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code StreamFrame.sql}: a SELECT over the frame named {@code source}, as the command line's {@code --sql}. */
class SqlQueryTest {
    private final Sluice sluice = Sluice.builder().parallelism(1).build();
    private final MemoryStream input = MemoryStream.create(StructType.fromDDL("id bigint, amount int, name string"));

    @AfterEach
    void tearDown() {
        sluice.close();
        input.unregister();
    }

    private StreamFrame bounded() {
        return sluice.read().format("memory").option("name", input.name()).load();
    }

    @Test
    void selectFromSourceWhereIsWhereThenSelectExpr() throws Exception {
        input.addData(Row.of(1L, 5, "a"), Row.of(2L, 50, "b"), Row.of(3L, null, "c"));
        StreamFrame q = bounded().sql("select id, amount * 2 AS doubled, upper(name) n FROM Source "
                + "where amount > 10 OR name = 'c'");
        assertThat(q.schema()).isEqualTo(StructType.fromDDL("id bigint, doubled int, n string"));
        assertThat(q.collectAsList()).containsExactly(Row.of(2L, 100, "B"), Row.of(3L, null, "C"));
        assertThat(bounded().sql("SELECT * FROM source").collectAsList()).hasSize(3);
    }

    @Test
    void otherTablesGroupByAndBadSyntaxAreRefused() {
        assertThatThrownBy(() -> bounded().sql("SELECT id FROM orders")).isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("[TABLE_OR_VIEW_NOT_FOUND] The table or view `orders` cannot be found.");
        assertThatThrownBy(() -> bounded().sql("SELECT name, count(*) FROM source GROUP BY name"))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageStartingWith("groupBy is not supported on a one-off read");
        assertThatThrownBy(() -> bounded().sql("SELECT id, name, count(*) FROM source GROUP BY name"))
                .isInstanceOf(AnalysisException.class).hasMessage("[MISSING_AGGREGATION] The non-aggregating "
                        + "expression \"id\" is based on columns which are not participating in the GROUP BY clause. "
                        + "Add the columns or the expression to the GROUP BY, aggregate the expression, or use "
                        + "\"any_value(id)\" if you do not care which of the values within a group is returned.");
        assertThatThrownBy(() -> bounded().sql("SELECT id source")).isInstanceOf(ParseException.class)
                .hasMessageContaining("expected ',' or FROM but found end of input");
        assertThatThrownBy(() -> bounded().sql("id FROM source")).isInstanceOf(ParseException.class)
                .hasMessageContaining("expected SELECT");
        assertThatThrownBy(() -> bounded().sql("SELECT nope FROM source")).isInstanceOf(AnalysisException.class);
    }
}
