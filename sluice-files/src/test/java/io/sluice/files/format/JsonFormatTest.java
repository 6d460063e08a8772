package io.sluice.files.format;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DeflaterOutputStream;

import static io.sluice.files.format.FormatFixture.gzip;
import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.read;
import static io.sluice.files.format.FormatFixture.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonFormatTest {
    @TempDir
    Path dir;

    private List<Row> json(String content, String ddl, String... options) throws IOException {
        return read("json", opts(options), ddl, write(dir, "in.json", content));
    }

    private static Instant ts(String iso) {
        return Instant.parse(iso);
    }

    @Test
    void linesMapFieldsByExactNameSkipExtraFieldsAndLeaveMissingOnesNull() throws IOException {
        assertThat(json("{\"b\": \"x\", \"a\": 1, \"extra\": [1, {\"z\": 2}]}\n{\"A\": 5, \"b\": null}\n{}\n",
                "a long, b string"))
                .containsExactly(Row.of(1L, "x"), Row.of(null, null), Row.of(null, null));
    }

    @Test
    void blankLinesAreSkippedAndEveryLineEndingSplitsRecords() throws IOException {
        assertThat(json("{\"a\":1}\r\n\r\n   \n{\"a\":2}\r{\"a\":3}\n\t\n{\"a\":4}", "a int"))
                .containsExactly(Row.of(1), Row.of(2), Row.of(3), Row.of(4));
    }

    @Test
    void onlyTheFirstValueOfALineIsRead() throws IOException {
        assertThat(json("{\"a\":1} {\"a\":2}\n{\"a\":3} trailing words\n", "a int"))
                .containsExactly(Row.of(1), Row.of(3));
    }

    @Test
    void nestedStructsArraysAndMaps() throws IOException {
        String ddl = "id bigint, s struct<x: int, y: array<string>>, m map<string, double>, "
                + "tags array<struct<k: string, v: array<int>>>";
        StructType inner = StructType.fromDDL("x int, y array<string>");
        StructType tag = StructType.fromDDL("k string, v array<int>");
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("p", 1.5);
        m.put("q", null);
        m.put("r", 2.0);
        List<Row> rows = json("{\"id\": 1, \"s\": {\"y\": [\"a\", null], \"x\": 7}, \"m\": {\"p\": 1.5, \"q\": null, \"r\": 2},"
                + " \"tags\": [{\"k\": \"t\", \"v\": [1, 2]}, {\"k\": \"u\"}, null]}\n"
                + "{\"id\": 2, \"s\": null, \"m\": {}, \"tags\": []}\n", ddl);
        assertThat(rows).containsExactly(
                Row.of(1L, Row.of(7, listOf("a", null)), m,
                        listOf(Row.of("t", List.of(1, 2)), Row.of("u", null), null)),
                Row.of(2L, null, Map.of(), List.of()));
        Row s = rows.get(0).getStruct(1);
        assertThat(s.schema()).isEqualTo(inner);
        assertThat(s.<Integer>getAs("x")).isEqualTo(7);
        assertThat(((Row) rows.get(0).getList(3).get(0)).schema()).isEqualTo(tag);
    }

    private static List<Object> listOf(Object... values) {
        return java.util.Arrays.asList(values);
    }

    @Test
    void numbersMustFitTheColumnType() throws IOException {
        String ddl = "b tinyint, s smallint, i int, l bigint, f float, d double, c decimal(5,2), _corrupt_record string";
        List<Row> rows = json("""
                {"b": 127, "s": -32768, "i": 2147483647, "l": 9223372036854775807, "f": 1.5, "d": 1e300, "c": 123.455}
                {"b": 128}
                {"b": 256}
                {"i": 2147483648}
                {"l": 1.0}
                {"d": 3, "f": 2}
                {"d": "NaN", "f": "-Infinity"}
                {"d": "1.5"}
                {"c": 1234.5}
                {"c": "1,234.5"}
                {"c": "12.345"}
                """, ddl);
        assertThat(rows).containsExactly(
                Row.of((byte) 127, (short) -32768, Integer.MAX_VALUE, Long.MAX_VALUE, 1.5f, 1e300, new BigDecimal("123.46"), null),
                // Jackson's getByteValue (which Spark uses) takes 128..255 as unsigned bytes
                Row.of((byte) -128, null, null, null, null, null, null, null),
                Row.of(null, null, null, null, null, null, null, "{\"b\": 256}"),
                Row.of(null, null, null, null, null, null, null, "{\"i\": 2147483648}"),
                Row.of(null, null, null, null, null, null, null, "{\"l\": 1.0}"),
                Row.of(null, null, null, null, 2.0f, 3.0, null, null),
                Row.of(null, null, null, null, Float.NEGATIVE_INFINITY, Double.NaN, null, null),
                Row.of(null, null, null, null, null, null, null, "{\"d\": \"1.5\"}"),
                Row.of(null, null, null, null, null, null, null, "{\"c\": 1234.5}"),
                Row.of(null, null, null, null, null, null, null, "{\"c\": \"1,234.5\"}"),
                Row.of(null, null, null, null, null, null, new BigDecimal("12.35"), null));
    }

    @Test
    void emptyStringsAreNullOnlyForStringColumnsAndMalformedForOthers() throws IOException {
        assertThat(json("{\"s\": \"\", \"i\": \"\"}\n", "s string, i int, _corrupt_record string"))
                .containsExactly(Row.of("", null, "{\"s\": \"\", \"i\": \"\"}"));
    }

    @Test
    void stringColumnsKeepNumbersObjectsAndArraysExactlyAsWritten() throws IOException {
        assertThat(json("{\"a\": 1.50 , \"b\": {\"x\": 1,  \"y\": [1, 2]}\t, \"c\": [true, null], \"d\": false, \"e\": -0}\n",
                "a string, b string, c string, d string, e string"))
                .containsExactly(Row.of("1.50", "{\"x\": 1,  \"y\": [1, 2]}", "[true, null]", "false", "-0"));
        assertThat(json("[\n  {\"a\": 1e3 },\n  {\"a\": {\"z\": \"\u00e9\"}}\n]", "a string", "multiLine", "true"))
                .containsExactly(Row.of("1e3"), Row.of("{\"z\": \"\u00e9\"}"));
    }

    @Test
    void timestampsInEachDefaultForm() throws IOException {
        String lines = """
                {"t": "2026-10-04T00:00:00.000Z"}
                {"t": "2026-10-04 00:00:00"}
                {"t": "2026-10-04T02:00:00+02:00"}
                {"t": "2026-10-04 01:30:00.5 -01:00"}
                {"t": "2026-10-04"}
                {"t": "2026-10-04T00:00:00.123456789Z"}
                {"t": "2026-10-04T12:00:00 Europe/Paris"}
                {"t": "2026-10-04T00:00:00GMT"}
                {"t": "  2026-10-4 1:2:3  "}
                {"t": 1790899200}
                {"t": "12:00:00"}
                {"t": "04/10/2026"}
                {"t": 1.5}
                """;
        List<Row> rows = json(lines, "t timestamp, _corrupt_record string", "timeZone", "UTC");
        assertThat(rows).extracting(r -> r.get(0)).containsExactly(
                ts("2026-10-04T00:00:00Z"), ts("2026-10-04T00:00:00Z"), ts("2026-10-04T00:00:00Z"),
                ts("2026-10-04T02:30:00.5Z"), ts("2026-10-04T00:00:00Z"), ts("2026-10-04T00:00:00.123456Z"),
                ts("2026-10-04T10:00:00Z"), ts("2026-10-04T00:00:00Z"), ts("2026-10-04T01:02:03Z"),
                ts("2026-10-02T00:00:00Z"), null, null, null);
        assertThat(rows).extracting(r -> r.get(1)).containsExactly(null, null, null, null, null, null, null, null,
                null, null, "{\"t\": \"12:00:00\"}", "{\"t\": \"04/10/2026\"}", "{\"t\": 1.5}");
    }

    @Test
    void aValueWithoutZoneIsInTheTimeZoneOption() throws IOException {
        assertThat(json("{\"t\": \"2026-10-04 00:00:00\"}\n{\"t\": \"2026-01-04 00:00:00\"}\n", "t timestamp",
                "timeZone", "America/New_York"))
                .containsExactly(Row.of(ts("2026-10-04T04:00:00Z")), Row.of(ts("2026-01-04T05:00:00Z")));
    }

    @Test
    void aTimestampFormatIsAppliedStrictlyWithoutFallback() throws IOException {
        assertThat(json("{\"t\": \"04/10/2026 13:05\"}\n{\"t\": \"2026-10-04T00:00:00Z\"}\n{\"t\": \"4/10/2026 13:05\"}\n",
                "t timestamp", "timestampFormat", "dd/MM/yyyy HH:mm", "timeZone", "UTC"))
                .containsExactly(Row.of(ts("2026-10-04T13:05:00Z")), Row.of((Object) null), Row.of((Object) null));
        assertThat(json("{\"t\": \"2026-10-04T00:00:00Z\"}\n", "t timestamp",
                "timestampFormat", "dd/MM/yyyy HH:mm", "enableDateTimeParsingFallback", "true", "timeZone", "UTC"))
                .containsExactly(Row.of(ts("2026-10-04T00:00:00Z")));
        assertThat(json("{\"t\": \"2026-10-04T00:00:00.1+0200\"}\n", "t timestamp",
                "timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "timeZone", "UTC"))
                .containsExactly(Row.of(ts("2026-10-03T22:00:00.1Z")));
    }

    @Test
    void datesByDefaultRulesFormatAndDayCount() throws IOException {
        assertThat(json("{\"d\": \"2026-10-04\"}\n{\"d\": \"2026-10-04T23:59:59Z\"}\n{\"d\": \"2026-1-4\"}\n"
                + "{\"d\": \"123\"}\n{\"d\": \"04.10.2026\"}\n", "d date"))
                .containsExactly(Row.of(LocalDate.of(2026, 10, 4)), Row.of(LocalDate.of(2026, 10, 4)),
                        Row.of(LocalDate.of(2026, 1, 4)), Row.of(LocalDate.ofEpochDay(123)), Row.of((Object) null));
        assertThat(json("{\"d\": \"04.10.2026\"}\n{\"d\": \"2026-10-04\"}\n", "d date", "dateFormat", "dd.MM.yyyy"))
                .containsExactly(Row.of(LocalDate.of(2026, 10, 4)), Row.of((Object) null));
    }

    @Test
    void booleanAndBinaryColumns() throws IOException {
        assertThat(json("{\"b\": true, \"x\": \"aGk=\"}\n{\"b\": \"true\"}\n", "b boolean, x binary, _corrupt_record string"))
                .containsExactly(Row.of(true, "hi".getBytes(StandardCharsets.US_ASCII), null),
                        Row.of(null, null, "{\"b\": \"true\"}"));
    }

    @Test
    void aTopLevelArrayGivesOneRowPerObject() throws IOException {
        assertThat(json("[{\"a\": 1}, {\"a\": 2}]\n[]\n[{\"a\": 3}, 5]\n[{\"a\": 4}, null]\n",
                "a int, _corrupt_record string"))
                .containsExactly(Row.of(1, null), Row.of(2, null),
                        Row.of(null, "[{\"a\": 3}, 5]"), Row.of(null, "[{\"a\": 4}, null]"));
    }

    @Test
    void permissiveKeepsTheFieldsThatCouldBeReadAndTheRawRecord() throws IOException {
        String ddl = "a int, s struct<x: int, y: array<string>>, m map<string, int>, l array<int>, b string, "
                + "_corrupt_record string";
        List<Row> rows = json("""
                {"a": "x", "s": {"x": "bad", "y": ["q"]}, "m": {"k": 1, "j": "no"}, "l": [1, "two", 3], "b": "kept"}
                {"a": 1, "s": 5, "b": "also kept"}
                {"a": 1, "b": "x"
                null
                42
                {"a": 1, "_corrupt_record": "from the data"}
                """, ddl);
        StructType s = StructType.fromDDL("x int, y array<string>");
        assertThat(rows).containsExactly(
                Row.of(null, Row.withSchema(s, null, List.of("q")), null, null, "kept",
                        "{\"a\": \"x\", \"s\": {\"x\": \"bad\", \"y\": [\"q\"]}, \"m\": {\"k\": 1, \"j\": \"no\"}, \"l\": [1, \"two\", 3], \"b\": \"kept\"}"),
                Row.of(1, null, null, null, "also kept", "{\"a\": 1, \"s\": 5, \"b\": \"also kept\"}"),
                Row.of(null, null, null, null, null, "{\"a\": 1, \"b\": \"x\""),
                Row.of(null, null, null, null, null, "null"),
                Row.of(null, null, null, null, null, "42"),
                Row.of(1, null, null, null, null, null));
    }

    @Test
    void withoutTheCorruptColumnPermissiveGivesThePartialRowOnly() throws IOException {
        assertThat(json("{\"a\": \"x\", \"b\": 2}\n{oops}\n", "a int, b int"))
                .containsExactly(Row.of(null, 2), Row.of(null, null));
    }

    @Test
    void theCorruptColumnNameIsAnOptionAndMatchedExactly() throws IOException {
        assertThat(json("{\"a\": \"x\"}\n", "a int, bad string, _corrupt_record string", "columnNameOfCorruptRecord", "bad"))
                .containsExactly(Row.of(null, "{\"a\": \"x\"}", null));
        assertThat(json("{\"a\": \"x\"}\n", "a int, _CORRUPT_RECORD string"))
                .containsExactly(Row.of(null, null));
    }

    @Test
    void dropMalformedSkipsBadRecords() throws IOException {
        assertThat(json("{\"a\": 1}\n{\"a\": \"x\"}\n{broken\n[{\"a\": 2}, {\"a\": \"y\"}]\n{\"a\": 3}\n",
                "a int, _corrupt_record string", "mode", "dropmalformed"))
                .containsExactly(Row.of(1, null), Row.of(3, null));
    }

    @Test
    void failFastNamesTheFileTheLineTheRecordAndTheReason() throws IOException {
        Path f = write(dir, "bad.json", "{\"a\": 1}\n\n{\"a\": \"x\"}\n");
        assertThatThrownBy(() -> read("json", opts("mode", "FAILFAST"), "a bigint", f))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessage("Malformed records are detected in record parsing: file " + f + ", line 3: {\"a\": \"x\"}\n"
                        + "Reason: Cannot parse the field name 'a' and the value 'x' of the JSON token type VALUE_STRING"
                        + " to target Spark data type \"BIGINT\".\n"
                        + "Parse Mode: FAILFAST. To process malformed records as null result, try setting the option "
                        + "'mode' as 'PERMISSIVE'.")
                .satisfies(e -> {
                    MalformedRecordException m = (MalformedRecordException) e;
                    assertThat(m.file()).isEqualTo(f);
                    assertThat(m.line()).isEqualTo(3);
                });
        Path g = write(dir, "syntax.json", "{\"a\": 1}\n{\"a\": }\n");
        assertThatThrownBy(() -> read("json", opts("mode", "failfast"), "a bigint", g))
                .hasMessageStartingWith("Malformed records are detected in record parsing: file " + g
                        + ", line 2: {\"a\": }\nReason: Unexpected character ('}' (code 125))")
                .hasCauseInstanceOf(com.fasterxml.jackson.core.JsonParseException.class);
    }

    @Test
    void failFastCutsAVeryLongRecord() throws IOException {
        String longValue = "x".repeat(2000);
        Path f = write(dir, "long.json", "{\"a\": \"" + longValue + "\"}\n");
        assertThatThrownBy(() -> read("json", opts("mode", "FAILFAST"), "a int", f))
                .hasMessageContaining(", line 1: {\"a\": \"" + "x".repeat(1000 - 7) + "...\nReason: ");
    }

    @Test
    void multiLineReadsOneValuePerFile() throws IOException {
        assertThat(json("{\n  \"a\": 1,\n  \"b\": [\"x\",\n \"y\"]\n}\n", "a int, b array<string>", "multiLine", "true"))
                .containsExactly(Row.of(1, List.of("x", "y")));
        assertThat(json("[\n {\"a\": 1},\n {\"a\": 2}\n]\n{\"a\": 3}", "a int", "multiLine", "true"))
                .containsExactly(Row.of(1), Row.of(2));
        assertThat(json("  \n", "a int", "multiLine", "true")).isEmpty();
    }

    @Test
    void aMalformedMultiLineFileIsOneBadRecordHoldingTheWholeFile() throws IOException {
        String content = "[\n {\"a\": 1},\n {\"a\": \"x\"}\n]\n";
        assertThat(json(content, "a int, _corrupt_record string", "multiLine", "true"))
                .containsExactly(Row.of(1, content), Row.of(null, content));
        String broken = "{\n \"a\": 1,\n \"a\" 2\n}";
        assertThat(json(broken, "a int, _corrupt_record string", "multiLine", "true"))
                .containsExactly(Row.of(null, broken));
        Path f = write(dir, "m.json", broken);
        assertThatThrownBy(() -> read("json", opts("multiLine", "true", "mode", "FAILFAST"), "a int", f))
                .hasMessageStartingWith("Malformed records are detected in record parsing: file " + f + ", line 3: ");
    }

    @Test
    void gzipAndDeflateFilesAreDecompressed() throws IOException {
        Path gz = gzip(dir, "a.json.gz", "{\"a\": 1}\n{\"a\": 2}\n");
        assertThat(read("json", opts(), "a int", gz)).containsExactly(Row.of(1), Row.of(2));
        Path deflate = dir.resolve("b.json.deflate");
        try (OutputStream out = new DeflaterOutputStream(Files.newOutputStream(deflate))) {
            out.write("{\"a\": 3}\n".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(read("json", opts(), "a int", deflate)).containsExactly(Row.of(3));
        Path empty = write(dir, "empty.json.gz", "");
        assertThat(read("json", opts(), "a int", empty)).isEmpty();
        Path gzMulti = gzip(dir, "m.json.gz", "[{\"a\": 4}]");
        assertThat(read("json", opts("multiLine", "true"), "a int", gzMulti)).containsExactly(Row.of(4));
    }

    @Test
    void otherCodecsAreRefusedClearly() throws IOException {
        Path bz = write(dir, "a.json.bz2", "BZh");
        assertThatThrownBy(() -> read("json", opts(), "a int", bz))
                .isInstanceOf(IOException.class)
                .hasMessage("Cannot read " + bz + ": it is compressed with bzip2 (.bz2), which is not supported; "
                        + "plain files, .gz and .deflate are read");
    }

    @Test
    void lineSepAndEncoding() throws IOException {
        assertThat(json("{\"a\": 1}|{\"a\": 2}\n|{\"a\": 3}|", "a int", "lineSep", "|"))
                .containsExactly(Row.of(1), Row.of(2), Row.of(3));
        Path utf16 = write(dir, "u.json", "{\"a\": \"é\"}\n{\"a\": \"ü\"}\n", StandardCharsets.UTF_16LE);
        assertThat(read("json", opts("encoding", "UTF-16LE", "lineSep", "\n"), "a string", utf16))
                .containsExactly(Row.of("é"), Row.of("ü"));
        Path multi16 = write(dir, "m16.json", "[{\"a\": \"€\"}]", StandardCharsets.UTF_16);
        assertThat(read("json", opts("multiLine", "true"), "a string", multi16)).containsExactly(Row.of("€"));
        Path bom = dir.resolve("bom.json");
        Files.write(bom, ("\uFEFF{\"a\": \"x\", \"b\": {\"c\": 1}}\n").getBytes(StandardCharsets.UTF_8));
        assertThat(read("json", opts(), "a string, b string", bom)).containsExactly(Row.of("x", "{\"c\": 1}"));
        assertThat(read("json", opts("multiLine", "true"), "a string, b string", bom)).containsExactly(Row.of("x", "{\"c\": 1}"));
    }

    @Test
    void jacksonFeatureOptions() throws IOException {
        assertThat(json("{'a': 'single'}\n", "a string")).containsExactly(Row.of("single"));
        assertThat(json("{'a': 'single'}\n", "a string, _corrupt_record string", "allowSingleQuotes", "false"))
                .containsExactly(Row.of(null, "{'a': 'single'}"));
        assertThat(json("{a: 1 /* c */}\n", "a int", "allowUnquotedFieldNames", "true", "allowComments", "true"))
                .containsExactly(Row.of(1));
        assertThat(json("{\"a\": 007}\n", "a int", "allowNumericLeadingZeros", "true")).containsExactly(Row.of(7));
        assertThat(json("{\"d\": NaN}\n", "d double, _corrupt_record string", "allowNonNumericNumbers", "false"))
                .containsExactly(Row.of(null, "{\"d\": NaN}"));
    }
}
