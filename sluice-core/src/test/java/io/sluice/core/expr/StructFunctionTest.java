package io.sluice.core.expr;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.AnalysisException;
import io.sluice.core.ParseException;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Spark's {@code struct(...)}: {@code struct(*)}, aliases, field names, and {@code to_json} of the result. */
class StructFunctionTest {
    private static final StructType EVENTS = StructType.fromDDL("id bigint, name string, at timestamp");
    private static final Row EVENT = Row.of(1L, "a", Instant.parse("2026-10-02T00:00:00Z"));

    private static Compiler.Projection compile(StructType input, String... items) {
        return Compiler.projection(input, java.util.Arrays.stream(items).map(SqlParser::parseNamedExpression)
                .toList(), ExpressionTest.CLOCK, java.time.ZoneOffset.UTC);
    }

    private static Object eval(StructType input, Row row, String item) {
        return compile(input, item).apply(row).get(0);
    }

    @Test
    void toJsonOfStructStarIsTheWholeRowAsSparkWritesIt() {
        assertThat(eval(EVENTS, EVENT, "to_json(struct(*))"))
                .isEqualTo("{\"id\":1,\"name\":\"a\",\"at\":\"2026-10-02T00:00:00.000Z\"}");
        // Null fields are left out, as Spark's to_json does by default.
        assertThat(eval(EVENTS, Row.of(2L, null, null), "to_json(struct(*))")).isEqualTo("{\"id\":2}");
        assertThat(compile(EVENTS, "to_json(struct(*)) AS value").schema())
                .isEqualTo(StructType.fromDDL("value string"));
    }

    @Test
    void theKafkaSinkDocExample() {
        Compiler.Projection p = compile(EVENTS, "CAST(id AS STRING) AS key", "to_json(struct(*)) AS value");
        assertThat(p.apply(EVENT)).isEqualTo(Row.of("1",
                "{\"id\":1,\"name\":\"a\",\"at\":\"2026-10-02T00:00:00.000Z\"}"));
    }

    @Test
    void structStarIsAStructOfEveryInputColumn() {
        Compiler.Projection p = compile(EVENTS, "struct(*)");
        assertThat(p.schema()).isEqualTo(StructType.fromDDL(
                "`struct(id, name, at)` struct<id: bigint, name: string, at: timestamp> NOT NULL"));
        assertThat(p.apply(EVENT).get(0)).isEqualTo(EVENT);
    }

    @Test
    void fieldsAreNamedAfterColumnsAliasesOrPosition() {
        Compiler.Projection p = compile(EVENTS, "struct(id, name AS who, id + 1, upper(name))");
        assertThat(p.schema().field(0).name()).isEqualTo("struct(id, name AS who, (id + 1), upper(name))");
        assertThat(p.schema().field(0).dataType()).isEqualTo(StructType.fromDDL(
                "id bigint, who string, col3 bigint, col4 string"));
        assertThat(eval(EVENTS, EVENT, "to_json(struct(id, name AS who, id + 1, upper(name)))"))
                .isEqualTo("{\"id\":1,\"who\":\"a\",\"col3\":2,\"col4\":\"A\"}");
    }

    @Test
    void nestedValuesAndQualifiedStars() {
        StructType s = ExpressionTest.SCHEMA;
        Row r = ExpressionTest.ROW;
        assertThat(eval(s, r, "to_json(struct(data, arr, kv, day))")).isEqualTo(
                "{\"data\":{\"seq\":1,\"account\":\"acc-1\",\"inner\":{\"x\":9}},\"arr\":[10,20,30],"
                        + "\"kv\":{\"k\":5},\"day\":\"2026-10-02\"}");
        assertThat(eval(s, r, "to_json(struct(data.*))"))
                .isEqualTo("{\"seq\":1,\"account\":\"acc-1\",\"inner\":{\"x\":9}}");
        assertThat(eval(s, r, "to_json(struct(a, struct(s AS text, data.inner.x) AS nested))"))
                .isEqualTo("{\"a\":7,\"nested\":{\"text\":\"hello\",\"x\":9}}");
        assertThat(eval(s, r, "struct(a, b).b")).isEqualTo(100L);
    }

    @Test
    void aStarExpandsInAnyFunctionsArgumentsAsInSpark() {
        StructType strings = StructType.fromDDL("a string, b string");
        assertThat(eval(strings, Row.of("x", "y"), "concat(*)")).isEqualTo("xy");
        assertThat(eval(strings, Row.of("x", "y"), "concat_ws('-', *)")).isEqualTo("x-y");
    }

    @Test
    void aStarElsewhereSaysWhereOneIsAllowed() {
        String allowed = "a star is allowed only as a whole select item, as in selectExpr(\"*\") or "
                + "selectExpr(\"data.*\"), or as a whole function argument, as in struct(*) or to_json(struct(*))";
        ParseException p = catchThrowableOfType(ParseException.class,
                () -> SqlParser.parseNamedExpression("concat(* || 'x')"));
        assertThat(p.getMessage()).isEqualTo("Syntax error at position 7 (column 8): invalid usage of '*': "
                + allowed + "\nconcat(* || 'x')\n       ^");
        assertThat(catchThrowableOfType(ParseException.class, () -> SqlParser.parseNamedExpression("struct(* + 1)"))
                .getMessage()).isEqualTo("Syntax error at position 7 (column 8): invalid usage of '*': " + allowed
                + "\nstruct(* + 1)\n       ^");
        ParseException where = catchThrowableOfType(ParseException.class, () -> SqlParser.parseExpression("* > 1"));
        assertThat(where.getMessage()).isEqualTo("Syntax error at position 0 (column 1): invalid usage of '*': "
                + allowed + "\n* > 1\n^");
        AnalysisException a = catchThrowableOfType(AnalysisException.class, () -> Compiler.condition(EVENTS,
                new Expr.Binary(">", SqlParser.parseColumnName("*"), new Expr.Literal(1, null, "1", null), null),
                ExpressionTest.CLOCK, java.time.ZoneOffset.UTC));
        assertThat(a.getMessage()).isEqualTo("Invalid usage of '*' in expression: a star is allowed only as a "
                + "whole select item, as in select(\"*\") or select(\"data.*\"), or as a whole function argument, as in "
                + "struct(*) or to_json(struct(*))");
        assertThat(catchThrowableOfType(AnalysisException.class, () -> compile(EVENTS, "struct(nope.*)"))
                .getMessage()).startsWith("Cannot resolve `nope.*` given input columns: [`id`, `name`, `at`].");
    }

    @Test
    void aStructOfConstantsIsFoldedOnce() {
        assertThat(eval(EVENTS, EVENT, "to_json(struct(1 AS one, 'x' AS two))")).isEqualTo("{\"one\":1,\"two\":\"x\"}");
        assertThat(compile(EVENTS, "struct(1 AS one)").schema().field(0).dataType())
                .isEqualTo(StructType.fromDDL("one int NOT NULL"));
        assertThat(List.of(compile(EVENTS, "struct()").apply(EVENT).get(0))).containsExactly(Row.of());
    }
}
