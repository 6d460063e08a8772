package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructType;
import io.sluice.core.expr.Compiler;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.sluice.core.Functions.abs;
import static io.sluice.core.Functions.coalesce;
import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.concat;
import static io.sluice.core.Functions.concatWs;
import static io.sluice.core.Functions.currentDate;
import static io.sluice.core.Functions.currentTimestamp;
import static io.sluice.core.Functions.expr;
import static io.sluice.core.Functions.fromJson;
import static io.sluice.core.Functions.length;
import static io.sluice.core.Functions.lit;
import static io.sluice.core.Functions.lower;
import static io.sluice.core.Functions.not;
import static io.sluice.core.Functions.round;
import static io.sluice.core.Functions.substring;
import static io.sluice.core.Functions.toDate;
import static io.sluice.core.Functions.struct;
import static io.sluice.core.Functions.toJson;
import static io.sluice.core.Functions.toTimestamp;
import static io.sluice.core.Functions.trim;
import static io.sluice.core.Functions.upper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Column API and Functions: each builds the expression its SQL twin does. */
class ColumnFunctionsTest {
    private static final StructType SCHEMA = StructType.fromDDL(
            "id bigint, name string, amount int, price decimal(10,2), json string, tags array<string>, "
                    + "attrs map<string, string>, data struct<seq: bigint, note: string>, `a.b` int, missing int");
    private static final Row ROW = Row.of(1L, " Alice ", 150, new BigDecimal("9.99"),
            "{\"seq\":5,\"account\":\"acc\",\"amount\":300}", List.of("x", "y"), Map.of("k", "v"), Row.of(5L, null),
            42, null);
    private static final ManualClock CLOCK = new ManualClock(1_790_899_200_000L);

    private static Compiler.Projection compile(Column... columns) {
        return Compiler.projection(SCHEMA, Arrays.stream(columns).map(Column::expr).toList(), CLOCK, java.time.ZoneOffset.UTC);
    }

    private static Object eval(Column c) {
        return compile(c).apply(ROW).get(0);
    }

    private static String name(Column c) {
        return compile(c).schema().field(0).name();
    }

    private static DataType type(Column c) {
        return compile(c).schema().field(0).dataType();
    }

    @Test
    void columnsByName() {
        assertThat(eval(col("amount"))).isEqualTo(150);
        assertThat(eval(col("AMOUNT"))).isEqualTo(150);
        assertThat(name(col("AMOUNT"))).isEqualTo("amount");
        assertThat(eval(col("data.seq"))).isEqualTo(5L);
        assertThat(name(col("data.seq"))).isEqualTo("seq");
        assertThat(eval(col("`a.b`"))).isEqualTo(42);
        assertThat(eval(col("data").getField("seq"))).isEqualTo(5L);
        assertThat(eval(col("tags").getItem(1))).isEqualTo("y");
        assertThat(eval(col("attrs").getItem("k"))).isEqualTo("v");
        assertThat(compile(col("*")).schema()).isEqualTo(SCHEMA);
        assertThat(compile(col("data.*")).apply(ROW)).isEqualTo(Row.of(5L, null));
    }

    @Test
    void literals() {
        assertThat(type(lit(1))).isEqualTo(DataType.intType());
        assertThat(type(lit(1L))).isEqualTo(DataType.longType());
        assertThat(type(lit((short) 1))).isEqualTo(DataType.shortType());
        assertThat(type(lit((byte) 1))).isEqualTo(DataType.byteType());
        assertThat(type(lit(1.5))).isEqualTo(DataType.doubleType());
        assertThat(type(lit(1.5f))).isEqualTo(DataType.floatType());
        assertThat(type(lit(new BigDecimal("12.345")))).isEqualTo(new DecimalType(5, 3));
        assertThat(type(lit("s"))).isEqualTo(DataType.stringType());
        assertThat(type(lit(true))).isEqualTo(DataType.booleanType());
        assertThat(eval(lit(LocalDate.of(2026, 1, 2)))).isEqualTo(LocalDate.of(2026, 1, 2));
        assertThat(eval(lit(Instant.parse("2026-01-02T03:04:05Z")))).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
        assertThat(name(lit(Instant.parse("2026-01-02T03:04:05Z")))).isEqualTo("TIMESTAMP '2026-01-02 03:04:05'");
        assertThat((byte[]) eval(lit(new byte[]{1, 2}))).containsExactly(1, 2);
        assertThat(eval(lit(null))).isNull();
        Column c = col("x");
        assertThat(lit(c)).isSameAs(c);
        assertThatThrownBy(() -> lit(new java.util.Date(0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The feature is not supported: Literal for '")
                .hasMessageEndingWith("of class java.util.Date. Supported: Integer, Long, Short, Byte, Float, "
                        + "Double, BigDecimal, String, Boolean, LocalDate, Instant, byte[] and null");
    }

    @Test
    void arithmeticAndNames() {
        assertThat(eval(col("amount").plus(1))).isEqualTo(151);
        assertThat(name(col("amount").plus(1))).isEqualTo("(amount + 1)");
        assertThat(eval(col("amount").minus(col("id")))).isEqualTo(149L);
        assertThat(eval(col("amount").multiply(2))).isEqualTo(300);
        assertThat(eval(col("amount").divide(4))).isEqualTo(37.5);
        assertThat(eval(col("amount").mod(7))).isEqualTo(3);
        assertThat(eval(col("price").multiply(2))).isEqualTo(new BigDecimal("19.98"));
        assertThat(name(col("amount").plus(1).as("next"))).isEqualTo("next");
        assertThat(name(col("amount").alias("x"))).isEqualTo("x");
        assertThat(name(col("amount").name("y"))).isEqualTo("y");
    }

    @Test
    void comparisonsAndLogic() {
        assertThat(eval(col("amount").gt(100))).isEqualTo(true);
        assertThat(eval(col("amount").geq(150))).isEqualTo(true);
        assertThat(eval(col("amount").lt(100))).isEqualTo(false);
        assertThat(eval(col("amount").leq(149))).isEqualTo(false);
        assertThat(eval(col("amount").equalTo(150))).isEqualTo(true);
        assertThat(eval(col("amount").notEqual(150))).isEqualTo(false);
        assertThat(eval(col("missing").equalTo(1))).isNull();
        assertThat(eval(col("missing").eqNullSafe(lit(null)))).isEqualTo(true);
        assertThat(eval(col("amount").gt(100).and(col("id").equalTo(1)))).isEqualTo(true);
        assertThat(eval(col("amount").gt(1000).or(col("missing").gt(1)))).isNull();
        assertThat(eval(col("amount").gt(100).not())).isEqualTo(false);
        assertThat(eval(not(col("amount").gt(100)))).isEqualTo(false);
        assertThat(eval(col("missing").isNull())).isEqualTo(true);
        assertThat(eval(col("amount").isNotNull())).isEqualTo(true);
        assertThat(eval(col("amount").isin(1, 150))).isEqualTo(true);
        assertThat(eval(col("name").isin("x", null))).isNull();
        assertThat(eval(col("amount").between(100, 200))).isEqualTo(true);
        assertThat(eval(col("name").like(" A%"))).isEqualTo(true);
        assertThat(col("amount").gt(100).and(col("name").isNotNull()).toString())
                .isEqualTo("((amount > 100) AND (name IS NOT NULL))");
    }

    @Test
    void casts() {
        assertThat(eval(col("amount").cast("string"))).isEqualTo("150");
        assertThat(name(col("amount").cast("string"))).isEqualTo("amount");
        assertThat(eval(col("name").cast(DataType.intType()))).isNull();
        assertThat(eval(col("price").cast("decimal(4,1)"))).isEqualTo(new BigDecimal("10.0"));
        assertThatThrownBy(() -> col("amount").cast("strng"))
                .isInstanceOf(io.sluice.api.types.SchemaParseException.class);
    }

    @Test
    void functions() {
        assertThat(eval(coalesce(col("missing"), col("amount")))).isEqualTo(150);
        assertThat(eval(concat(col("name"), lit("#"), col("id")))).isEqualTo(" Alice #1");
        assertThat(eval(concatWs("-", col("id"), col("missing"), col("amount")))).isEqualTo("1-150");
        assertThat(eval(lower(col("name")))).isEqualTo(" alice ");
        assertThat(eval(upper(col("name")))).isEqualTo(" ALICE ");
        assertThat(eval(length(col("name")))).isEqualTo(7);
        assertThat(eval(trim(col("name")))).isEqualTo("Alice");
        assertThat(eval(substring(col("name"), 2, 3))).isEqualTo("Ali");
        assertThat(eval(abs(lit(-3)))).isEqualTo(3);
        assertThat(eval(round(col("price")))).isEqualTo(new BigDecimal("10"));
        assertThat(eval(round(col("price"), 1))).isEqualTo(new BigDecimal("10.0"));
        assertThat(eval(toTimestamp(lit("2026-10-02 01:02:03")))).isEqualTo(Instant.parse("2026-10-02T01:02:03Z"));
        assertThat(eval(toTimestamp(lit("02/10/2026"), "dd/MM/yyyy"))).isEqualTo(Instant.parse("2026-10-02T00:00:00Z"));
        assertThat(eval(toDate(lit("2026-10-02")))).isEqualTo(LocalDate.of(2026, 10, 2));
        assertThat(eval(toDate(lit("02/10/2026"), "dd/MM/yyyy"))).isEqualTo(LocalDate.of(2026, 10, 2));
        assertThat(eval(currentTimestamp())).isEqualTo(Instant.ofEpochMilli(1_790_899_200_000L));
        assertThat(eval(currentDate())).isEqualTo(LocalDate.of(2026, 10, 2));
        assertThat(name(currentTimestamp())).isEqualTo("current_timestamp()");
    }

    @Test
    void jsonFunctions() {
        Column parsed = fromJson(col("json"), StructType.fromDDL("seq long, account string, amount long"));
        assertThat(eval(parsed)).isEqualTo(Row.of(5L, "acc", 300L));
        assertThat(name(parsed)).isEqualTo("from_json(json)");
        assertThat(type(parsed)).isEqualTo(StructType.fromDDL("seq bigint, account string, amount bigint"));
        assertThat(eval(fromJson(col("json"), "amount int"))).isEqualTo(Row.of(300));
        assertThat(eval(fromJson(col("json"), "amount int", Map.of("mode", "FAILFAST")))).isEqualTo(Row.of(300));
        assertThat(eval(toJson(col("data")))).isEqualTo("{\"seq\":5}");
        assertThat(eval(toJson(col("data"), Map.of("ignoreNullFields", "false")))).isEqualTo("{\"seq\":5,\"note\":null}");
        assertThat(eval(toJson(fromJson(col("json"), "seq long, amount long")))).isEqualTo("{\"seq\":5,\"amount\":300}");
    }

    @Test
    void structOfColumns() {
        assertThat(eval(toJson(struct(col("id"), col("amount").as("amt"), col("data")))))
                .isEqualTo("{\"id\":1,\"amt\":150,\"data\":{\"seq\":5}}");
        assertThat(name(struct(col("id"), col("amount").as("amt")))).isEqualTo("struct(id, amount AS amt)");
        assertThat(eval(toJson(struct("data.*")))).isEqualTo("{\"seq\":5}");
        assertThat(eval(struct("id", "amount"))).isEqualTo(Row.of(1L, 150));
        assertThat(type(struct(col("*")))).isEqualTo(SCHEMA);
    }

    @Test
    void exprParsesAtOnceAndResolvesLater() {
        assertThat(eval(expr("amount * 2"))).isEqualTo(300);
        assertThat(name(expr("amount * 2 AS doubled"))).isEqualTo("doubled");
        assertThat(eval(expr("amount").plus(expr("id")))).isEqualTo(151L);
        assertThatThrownBy(() -> expr("amount *")).isInstanceOf(ParseException.class)
                .hasMessage("Syntax error at position 8 (column 9): expected an expression but found end of input\n"
                        + "amount *\n        ^");
        Column unknown = expr("nope + 1");
        assertThatThrownBy(() -> compile(unknown)).isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("A column or function parameter with name `nope` cannot be resolved.");
    }

    @Test
    void columnsAreValues() {
        assertThat(col("a").plus(1)).isEqualTo(col("a").plus(1));
        assertThat(col("a").plus(1)).hasSameHashCodeAs(col("a").plus(1));
        assertThat(col("a").plus(1)).isNotEqualTo(col("a").plus(2));
        assertThat(col("data.seq").toString()).isEqualTo("data.seq");
        assertThat(lit("it's").toString()).isEqualTo("'it\\'s'");
    }
}
