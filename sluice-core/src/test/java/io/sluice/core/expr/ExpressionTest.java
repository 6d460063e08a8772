package io.sluice.core.expr;

import io.sluice.api.Row;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import io.sluice.core.AnalysisException;
import io.sluice.core.ManualClock;
import io.sluice.core.ParseException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The SQL expression language: parsing, types, values, names and error messages. */
class ExpressionTest {
    static final StructType SCHEMA = StructType.fromDDL(
            "a int, b bigint, s string, d double, n int, m decimal(10,2), flag boolean, ts timestamp, day date, "
                    + "data struct<seq: bigint, account: string, inner: struct<x: int>>, arr array<int>, "
                    + "kv map<string, int>, `Mixed Case` string");
    static final Row ROW = Row.of(7, 100L, "hello", 2.5, null, new BigDecimal("12.50"), true,
            Instant.parse("2026-10-02T10:15:30Z"), LocalDate.of(2026, 10, 2),
            Row.of(1L, "acc-1", Row.of(9)), List.of(10, 20, 30), Map.of("k", 5), "mc");
    static final ManualClock CLOCK = new ManualClock(1_790_899_200_000L);

    static Compiler.Projection compile(String sql) {
        return Compiler.projection(SCHEMA, List.of(SqlParser.parseNamedExpression(sql)), CLOCK, ZoneOffset.UTC);
    }

    static Object eval(String sql) {
        return compile(sql).apply(ROW).get(0);
    }

    static DataType type(String sql) {
        return compile(sql).schema().field(0).dataType();
    }

    static String name(String sql) {
        return compile(sql).schema().field(0).name();
    }

    static String error(String sql) {
        AnalysisException e = catchThrowableOfType(AnalysisException.class, () -> compile(sql));
        assertThat(e).as("%s should fail", sql).isNotNull();
        return e.getMessage();
    }

    @Nested
    class Literals {
        @Test
        void integersAreIntThenBigintThenDecimalBySize() {
            assertThat(eval("1")).isEqualTo(1);
            assertThat(type("1")).isEqualTo(DataType.intType());
            assertThat(eval("2147483647")).isEqualTo(2147483647);
            assertThat(eval("2147483648")).isEqualTo(2147483648L);
            assertThat(type("2147483648")).isEqualTo(DataType.longType());
            assertThat(eval("-2147483648")).isEqualTo(-2147483648);
            assertThat(type("-2147483648")).isEqualTo(DataType.intType());
            assertThat(eval("9223372036854775808")).isEqualTo(new BigDecimal("9223372036854775808"));
            assertThat(type("9223372036854775808")).hasToString("decimal(19,0)");
        }

        @Test
        void suffixesChooseTheType() {
            assertThat(eval("10L")).isEqualTo(10L);
            assertThat(eval("10S")).isEqualTo((short) 10);
            assertThat(eval("10Y")).isEqualTo((byte) 10);
            assertThat(eval("1.5D")).isEqualTo(1.5);
            assertThat(eval("1.5F")).isEqualTo(1.5f);
            assertThat(eval("1.50BD")).isEqualTo(new BigDecimal("1.50"));
            assertThat(type("1.50BD")).hasToString("decimal(3,2)");
        }

        @Test
        void decimalsAndExponents() {
            assertThat(eval("1.5")).isEqualTo(new BigDecimal("1.5"));
            assertThat(type("1.5")).hasToString("decimal(2,1)");
            assertThat(type(".001")).hasToString("decimal(3,3)");
            assertThat(eval("1e3")).isEqualTo(1000.0);
            assertThat(type("1E3")).isEqualTo(DataType.doubleType());
            assertThat(eval("-1.5e-1")).isEqualTo(-0.15);
        }

        @Test
        void strings() {
            assertThat(eval("'it''s'")).isEqualTo("it's");
            assertThat(eval("'it\\'s'")).isEqualTo("it's");
            assertThat(eval("\"double\"")).isEqualTo("double");
            assertThat(eval("'a\\tb\\nc\\\\'")).isEqualTo("a\tb\nc\\");
            assertThat(eval("'\\u00e9'")).isEqualTo("é");
            assertThat(eval("'ab' 'cd'")).isEqualTo("abcd");
            assertThat(eval("r'C:\\dir'")).isEqualTo("C:\\dir");
            assertThat(type("'x'")).isEqualTo(DataType.stringType());
        }

        @Test
        void booleansNullDatesAndTimestamps() {
            assertThat(eval("TRUE")).isEqualTo(true);
            assertThat(eval("false")).isEqualTo(false);
            assertThat(eval("NULL")).isNull();
            assertThat(type("NULL")).isEqualTo(DataType.stringType());
            assertThat(eval("DATE '2026-01-01'")).isEqualTo(LocalDate.of(2026, 1, 1));
            assertThat(eval("TIMESTAMP '2026-01-01 10:00:00'")).isEqualTo(Instant.parse("2026-01-01T10:00:00Z"));
            assertThat(eval("TIMESTAMP '2026-01-01T10:00:00.123456+02:00'"))
                    .isEqualTo(Instant.parse("2026-01-01T08:00:00.123456Z"));
            assertThat(type("TIMESTAMP '2026-01-01'")).isEqualTo(DataType.timestampType());
        }
    }

    @Nested
    class Arithmetic {
        @Test
        void integralArithmeticKeepsTheWiderType() {
            assertThat(eval("a + 1")).isEqualTo(8);
            assertThat(type("a + 1")).isEqualTo(DataType.intType());
            assertThat(eval("a + b")).isEqualTo(107L);
            assertThat(type("a * b")).isEqualTo(DataType.longType());
            assertThat(eval("b - a * 2")).isEqualTo(86L);
            assertThat(eval("b % 7")).isEqualTo(2L);
            assertThat(eval("-7 % 3")).isEqualTo(-1);
            assertThat(eval("2147483647 + 1")).isEqualTo(-2147483648); // wraps, as Spark without ANSI
        }

        @Test
        void divisionIsDoubleForIntegralsAndNullByZero() {
            assertThat(eval("7 / 2")).isEqualTo(3.5);
            assertThat(type("a / 2")).isEqualTo(DataType.doubleType());
            assertThat(eval("a / 0")).isNull();
            assertThat(eval("d / 0")).isNull();
            assertThat(eval("a % 0")).isNull();
            assertThat(eval("7 div 2")).isEqualTo(3L);
            assertThat(type("a DIV 2")).isEqualTo(DataType.longType());
            assertThat(eval("7 DIV 0")).isNull();
        }

        @Test
        void doublesAndStrings() {
            assertThat(eval("d * 2")).isEqualTo(5.0);
            assertThat(type("a + d")).isEqualTo(DataType.doubleType());
            assertThat(eval("'1' + 1")).isEqualTo(2.0);
            assertThat(type("'1' + 1")).isEqualTo(DataType.doubleType());
            assertThat(eval("'x' + 1")).isNull();
            assertThat(eval("1.5F + 1")).isEqualTo(2.5f);
        }

        @Test
        void decimalsFollowSparkPrecisionRules() {
            assertThat(eval("m + 1")).isEqualTo(new BigDecimal("13.50"));
            // An integral literal counts with its own digits (Spark's literalPickMinimumPrecision)...
            assertThat(type("m + 1")).hasToString("decimal(11,2)");
            assertThat(type("m + 1L")).hasToString("decimal(11,2)");
            assertThat(eval("m * 2")).isEqualTo(new BigDecimal("25.00"));
            assertThat(type("m * 2")).hasToString("decimal(12,2)");
            assertThat(eval("m / 4")).isEqualTo(new BigDecimal("3.125000"));
            assertThat(type("m / 4")).hasToString("decimal(14,6)");
            // ...a column with every digit its type can hold.
            assertThat(type("m + b")).hasToString("decimal(23,2)");
            assertThat(eval("m + b")).isEqualTo(new BigDecimal("112.50"));
            assertThat(type("m * a")).hasToString("decimal(21,2)");
            assertThat(eval("m / a")).isEqualTo(new BigDecimal("1.7857142857143"));
            assertThat(type("m / a")).hasToString("decimal(21,13)");
            assertThat(eval("1.5 + 2.25")).isEqualTo(new BigDecimal("3.75"));
            assertThat(type("1.5 + 2.25")).hasToString("decimal(4,2)");
            assertThat(type("m + d")).isEqualTo(DataType.doubleType());
            assertThat(eval("m / 0")).isNull();
        }

        @Test
        void unaryMinusAndPrecedence() {
            assertThat(eval("-a")).isEqualTo(-7);
            assertThat(eval("- - a")).isEqualTo(7);
            assertThat(eval("1 + 2 * 3")).isEqualTo(7);
            assertThat(eval("(1 + 2) * 3")).isEqualTo(9);
            assertThat(eval("10 - 4 - 3")).isEqualTo(3);
            assertThat(eval("-a * 2")).isEqualTo(-14);
            assertThat(eval("2 * -3")).isEqualTo(-6);
        }

        @Test
        void nullPropagates() {
            assertThat(eval("n + 1")).isNull();
            assertThat(type("n + 1")).isEqualTo(DataType.intType());
            assertThat(eval("NULL + 1")).isNull();
            assertThat(eval("-n")).isNull();
        }
    }

    @Nested
    class Comparisons {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "a = 7|true", "a == 7|true", "a != 7|false", "a <> 8|true", "a < 8|true", "a <= 7|true",
                "a > 7|false", "a >= 7|true", "b > a|true", "d = 2.5|true", "m = 12.5|true", "s = 'hello'|true",
                "s < 'help'|true", "'a' < 'B'|false", "a = '7'|true", "a = '7.9'|true", "a = 'x'|",
                "day = '2026-10-02'|true", "ts > '2026-10-02'|true", "ts > day|true", "flag = 'true'|true",
                "n = 1|", "n <=> NULL|true", "a <=> NULL|false", "NULL <=> NULL|true", "a <=> 7|true",
                "1 = 1.0|true", "'abc' = 'abc'|true", "CAST('NaN' AS DOUBLE) = CAST('NaN' AS DOUBLE)|true"})
        void comparisonsFollowSparkCoercion(String sql, Boolean expected) {
            assertThat(eval(sql)).as(sql).isEqualTo(expected);
        }

        @Test
        void inBetweenAndIsNull() {
            assertThat(eval("a IN (1, 7)")).isEqualTo(true);
            assertThat(eval("a IN (1, 2)")).isEqualTo(false);
            assertThat(eval("a IN (1, NULL)")).isNull();
            assertThat(eval("a IN (7, NULL)")).isEqualTo(true);
            assertThat(eval("a NOT IN (1, 2)")).isEqualTo(true);
            assertThat(eval("a NOT IN (1, NULL)")).isNull();
            assertThat(eval("n IN (1)")).isNull();
            assertThat(eval("s IN ('x', 'hello')")).isEqualTo(true);
            assertThat(eval("a BETWEEN 1 AND 7")).isEqualTo(true);
            assertThat(eval("a BETWEEN 8 AND 9")).isEqualTo(false);
            assertThat(eval("a NOT BETWEEN 8 AND 9")).isEqualTo(true);
            assertThat(eval("a BETWEEN NULL AND 5")).isEqualTo(false);
            assertThat(eval("a BETWEEN NULL AND 9")).isNull();
            assertThat(eval("n IS NULL")).isEqualTo(true);
            assertThat(eval("n IS NOT NULL")).isEqualTo(false);
            assertThat(eval("a IS NULL")).isEqualTo(false);
            assertThat(eval("a IS DISTINCT FROM n")).isEqualTo(true);
            assertThat(eval("n IS NOT DISTINCT FROM NULL")).isEqualTo(true);
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "'hello' LIKE 'h%'|true", "'hello' LIKE '%llo'|true", "'hello' LIKE '%ll%'|true",
                "'hello' LIKE 'h_llo'|true", "'hello' LIKE 'h_lo'|false", "'hello' LIKE 'hello'|true",
                "'hello' LIKE 'Hello'|false", "'a%b' LIKE 'a\\%b'|true", "'axb' LIKE 'a\\%b'|false",
                "'a_b' LIKE 'a\\_b'|true", "'' LIKE '%'|true", "'abc' LIKE '%%c'|true", "'abc' LIKE 'a%b%c'|true",
                "'abcbc' LIKE 'a%bc'|true", "'abcbd' LIKE 'a%bc'|false", "'hello' NOT LIKE 'h%'|false",
                "'a/b' LIKE 'a//b' ESCAPE '/'|true", "'a%' LIKE 'a/%' ESCAPE '/'|true", "n LIKE 'x'|",
                "'x' LIKE NULL|", "7 LIKE '7'|true"})
        void like(String sql, Boolean expected) {
            assertThat(eval(sql)).as(sql).isEqualTo(expected);
        }
    }

    @Nested
    class Logic {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "TRUE AND TRUE|true", "TRUE AND FALSE|false", "TRUE AND NULL|", "FALSE AND NULL|false",
                "NULL AND FALSE|false", "NULL AND NULL|", "TRUE OR NULL|true", "FALSE OR NULL|", "NULL OR TRUE|true",
                "FALSE OR FALSE|false", "NOT TRUE|false", "NOT NULL|", "!FALSE|true",
                "n > 1 AND a > 1|", "n > 1 OR a > 1|true", "NOT n > 1|", "a > 1 AND NOT a > 10|true"})
        void threeValuedLogic(String sql, Boolean expected) {
            assertThat(eval(sql)).as(sql).isEqualTo(expected);
        }

        @Test
        void andBindsTighterThanOrAndNotTighterThanAnd() {
            assertThat(eval("TRUE OR TRUE AND FALSE")).isEqualTo(true);
            assertThat(eval("(TRUE OR TRUE) AND FALSE")).isEqualTo(false);
            assertThat(eval("NOT FALSE AND FALSE")).isEqualTo(false);
            assertThat(eval("a = 7 IS NULL")).isEqualTo(false); // (a = 7) IS NULL
        }

        @Test
        void caseWhen() {
            assertThat(eval("CASE WHEN a > 5 THEN 'big' ELSE 'small' END")).isEqualTo("big");
            assertThat(eval("CASE WHEN a > 50 THEN 'big' END")).isNull();
            assertThat(eval("CASE WHEN n > 5 THEN 1 WHEN a = 7 THEN 2 ELSE 3 END")).isEqualTo(2);
            assertThat(eval("CASE a WHEN 1 THEN 'one' WHEN 7 THEN 'seven' END")).isEqualTo("seven");
            assertThat(eval("CASE n WHEN 1 THEN 'one' ELSE 'other' END")).isEqualTo("other");
            assertThat(eval("CASE WHEN a > 5 THEN 1 ELSE 2.5D END")).isEqualTo(1.0);
            assertThat(type("CASE WHEN a > 5 THEN 1 ELSE 2L END")).isEqualTo(DataType.longType());
            assertThat(type("CASE WHEN a > 5 THEN 1 ELSE 'x' END")).isEqualTo(DataType.stringType());
            assertThat(eval("CASE WHEN a > 5 THEN NULL ELSE 1 END")).isNull();
            assertThat(type("CASE WHEN a > 5 THEN NULL ELSE 1 END")).isEqualTo(DataType.intType());
        }
    }

    @Nested
    class Casts {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "CAST('12' AS INT)|12", "CAST(' 12 ' AS INT)|12", "CAST('1.9' AS INT)|1", "CAST('-1.9' AS INT)|-1",
                "CAST('abc' AS INT)|", "CAST('' AS INT)|", "CAST('2147483648' AS INT)|", "CAST('1e3' AS INT)|",
                "CAST('2147483648' AS BIGINT)|2147483648", "CAST(300 AS TINYINT)|44", "CAST(3.9D AS INT)|3",
                "CAST(-3.9D AS INT)|-3", "CAST(1e20 AS INT)|2147483647", "CAST('1e3' AS DOUBLE)|1000.0",
                "CAST('inf' AS DOUBLE)|Infinity", "CAST('x' AS DOUBLE)|", "CAST(7 AS STRING)|7",
                "CAST(2.5D AS STRING)|2.5", "CAST(1e10 AS STRING)|1.0E10", "CAST(m AS STRING)|12.50",
                "CAST('12.345' AS DECIMAL(5,2))|12.35", "CAST('1234.5' AS DECIMAL(5,2))|",
                "CAST(TRUE AS INT)|1", "CAST(0 AS BOOLEAN)|false", "CAST('yes' AS BOOLEAN)|true",
                "CAST('no' AS BOOLEAN)|false", "CAST('maybe' AS BOOLEAN)|", "CAST(flag AS STRING)|true",
                "CAST(day AS STRING)|2026-10-02", "CAST(ts AS STRING)|2026-10-02 10:15:30",
                "CAST('2026-10-02 10:15:30.5' AS TIMESTAMP)|2026-10-02T10:15:30.500Z",
                "CAST('2026-10-02' AS TIMESTAMP)|2026-10-02T00:00:00Z", "CAST('2026-10' AS DATE)|2026-10-01",
                "CAST('2026-10-02T10:00' AS DATE)|2026-10-02", "CAST('2026-13-01' AS DATE)|",
                "CAST('not a date' AS TIMESTAMP)|", "CAST(ts AS DATE)|2026-10-02", "CAST(ts AS BIGINT)|1790936130",
                "CAST(1790936130 AS TIMESTAMP)|2026-10-02T10:15:30Z", "CAST(day AS TIMESTAMP)|2026-10-02T00:00:00Z",
                "CAST(day AS INT)|", "CAST(data AS STRING)|{1, acc-1, {9}}", "CAST(arr AS STRING)|[10, 20, 30]",
                "CAST(kv AS STRING)|{k -> 5}", "CAST(NULL AS INT)|"})
        void castsFollowSparkWithoutAnsi(String sql, String expected) {
            Object v = eval(sql);
            assertThat(v == null ? null : v.toString()).as(sql).isEqualTo(expected);
        }

        @Test
        void castTypesComeFromDdl() {
            assertThat(type("CAST(a AS BIGINT)")).isEqualTo(DataType.longType());
            assertThat(type("CAST(a AS long)")).isEqualTo(DataType.longType());
            assertThat(type("CAST(a AS decimal(10, 2))")).hasToString("decimal(10,2)");
            assertThat(eval("CAST(a AS decimal(10, 2))")).isEqualTo(new BigDecimal("7.00"));
            assertThat(type("CAST(arr AS array<string>)")).hasToString("array<string>");
            assertThat(eval("CAST(arr AS array<string>)")).isEqualTo(List.of("10", "20", "30"));
            assertThat(eval("CAST(data.inner AS struct<y: string>)")).isEqualTo(Row.of("9"));
            assertThat(eval("string(a)")).isEqualTo("7");
            assertThat(eval("int('42')")).isEqualTo(42);
        }
    }

    @Nested
    class Functions {
        @Test
        void strings() {
            assertThat(eval("upper(s)")).isEqualTo("HELLO");
            assertThat(eval("LOWER('ÀB')")).isEqualTo("àb");
            assertThat(eval("length(s)")).isEqualTo(5);
            assertThat(type("length(s)")).isEqualTo(DataType.intType());
            assertThat(eval("length('\uD83D\uDE00x')")).isEqualTo(2);
            assertThat(eval("char_length(n)")).isNull();
            assertThat(eval("concat(s, '-', a)")).isEqualTo("hello-7");
            assertThat(eval("concat(s, n)")).isNull();
            assertThat(eval("s || '!'")).isEqualTo("hello!");
            assertThat(eval("concat_ws('/', s, n, 'x')")).isEqualTo("hello/x");
            assertThat(eval("trim('  a b  ')")).isEqualTo("a b");
            assertThat(eval("ltrim('  a ')")).isEqualTo("a ");
            assertThat(eval("rtrim('  a ')")).isEqualTo("  a");
            assertThat(eval("trim('\ta ')")).isEqualTo("\ta");
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "substring('Spark SQL', 5)|k SQL", "substring('Spark SQL', -3)|SQL", "substring('Spark SQL', 5, 1)|k",
                "substr('Spark SQL', 0, 2)|Sp", "substr('Spark SQL', 1, 2)|Sp", "substring('Spark', 10)|",
                "substring('Spark', -10, 3)|", "substring('Spark', 2, -1)|", "substring('Spark', -10, 8)|Spa",
                "substring('a\uD83D\uDE00b', 2, 1)|\uD83D\uDE00"})
        void substringIsOneBasedAsSpark(String sql, String expected) {
            assertThat(eval(sql)).as(sql).isEqualTo(expected == null ? "" : expected);
        }

        @Test
        void coalesceAndFriends() {
            assertThat(eval("coalesce(n, a)")).isEqualTo(7);
            assertThat(eval("coalesce(n, NULL)")).isNull();
            assertThat(eval("coalesce(n, b)")).isEqualTo(100L);
            assertThat(type("coalesce(n, b)")).isEqualTo(DataType.longType());
            assertThat(eval("ifnull(n, 3)")).isEqualTo(3);
            assertThat(eval("nvl(s, 'x')")).isEqualTo("hello");
            assertThat(eval("nullif(a, 7)")).isNull();
            assertThat(eval("nullif(a, 8)")).isEqualTo(7);
            assertThat(eval("if(a > 5, 'big', 'small')")).isEqualTo("big");
        }

        @Test
        void numbers() {
            assertThat(eval("abs(-a)")).isEqualTo(7);
            assertThat(eval("abs(-2.5D)")).isEqualTo(2.5);
            assertThat(eval("abs(-1.50)")).isEqualTo(new BigDecimal("1.50"));
            assertThat(eval("round(2.5D)")).isEqualTo(3.0);
            assertThat(eval("round(-2.5D)")).isEqualTo(-3.0);
            assertThat(eval("round(1.2345D, 2)")).isEqualTo(1.23);
            assertThat(eval("round(m, 1)")).isEqualTo(new BigDecimal("12.5"));
            assertThat(type("round(m, 1)")).hasToString("decimal(10,1)");
            assertThat(eval("round(m)")).isEqualTo(new BigDecimal("13"));
            assertThat(type("round(m)")).hasToString("decimal(9,0)");
            assertThat(eval("round(1234, -2)")).isEqualTo(1200);
            assertThat(eval("round(1250.5, -2)")).isEqualTo(new BigDecimal("1300"));
        }

        @Test
        void datesAndTimes() {
            assertThat(eval("to_timestamp('2026-10-02 10:15:30')")).isEqualTo(Instant.parse("2026-10-02T10:15:30Z"));
            assertThat(eval("to_timestamp('2026-10-02T10:15:30Z')")).isEqualTo(Instant.parse("2026-10-02T10:15:30Z"));
            assertThat(eval("to_timestamp('bad')")).isNull();
            assertThat(eval("to_timestamp('02/10/2026 10:15', 'dd/MM/yyyy HH:mm')"))
                    .isEqualTo(Instant.parse("2026-10-02T10:15:00Z"));
            assertThat(eval("to_timestamp('2026-10-02', 'yyyy-MM-dd')")).isEqualTo(Instant.parse("2026-10-02T00:00:00Z"));
            assertThat(eval("to_timestamp('2026-10-02 10:15:30.123+0200', 'yyyy-MM-dd HH:mm:ss.SSSZ')"))
                    .isEqualTo(Instant.parse("2026-10-02T08:15:30.123Z"));
            assertThat(eval("to_timestamp('02/10/2026', 'yyyy-MM-dd')")).isNull();
            assertThat(eval("to_date('02.10.2026', 'dd.MM.yyyy')")).isEqualTo(LocalDate.of(2026, 10, 2));
            assertThat(eval("to_date(ts)")).isEqualTo(LocalDate.of(2026, 10, 2));
            assertThat(eval("current_timestamp()")).isEqualTo(Instant.ofEpochMilli(CLOCK.millis()));
            assertThat(eval("current_timestamp")).isEqualTo(Instant.ofEpochMilli(CLOCK.millis()));
            assertThat(eval("now()")).isEqualTo(Instant.ofEpochMilli(CLOCK.millis()));
            assertThat(eval("current_date()")).isEqualTo(LocalDate.of(2026, 10, 2));
        }

        @Test
        void functionNamesAreCaseInsensitive() {
            assertThat(eval("UPPER(s)")).isEqualTo("HELLO");
            assertThat(eval("Coalesce(n, 1)")).isEqualTo(1);
        }
    }

    @Nested
    class Columns {
        @Test
        void nestedFieldsArraysAndMaps() {
            assertThat(eval("data.seq")).isEqualTo(1L);
            assertThat(eval("data.inner.x")).isEqualTo(9);
            assertThat(eval("DATA.Account")).isEqualTo("acc-1");
            assertThat(eval("`data`.`seq`")).isEqualTo(1L);
            assertThat(eval("arr[1]")).isEqualTo(20);
            assertThat(eval("arr[5]")).isNull();
            assertThat(eval("kv['k']")).isEqualTo(5);
            assertThat(eval("kv.k")).isEqualTo(5);
            assertThat(eval("kv['nope']")).isNull();
            assertThat(eval("`Mixed Case`")).isEqualTo("mc");
        }

        @Test
        void namesFollowSpark() {
            assertThat(name("a")).isEqualTo("a");
            assertThat(name("A")).isEqualTo("a");
            assertThat(name("data.seq")).isEqualTo("seq");
            assertThat(name("a + 1")).isEqualTo("(a + 1)");
            assertThat(name("a * 2 + b")).isEqualTo("((a * 2) + b)");
            assertThat(name("CAST(s AS INT)")).isEqualTo("s");
            assertThat(name("CAST(a + 1 AS STRING)")).isEqualTo("CAST((a + 1) AS STRING)");
            assertThat(name("upper(s)")).isEqualTo("upper(s)");
            assertThat(name("concat(s, '-')")).isEqualTo("concat(s, -)");
            assertThat(name("'abc'")).isEqualTo("abc");
            assertThat(name("1.50")).isEqualTo("1.50");
            assertThat(name("a > 1 AND NOT flag")).isEqualTo("((a > 1) AND (NOT flag))");
            assertThat(name("a != 1")).isEqualTo("(NOT (a = 1))");
            assertThat(name("n IS NULL")).isEqualTo("(n IS NULL)");
            assertThat(name("a IN (1, 2)")).isEqualTo("(a IN (1, 2))");
            assertThat(name("CASE WHEN a > 1 THEN 'x' END")).isEqualTo("CASE WHEN (a > 1) THEN x END");
            assertThat(name("a AS alias")).isEqualTo("alias");
            assertThat(name("a + 1 plus_one")).isEqualTo("plus_one");
            assertThat(name("a AS `odd name`")).isEqualTo("odd name");
            assertThat(name("from_json(s, 'x int')")).isEqualTo("from_json(s)");
            assertThat(name("current_timestamp()")).isEqualTo("current_timestamp()");
            assertThat(name("`Mixed Case` || 'x'")).isEqualTo("concat(`Mixed Case`, x)");
        }

        @Test
        void starsExpand() {
            Compiler.Projection all = compile("*");
            assertThat(all.schema()).isEqualTo(SCHEMA);
            assertThat(all.isIdentity()).isTrue();
            Compiler.Projection data = compile("data.*");
            assertThat(data.schema()).isEqualTo(StructType.fromDDL("seq bigint, account string, inner struct<x: int>"));
            assertThat(data.apply(ROW)).isEqualTo(Row.of(1L, "acc-1", Row.of(9)));
            assertThat(compile("data.inner.*").apply(ROW)).isEqualTo(Row.of(9));
        }

        @Test
        void projectedRowsCarryTheirSchema() {
            Row out = compile("a + 1 AS next").apply(ROW);
            assertThat(out.<Integer>getAs("next")).isEqualTo(8);
        }

        @Test
        void constantsAreFoldedOnce() {
            Compiler.Projection p = compile("CAST('2026-01-01' AS DATE)");
            assertThat(p.apply(ROW).get(0)).isEqualTo(LocalDate.of(2026, 1, 1));
        }
    }

    @Nested
    class Errors {
        @Test
        void syntaxErrorsNamePositionAndTokenWithACaret() {
            ParseException e = catchThrowableOfType(ParseException.class, () -> SqlParser.parseExpression("amount > "));
            assertThat(e.getMessage()).isEqualTo(
                    "Syntax error at position 9 (column 10): expected an expression but found end of input\n"
                            + "amount > \n"
                            + "         ^");
            assertThat(e.position()).isEqualTo(9);
            assertThat(parseError("a = = 1")).isEqualTo(
                    "Syntax error at position 4 (column 5): expected an expression but found '='\n"
                            + "a = = 1\n"
                            + "    ^");
            assertThat(parseError("(a + 1")).isEqualTo(
                    "Syntax error at position 6 (column 7): expected ')' to close the '(' at position 0 (column 1) "
                            + "but found end of input\n(a + 1\n      ^");
            assertThat(parseError("a > 1 b")).isEqualTo(
                    "Syntax error at position 6 (column 7): expected an operator or end of input but found 'b'\n"
                            + "a > 1 b\n      ^");
            assertThat(parseError("s = 'open")).isEqualTo(
                    "Syntax error at position 4 (column 5): unclosed string: a string that starts with ' must end "
                            + "with '\ns = 'open\n    ^");
            assertThat(parseError("CASE WHEN a THEN 1")).isEqualTo(
                    "Syntax error at position 18 (column 19): expected WHEN, ELSE or END but found end of input\n"
                            + "CASE WHEN a THEN 1\n                  ^");
            assertThat(parseError("CAST(a AS strng)")).isEqualTo(
                    "Syntax error at position 10 (column 11): invalid type in CAST: Unknown data type 'strng'; "
                            + "known types: boolean, tinyint (byte), smallint (short), int (integer), bigint (long), "
                            + "float (real), double, decimal(p,s) (dec, numeric), string, varchar(n), char(n), binary, "
                            + "date, timestamp (timestamp_ltz), array<T>, map<K,V>, struct<name: T, ...>\n"
                            + "CAST(a AS strng)\n          ^");
            assertThat(parseError("a >\n  AND b")).isEqualTo(
                    "Syntax error at position 6 (line 2, column 3): expected an expression but found 'AND'\n"
                            + "  AND b\n  ^");
        }

        @Test
        void namedExpressionErrors() {
            ParseException e = catchThrowableOfType(ParseException.class,
                    () -> SqlParser.parseNamedExpression("a AS b c"));
            assertThat(e.getMessage()).isEqualTo(
                    "Syntax error at position 7 (column 8): expected end of input but found 'c'\na AS b c\n       ^");
        }

        @Test
        void unknownColumnsListTheAvailableOnes() {
            StructType schema = StructType.fromDDL("seq bigint, account string, amount bigint");
            AnalysisException e = catchThrowableOfType(AnalysisException.class, () -> Compiler.condition(schema,
                    SqlParser.parseExpression("amout > 100"), CLOCK, ZoneOffset.UTC));
            assertThat(e.getMessage()).isEqualTo("A column or function parameter with name `amout` cannot be "
                    + "resolved. Did you mean one of the following? [`amount`, `account`, `seq`].\n"
                    + "amout > 100\n^");
            assertThat(e.position()).isEqualTo(0);
            assertThat(error("data.nope")).isEqualTo(
                    "No such struct field `nope` in `seq`, `account`, `inner`.\ndata.nope\n^");
            assertThat(error("s.x")).isEqualTo("Can't extract a value from \"s\". Need a complex type "
                    + "[STRUCT, ARRAY, MAP] but got \"STRING\".\ns.x\n^");
        }

        @Test
        void unknownFunctionsAndArity() {
            assertThat(error("1 + foo(a)")).isEqualTo("Cannot resolve function `foo`: Sluice has no function of "
                    + "that name. Known functions: " + String.join(", ", Analyzer.FUNCTIONS) + ".\n1 + foo(a)\n    ^");
            assertThat(error("lower(s, s)")).isEqualTo(
                    "The function `lower` requires 1 parameter but the actual number is 2.\nlower(s, s)\n^");
            assertThat(error("substring(s)")).isEqualTo(
                    "The function `substring` requires 2 to 3 parameters but the actual number is 1.\nsubstring(s)\n^");
        }

        @Test
        void typeErrorsNameTheOperatorAndTypes() {
            assertThat(error("'abc' AND 1")).isEqualTo("Cannot resolve \"(abc AND 1)\" due to data type mismatch: "
                    + "the AND operator needs BOOLEAN operands, but its left operand \"abc\" has the type \"STRING\" "
                    + "and its right operand \"1\" has the type \"INT\".\n'abc' AND 1\n^");
            assertThat(error("flag OR a")).isEqualTo("Cannot resolve \"(flag OR a)\" due to data type mismatch: "
                    + "the OR operator needs BOOLEAN operands, but its right operand \"a\" has the type \"INT\".\n"
                    + "flag OR a\n^");
            assertThat(error("day + 1")).isEqualTo("Cannot resolve \"(day + 1)\" due to data type mismatch: the + "
                    + "operator needs numeric operands, but its left operand \"day\" has the type \"DATE\".\n"
                    + "day + 1\n^");
            assertThat(error("day = 1")).isEqualTo("Cannot resolve \"(day = 1)\" due to data type mismatch: the left "
                    + "and right operands of the = operator have incompatible types (\"DATE\" and \"INT\").\n"
                    + "day = 1\n^");
            assertThat(error("lower(data)")).startsWith("Cannot resolve \"lower(data)\" due to data type mismatch: "
                    + "Parameter 1 requires the \"STRING\" type, however \"data\" has the type \"STRUCT<seq: BIGINT, ");
            assertThat(error("CAST(day AS INT) + CAST(a AS DATE)")).isEqualTo("Cannot resolve \"CAST(a AS DATE)\" "
                    + "due to data type mismatch: cannot cast \"INT\" to \"DATE\".\n"
                    + "CAST(day AS INT) + CAST(a AS DATE)\n                   ^");
            assertThat(error("NOT a")).isEqualTo("Cannot resolve \"(NOT a)\" due to data type mismatch: the NOT "
                    + "operator needs a BOOLEAN operand, but \"a\" has the type \"INT\".\nNOT a\n^");
        }

        @Test
        void filterMustBeBoolean() {
            AnalysisException e = catchThrowableOfType(AnalysisException.class, () -> Compiler.condition(SCHEMA,
                    SqlParser.parseExpression("b + 1"), CLOCK, ZoneOffset.UTC));
            assertThat(e.getMessage()).isEqualTo("Cannot resolve \"(b + 1)\" due to data type mismatch: Filter "
                    + "expression \"(b + 1)\" of type \"BIGINT\" is not a boolean.\nb + 1\n^");
        }

        @Test
        void starsOnlyAsWholeItems() {
            assertThat(error("nope.*")).isEqualTo("Cannot resolve `nope.*` given input columns: [`a`, `b`, `s`, "
                    + "`d`, `n`, `m`, `flag`, `ts`, `day`, `data`, `arr`, `kv`, `Mixed Case`].\nnope.*\n^");
            assertThat(error("s.*")).isEqualTo("Can only star expand struct data types. Attribute: `s` has the type "
                    + "\"STRING\".\ns.*\n^");
            assertThat(parseError("a + *")).isEqualTo("Syntax error at position 4 (column 5): invalid usage of '*': "
                    + "a star is allowed only as a whole select item, as in selectExpr(\"*\") or selectExpr(\"data.*\")"
                    + ", or as a whole function argument, as in struct(*) or to_json(struct(*))\na + *\n    ^");
        }

        @Test
        void fromJsonErrors() {
            assertThat(error("from_json(s, 'int')")).isEqualTo("Cannot resolve \"from_json(s)\" due to data type "
                    + "mismatch: Input schema \"INT\" must be a struct, an array or a map.\nfrom_json(s, 'int')\n^");
            assertThat(error("from_json(s, s)")).isEqualTo("The input schema \"s\" is not a valid schema string. The "
                    + "input expression must be string literal and not null.\nfrom_json(s, s)\n^");
            assertThat(error("from_json(s, 'a int', map('mode', 'DROPMALFORMED'))")).startsWith(
                    "from_json() doesn't support the DROPMALFORMED mode. Acceptable modes are PERMISSIVE and FAILFAST.");
            assertThat(error("from_json(s, 'a strng')")).startsWith("Cannot parse the schema of from_json: Unknown "
                    + "data type 'strng' at position 2 (column 3)");
            assertThat(error("to_json(a)")).isEqualTo("Cannot resolve \"to_json(a)\" due to data type mismatch: "
                    + "Parameter 1 requires the \"STRUCT\", \"ARRAY\" or \"MAP\" type, however \"a\" has the type "
                    + "\"INT\".\nto_json(a)\n^");
        }

        @Test
        void badLikePatternsAndDatetimePatterns() {
            assertThat(error("s LIKE 'a\\\\'")).isEqualTo("Cannot resolve \"s LIKE a\\\": the pattern 'a\\' is "
                    + "invalid: it may not end with the escape character\ns LIKE 'a\\\\'\n^");
            assertThat(error("to_timestamp(s, 'yyyy-MM-dd qqqqqq')")).startsWith(
                    "Cannot resolve \"to_timestamp(s, yyyy-MM-dd qqqqqq)\": the datetime pattern 'yyyy-MM-dd qqqqqq' "
                            + "is invalid: ");
        }

        private String parseError(String sql) {
            ParseException e = catchThrowableOfType(ParseException.class, () -> SqlParser.parseExpression(sql));
            assertThat(e).as("%s should not parse", sql).isNotNull();
            return e.getMessage();
        }
    }

    @Test
    void evaluatorsAreSharedSafelyAcrossThreads() throws Exception {
        Compiler.Projection p = compile("concat(upper(s), '-', CAST(a * 2 AS STRING))");
        Thread[] threads = new Thread[4];
        Object[] results = new Object[threads.length];
        for (int i = 0; i < threads.length; i++) {
            int k = i;
            threads[i] = new Thread(() -> {
                Object last = null;
                for (int j = 0; j < 10_000; j++) {
                    last = p.apply(ROW).get(0);
                }
                results[k] = last;
            }, "expr-test-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(Arrays.asList(results)).containsOnly("HELLO-14");
    }
}
