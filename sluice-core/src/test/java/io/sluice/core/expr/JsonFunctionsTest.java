package io.sluice.core.expr;

import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** from_json and to_json: Spark's JSON reading and writing rules. */
class JsonFunctionsTest {
    private static final StructType INPUT = StructType.fromDDL("js string");
    private static final String SCHEMA = "seq long, account string, amount long";

    private static Object eval(String sql, String json) {
        return Compiler.projection(INPUT, List.of(SqlParser.parseNamedExpression(sql)), SluiceClock.system(), java.time.ZoneOffset.UTC)
                .apply(Row.of(json)).get(0);
    }

    private static Object fromJson(String schema, String json) {
        return eval("from_json(js, '" + schema + "')", json);
    }

    @Test
    void readsAnObjectIntoAStructOfTheSchema() {
        Object r = fromJson(SCHEMA, "{\"seq\":1,\"account\":\"a\",\"amount\":150}");
        assertThat(r).isEqualTo(Row.of(1L, "a", 150L));
        assertThat(((Row) r).<Long>getAs("amount")).isEqualTo(150L);
        assertThat(fromJson(SCHEMA, "{\"amount\":5, \"extra\": [1, {\"x\": 2}], \"seq\": 2}"))
                .isEqualTo(Row.of(2L, null, 5L));
    }

    @Test
    void theResultTypeIsTheSchemaMadeNullable() {
        DataType t = Compiler.projection(INPUT, List.of(SqlParser.parseNamedExpression(
                "from_json(js, 'a int NOT NULL, b struct<c: string NOT NULL>')")), SluiceClock.system(), java.time.ZoneOffset.UTC)
                .schema().field(0).dataType();
        assertThat(t).isEqualTo(StructType.fromDDL("a int, b struct<c: string>"));
    }

    @Test
    void fieldNamesMatchExactly() {
        assertThat(fromJson(SCHEMA, "{\"Seq\":1,\"account\":\"a\"}")).isEqualTo(Row.of(null, "a", null));
    }

    @Test
    void nullAndBlankInputGiveNull() {
        assertThat(fromJson(SCHEMA, null)).isNull();
        assertThat(fromJson(SCHEMA, "")).isNull();
        assertThat(fromJson(SCHEMA, "   ")).isNull();
    }

    @Test
    void malformedInputGivesAStructOfNullsAsSparkPermissive() {
        assertThat(fromJson(SCHEMA, "{\"seq\":1,")).isEqualTo(Row.of(null, null, null));
        assertThat(fromJson(SCHEMA, "not json")).isEqualTo(Row.of(null, null, null));
        assertThat(fromJson(SCHEMA, "null")).isEqualTo(Row.of(null, null, null));
        assertThat(fromJson(SCHEMA, "42")).isEqualTo(Row.of(null, null, null));
        assertThat(fromJson(SCHEMA, "[{\"seq\":1}]")).isEqualTo(Row.of(null, null, null));
        assertThat(fromJson("array<int>", "{bad")).isNull();
    }

    @Test
    void aValueOfTheWrongTypeIsNullAndTheRestIsKept() {
        assertThat(fromJson(SCHEMA, "{\"seq\":\"x\",\"account\":\"a\",\"amount\":7}")).isEqualTo(Row.of(null, "a", 7L));
        assertThat(fromJson(SCHEMA, "{\"seq\":1.5,\"amount\":{\"x\":1}}")).isEqualTo(Row.of(null, null, null));
        assertThat(fromJson("a int", "{\"a\": 3000000000}")).isEqualTo(Row.of((Object) null));
        assertThat(fromJson("a long", "{\"a\": 99999999999999999999}")).isEqualTo(Row.of((Object) null));
        assertThat(fromJson("a boolean, b int", "{\"a\": \"true\", \"b\": 1}")).isEqualTo(Row.of(null, 1));
        assertThat(fromJson("a double", "{\"a\": \"\"}")).isEqualTo(Row.of((Object) null));
    }

    @Test
    void stringsTakeTheTextOfAnyValue() {
        // Spark 4.2's from_json re-serialises a number it reads as a string (12.50 is "12.5"); its JSON file source
        // keeps the text as written (ValueRulesDifferentialTest in sluice-spark checks both against Spark).
        assertThat(fromJson("a string, b string, c string, d string", "{\"a\": 12.50, \"b\": true, "
                + "\"c\": {\"x\": [1, 2]}, \"d\": null}")).isEqualTo(Row.of("12.5", "true", "{\"x\":[1,2]}", null));
    }

    @Test
    void numbersOfEveryWidth() {
        assertThat(fromJson("a tinyint, b smallint, c int, d float, e double", "{\"a\":1,\"b\":2,\"c\":3,\"d\":1.5,"
                + "\"e\":2}")).isEqualTo(Row.of((byte) 1, (short) 2, 3, 1.5f, 2.0));
        assertThat(fromJson("a double, b double, c double", "{\"a\":\"NaN\",\"b\":\"-Infinity\",\"c\":NaN}"))
                .isEqualTo(Row.of(Double.NaN, Double.NEGATIVE_INFINITY, Double.NaN));
        assertThat(fromJson("a decimal(5,2), b decimal(5,2), c decimal(3,2)", "{\"a\":1.005,\"b\":\"12.5\",\"c\":123}"))
                .isEqualTo(Row.of(new BigDecimal("1.01"), new BigDecimal("12.50"), null));
    }

    @Test
    void datesTimestampsAndBinary() {
        assertThat(fromJson("t timestamp, u timestamp, d date, b binary",
                "{\"t\":\"2026-10-02T10:15:30.123Z\",\"u\":1790936130,\"d\":\"2026-10-02\",\"b\":\"aGk=\"}"))
                .satisfies(r -> {
                    Row row = (Row) r;
                    assertThat(row.get(0)).isEqualTo(Instant.parse("2026-10-02T10:15:30.123Z"));
                    assertThat(row.get(1)).isEqualTo(Instant.parse("2026-10-02T10:15:30Z"));
                    assertThat(row.get(2)).isEqualTo(LocalDate.of(2026, 10, 2));
                    assertThat((byte[]) row.get(3)).containsExactly('h', 'i');
                });
        assertThat(fromJson("t timestamp", "{\"t\":\"yesterday\"}")).isEqualTo(Row.of((Object) null));
        assertThat(eval("from_json(js, 't timestamp', map('timestampFormat', 'dd/MM/yyyy HH:mm'))",
                "{\"t\":\"02/10/2026 10:15\"}")).isEqualTo(Row.of(Instant.parse("2026-10-02T10:15:00Z")));
    }

    @Test
    void nestedStructsArraysAndMaps() {
        assertThat(fromJson("o struct<x: int, y: array<string>>, m map<string, int>",
                "{\"o\":{\"x\":1,\"y\":[\"a\",null]},\"m\":{\"k\":1,\"l\":null}}"))
                .isEqualTo(Row.of(Row.of(1, Arrays.asList("a", null)), mapOf("k", 1, "l", null)));
        assertThat(fromJson("a array<int>, b int", "{\"a\":[1,\"x\",3],\"b\":2}")).isEqualTo(Row.of(null, 2));
        assertThat(fromJson("m map<string, int>, b int", "{\"m\":{\"k\":\"x\"},\"b\":2}")).isEqualTo(Row.of(null, 2));
        assertThat(fromJson("o struct<x: int, y: int>", "{\"o\":{\"x\":\"bad\",\"y\":2}}"))
                .isEqualTo(Row.of(Row.of(null, 2)));
    }

    @Test
    void arrayAndMapSchemas() {
        assertThat(fromJson("array<int>", "[1, 2, null]")).isEqualTo(Arrays.asList(1, 2, null));
        assertThat(fromJson("array<struct<i: int>>", "[{\"i\": 1}, {\"i\": 2}]")).isEqualTo(List.of(Row.of(1), Row.of(2)));
        assertThat(fromJson("array<struct<i: int>>", "{\"i\": 4}")).isEqualTo(List.of(Row.of(4)));
        assertThat(fromJson("map<string, bigint>", "{\"a\": 1, \"b\": 2}")).isEqualTo(mapOf("a", 1L, "b", 2L));
        assertThat(fromJson("map<string, bigint>", "[1]")).isNull();
    }

    @Test
    void sparkDefaultJsonOptions() {
        assertThat(fromJson("a int", "{'a': 1}")).isEqualTo(Row.of(1)); // single quotes allowed by default
        assertThat(fromJson("a int", "{a: 1}")).isEqualTo(Row.of((Object) null));
        assertThat(eval("from_json(js, 'a int', map('allowUnquotedFieldNames', 'true'))", "{a: 1}")).isEqualTo(Row.of(1));
        assertThat(fromJson("a int", "{/* c */ \"a\": 1}")).isEqualTo(Row.of((Object) null));
        assertThat(eval("from_json(js, 'a int', map('allowComments', 'true'))", "{/* c */ \"a\": 1}"))
                .isEqualTo(Row.of(1));
    }

    @Test
    void failFastModeFailsOnMalformedInput() {
        assertThatThrownBy(() -> eval("from_json(js, 'a int', map('mode', 'FAILFAST'))", "{\"a\": \"x\"}"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Malformed records are detected in record parsing. Parse Mode: FAILFAST. To process "
                        + "malformed records as null result, try setting the option 'mode' as 'PERMISSIVE'. "
                        + "Record: {\"a\": \"x\"}");
        assertThat(eval("from_json(js, 'a int', map('mode', 'failfast'))", "{\"a\": 1}")).isEqualTo(Row.of(1));
    }

    @Test
    void toJsonWritesSparksForm() {
        String sql = "to_json(from_json(js, 'seq long, account string, amount decimal(10,2), t timestamp, "
                + "d date, f double, tags array<string>, m map<string, int>, o struct<x: int>'))";
        assertThat(eval(sql, "{\"seq\":1,\"amount\":12.5,\"t\":\"2026-10-02T00:00:00Z\",\"d\":\"2026-10-02\","
                + "\"f\":\"NaN\",\"tags\":[\"a\",null],\"m\":{\"k\":null},\"o\":{\"x\":null}}"))
                .isEqualTo("{\"seq\":1,\"amount\":12.50,\"t\":\"2026-10-02T00:00:00.000Z\",\"d\":\"2026-10-02\","
                        + "\"f\":\"NaN\",\"tags\":[\"a\",null],\"m\":{\"k\":null},\"o\":{}}");
        assertThat(eval("to_json(from_json(js, 'a int, b string'), map('ignoreNullFields', 'false'))", "{\"a\":1}"))
                .isEqualTo("{\"a\":1,\"b\":null}");
        assertThat(eval("to_json(from_json(js, 't timestamp'), map('timestampFormat', 'yyyy/MM/dd HH:mm'))",
                "{\"t\":\"2026-10-02T10:15:00Z\"}")).isEqualTo("{\"t\":\"2026/10/02 10:15\"}");
        assertThat(eval("to_json(from_json(js, 'array<int>'))", "[1,2]")).isEqualTo("[1,2]");
        assertThat(eval("to_json(from_json(js, 'a int'))", null)).isNull();
        assertThat(eval("to_json(map('a', 1))", null)).isEqualTo("{\"a\":1}");
    }

    private static Map<String, Object> mapOf(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
