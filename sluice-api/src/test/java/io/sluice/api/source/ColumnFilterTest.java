package io.sluice.api.source;

import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ColumnFilterTest {
    private static boolean test(ColumnFilter f, Object... nameValue) {
        Map<String, Object> row = new HashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            row.put((String) nameValue[i], nameValue[i + 1]);
        }
        return f.test(row::get);
    }

    @Test
    void comparisonsInAndNullsFollowSqlSemantics() {
        var ge = new ColumnFilter.Compare("offset", ColumnFilter.Op.GREATER_THAN_OR_EQUAL, 5L);
        assertThat(test(ge, "offset", 5L)).isTrue();
        assertThat(test(ge, "offset", 4L)).isFalse();
        assertThat(test(ge, "offset", null)).as("a comparison with null is not true").isFalse();
        var lt = new ColumnFilter.Compare("t", ColumnFilter.Op.LESS_THAN, Instant.ofEpochSecond(10));
        assertThat(test(lt, "t", Instant.ofEpochSecond(9))).isTrue();
        assertThat(test(lt, "t", Instant.ofEpochSecond(10))).isFalse();
        var in = new ColumnFilter.In("p", List.of(1, 3));
        assertThat(test(in, "p", 3)).isTrue();
        assertThat(test(in, "p", 2)).isFalse();
        assertThat(test(in, "p", null)).isFalse();
        assertThat(test(new ColumnFilter.IsNull("p"), "p", null)).isTrue();
        assertThat(test(new ColumnFilter.IsNotNull("p"), "p", null)).isFalse();
        var and = new ColumnFilter.And(new ColumnFilter.Compare("p", ColumnFilter.Op.EQUAL_TO, 1), ge);
        assertThat(test(and, "p", 1, "offset", 7L)).isTrue();
        assertThat(test(and, "p", 2, "offset", 7L)).isFalse();
        assertThat(and.columns()).containsExactly("p", "offset");
        // Numbers of different boxes compare by value; binary values as unsigned bytes.
        assertThat(test(new ColumnFilter.Compare("n", ColumnFilter.Op.EQUAL_TO, 1), "n", 1L)).isTrue();
        assertThat(test(new ColumnFilter.Compare("b", ColumnFilter.Op.GREATER_THAN, new byte[] {1}), "b",
                new byte[] {(byte) 0xff})).isTrue();
    }

    @Test
    void nothingPushedRequiresEveryColumnAndMatchesEveryRow() {
        PushDown none = PushDown.none(StructType.fromDDL("a int, b string"));
        assertThat(none.requiredColumns()).isEqualTo(Set.of("a", "b"));
        assertThat(none.filters()).isEmpty();
        assertThat(none.test(c -> null)).isTrue();
        PushDown some = new PushDown(Set.of("a"), List.of(new ColumnFilter.IsNotNull("a")));
        assertThat(some.requires("b")).isFalse();
        assertThat(some.test(c -> null)).isFalse();
    }
}
