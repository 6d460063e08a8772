package io.sluice.api.types;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 14: a schema a user gives is refused when it would silently lose data (empty: every row {}; duplicate
 * names: one column hides the other), and DDL nested too deep fails with a clear error, not a StackOverflowError.
 */
class SchemaReliabilityTest {
    private static final String EMPTY = "The user specified schema is empty: give at least one column, as in "
            + "\"id long, name string\" (an empty schema would read every row as {})";

    @Test
    void emptyAndBlankSchemasAreRefused() {
        for (String ddl : new String[] {"", "   ", "\n\t", "-- just a comment"}) {
            StructType parsed = StructType.fromDDL(ddl); // the DDL itself is the empty schema, as in Spark
            assertThatThrownBy(() -> StructType.checkUserSpecified(parsed))
                    .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage(EMPTY);
        }
    }

    @Test
    void duplicateColumnsAreRefusedWithSparksMessage() {
        assertThatThrownBy(() -> StructType.checkUserSpecified(StructType.fromDDL("id long, id long")))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("Found duplicate column(s) in the user specified schema: `id`");
        // Case-insensitive as Spark by default, the duplicates named in lower case in order of appearance.
        assertThatThrownBy(() -> StructType.checkUserSpecified(
                StructType.fromDDL("B int, a int, Id long, b string, ID int, id int")))
                .hasMessage("Found duplicate column(s) in the user specified schema: `b`, `id`");
    }

    @Test
    void nestedDuplicatesAreRefusedToo() {
        for (String ddl : new String[] {"s struct<x: int, X: int>", "a array<struct<x: int, x: int>>",
                "m map<string, struct<x: int, x: string>>", "o struct<i struct<x: int, x: int>>"}) {
            assertThatThrownBy(() -> StructType.checkUserSpecified(StructType.fromDDL(ddl))).as(ddl)
                    .hasMessage("Found duplicate column(s) in the user specified schema: `x`");
        }
    }

    @Test
    void validSchemasPassUnchanged() {
        StructType s = StructType.fromDDL("id long, s struct<id: int, x: int>, e struct<>, t array<struct<id: int>>");
        assertThat(StructType.checkUserSpecified(s)).isSameAs(s);
    }

    @Test
    void nestingBeyondTheLimitIsAClearError() {
        String ok = "array<".repeat(DataType.MAX_NESTING_DEPTH) + "int" + ">".repeat(DataType.MAX_NESTING_DEPTH);
        assertThat(DataType.fromDDL(ok).simpleString()).isEqualTo(ok);

        int deep = 3000;
        String tooDeep = "a " + "array<".repeat(deep) + "int" + ">".repeat(deep);
        int at = 2 + 6 * DataType.MAX_NESTING_DEPTH;
        assertThatThrownBy(() -> StructType.fromDDL(tooDeep))
                .isExactlyInstanceOf(SchemaParseException.class)
                .hasMessageStartingWith("Syntax error at position " + at + " (column " + (at + 1) + "): types nest "
                        + "deeper than 100 levels, the most Sluice reads\n");
        assertThatThrownBy(() -> DataType.fromDDL("struct<a: ".repeat(deep) + "int" + ">".repeat(deep)))
                .isExactlyInstanceOf(SchemaParseException.class)
                .hasMessageContaining("types nest deeper than 100 levels, the most Sluice reads");
        assertThatThrownBy(() -> DataType.fromDDL("map<int, ".repeat(deep) + "int" + ">".repeat(deep)))
                .isExactlyInstanceOf(SchemaParseException.class)
                .hasMessageContaining("types nest deeper than 100 levels, the most Sluice reads");
    }
}
