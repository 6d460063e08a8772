package io.sluice.values;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** JSON to rows ({@link JsonToRow}) and back ({@link RowToJson}). */
class JsonRowsTest {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final JsonToRow.Settings SETTINGS = new JsonToRow.Settings(FACTORY, true, java.util.Locale.US,
            DateTimeReader.of(Options.empty(), ZoneOffset.UTC, true));

    private static Object read(String ddl, String json, boolean exactText) throws IOException {
        StructType t = StructType.fromDDL(ddl);
        JsonToRow.Ctx ctx = new JsonToRow.Ctx(SETTINGS);
        char[] chars = json.toCharArray();
        try (JsonParser p = FACTORY.createParser(chars, 0, chars.length)) {
            if (exactText) {
                ctx.source(chars, 0);
            }
            p.nextToken();
            return JsonToRow.forType(t).read(p, ctx);
        }
    }

    @Test
    void everyTypeBySparksRules() throws IOException {
        Object r = read("b boolean, i int, l bigint, d double, dec decimal(5,2), s string, ts timestamp, dt date, "
                + "a array<int>, m map<string,int>", "{\"b\":true,\"i\":1,\"l\":2,\"d\":\"NaN\",\"dec\":1.005,"
                + "\"s\":\"x\",\"ts\":1577880000,\"dt\":\"2020-01-01\",\"a\":[1,null],\"m\":{\"k\":3}}", true);
        assertThat(r).isEqualTo(Row.of(true, 1, 2L, Double.NaN, new BigDecimal("1.01"), "x",
                Instant.parse("2020-01-01T12:00:00Z"), LocalDate.of(2020, 1, 1), Arrays.asList(1, null), Map.of("k", 3)));
    }

    @Test
    void aBadFieldIsNullAndTheRestKeptAsAPartialRow() {
        assertThatThrownBy(() -> read("i int, s string", "{\"i\":\"one\",\"s\":\"kept\"}", true))
                .isInstanceOfSatisfying(PartialValueException.class, e -> {
                    assertThat(e.partial).isEqualTo(Row.of(null, "kept"));
                    assertThat(e.reason).isInstanceOf(ValueParseException.class).hasMessage("Cannot parse the field "
                            + "name 'i' and the value 'one' of the JSON token type VALUE_STRING to target Spark data "
                            + "type \"INT\".");
                });
    }

    @Test
    void stringsOfOtherTokensExactlyAsWrittenOnlyWithTheRecordsText() throws IOException {
        assertThat(read("s string", "{\"s\":12.50}", true)).isEqualTo(Row.of("12.50"));
        assertThat(read("s string", "{\"s\":12.50}", false)).isEqualTo(Row.of("12.5"));
    }

    private static String write(DataType type, Object v, boolean ignoreNulls) throws IOException {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            RowToJson.of(type, new DateTimeWriter(DateTimeWriter.DEFAULT_TIMESTAMP_FORMAT,
                    DateTimeWriter.DEFAULT_DATE_FORMAT, ZoneOffset.UTC), ignoreNulls).write(g, v, new char[64]);
        }
        return w.toString();
    }

    @Test
    void rowsToJsonAsSparksGenerator() throws IOException {
        StructType t = StructType.fromDDL("ts timestamp, d date, dec decimal(5,2), n string, a array<string>, "
                + "m map<timestamp,int>, f double");
        Row row = Row.of(Instant.parse("2020-01-01T12:00:00.123456Z"), LocalDate.of(-1, 1, 1), new BigDecimal("1.5"),
                null, Arrays.asList("x", null), Map.of(Instant.parse("1970-01-01T00:00:01Z"), 1), Double.NaN);
        assertThat(write(t, row, true)).isEqualTo("{\"ts\":\"2020-01-01T12:00:00.123Z\",\"d\":\"-0001-01-01\","
                + "\"dec\":1.50,\"a\":[\"x\",null],\"m\":{\"1000000\":1},\"f\":\"NaN\"}");
        assertThat(write(StructType.fromDDL("n string"), Row.of((Object) null), false)).isEqualTo("{\"n\":null}");
        assertThat(write(DataType.fromDDL("array<int>"), List.of(1, 2), true)).isEqualTo("[1,2]");
    }
}
