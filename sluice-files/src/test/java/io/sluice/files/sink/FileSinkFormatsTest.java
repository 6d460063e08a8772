package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.sink.Sink;
import io.sluice.api.types.StructType;
import io.sluice.core.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Exact bytes of JSON, CSV and text files, with default and non-default options. */
class FileSinkFormatsTest {
    private static final Instant TS = Instant.parse("2026-10-02T01:02:03.456789Z");
    private static final LocalDate DATE = LocalDate.of(2026, 10, 2);

    @TempDir
    Path out;
    private final ManualClock clock = new ManualClock(1_790_899_200_000L);

    private String write(String format, String ddl, List<Row> rows, String... options) throws Exception {
        Sink sink = SinkHarness.sink(format, SinkHarness.options(out, options), StructType.fromDDL(ddl), clock);
        SinkHarness.batch(sink, 0, List.of(rows));
        return SinkHarness.onlyFile(out);
    }

    // ---------------------------------------------------------------- JSON

    @Test
    void jsonWritesEveryTypeAsSparkDoes() throws Exception {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("a", 1L);
        m.put("b", null);
        String ddl = "b boolean, y tinyint, s smallint, i int, l bigint, f float, d double, dec decimal(10,2), "
                + "str string, bin binary, dt date, ts timestamp, arr array<int>, m map<string,bigint>, "
                + "st struct<x: int, y: string>";
        Row full = Row.of(true, (byte) 1, (short) 2, 3, 4L, 1.5f, 2.25, new BigDecimal("3.1"), "q\"uote\n\u00e9",
                new byte[]{1, 2, 3}, DATE, TS, Arrays.asList(1, null), m, Row.of(1, null));
        Row empty = Row.of(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(write("json", ddl, List.of(full, empty))).isEqualTo(
                "{\"b\":true,\"y\":1,\"s\":2,\"i\":3,\"l\":4,\"f\":1.5,\"d\":2.25,\"dec\":3.10,"
                        + "\"str\":\"q\\\"uote\\n\u00e9\",\"bin\":\"AQID\",\"dt\":\"2026-10-02\","
                        + "\"ts\":\"2026-10-02T01:02:03.456Z\",\"arr\":[1,null],\"m\":{\"a\":1,\"b\":null},"
                        + "\"st\":{\"x\":1}}\n"
                        + "{}\n");
    }

    @Test
    void jsonWritesNullFieldsWhenAskedAndSpecialNumbersAsStrings() throws Exception {
        assertThat(write("json", "a int, f double, st struct<x: int>",
                List.of(Row.of(null, Double.NaN, Row.of((Object) null)), Row.of(1, Double.NEGATIVE_INFINITY, null)),
                "ignoreNullFields", "false")).isEqualTo(
                "{\"a\":null,\"f\":\"NaN\",\"st\":{\"x\":null}}\n"
                        + "{\"a\":1,\"f\":\"-Infinity\",\"st\":null}\n");
    }

    @Test
    void jsonTimestampsFollowTheZoneAndPatterns() throws Exception {
        Instant before1970 = Instant.parse("1969-12-31T23:59:59.999Z");
        assertThat(write("json", "ts timestamp", List.of(Row.of(before1970), Row.of(Instant.EPOCH))))
                .isEqualTo("{\"ts\":\"1969-12-31T23:59:59.999Z\"}\n{\"ts\":\"1970-01-01T00:00:00.000Z\"}\n");
    }

    @Test
    void jsonTimeZoneOption() throws Exception {
        assertThat(write("json", "ts timestamp", List.of(Row.of(TS)), "timeZone", "+02:00"))
                .isEqualTo("{\"ts\":\"2026-10-02T03:02:03.456+02:00\"}\n");
    }

    @Test
    void jsonCustomPatternsAndLineSeparator() throws Exception {
        assertThat(write("json", "ts timestamp, d date", List.of(Row.of(TS, DATE), Row.of(TS, DATE)),
                "timestampFormat", "yyyy/MM/dd HH:mm", "dateFormat", "dd.MM.yyyy", "lineSep", "\r\n"))
                .isEqualTo("{\"ts\":\"2026/10/02 01:02\",\"d\":\"02.10.2026\"}\r\n"
                        + "{\"ts\":\"2026/10/02 01:02\",\"d\":\"02.10.2026\"}\r\n");
    }

    @Test
    void gzipCompressionAddsTheExtensionAndCompresses() throws Exception {
        Sink sink = SinkHarness.sink("json", SinkHarness.options(out, "compression", "gzip"),
                StructType.fromDDL("v long"), clock);
        SinkHarness.batch(sink, 0, List.of(List.of(Row.of(1L), Row.of(2L))));
        List<String> files = SinkHarness.visibleFiles(out);
        assertThat(files).singleElement().asString().endsWith("-c000.json.gz");
        Path f = out.resolve(files.get(0));
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
            in.transferTo(plain);
        }
        assertThat(plain.toString(StandardCharsets.UTF_8)).isEqualTo("{\"v\":1}\n{\"v\":2}\n");
        assertThat(FileSinkManifest.allFiles(out).get(0).size()).isEqualTo(Files.size(f));
    }

    // ---------------------------------------------------------------- CSV

    @Test
    void csvQuotesAndEscapesAsSparkDoes() throws Exception {
        String ddl = "a string, b int";
        List<Row> rows = List.of(
                Row.of("plain", 1),
                Row.of("a,b", 2),
                Row.of("say \"hi\"", 3),
                Row.of("back\\slash", 4),
                Row.of("  padded  ", 5),
                Row.of("", 6),
                Row.of(null, null),
                Row.of("line\nbreak", 7),
                Row.of("\"already quoted\"", 8),
                Row.of("back\\\"q", 9),
                Row.of("\"starts", 10));
        assertThat(write("csv", ddl, rows)).isEqualTo(
                "plain,1\n"
                        + "\"a,b\",2\n"
                        + "\"say \\\"hi\\\"\",3\n"
                        + "back\\slash,4\n"
                        + "padded,5\n"
                        + "\"\",6\n"
                        + ",\n"
                        + "\"line\nbreak\",7\n"
                        + "\"already quoted\",8\n"
                        + "\"back\\\\\\\"q\",9\n"
                        + "\"\\\"starts\",10\n");
    }

    @Test
    void csvWritesTypesWithTheDefaultPatterns() throws Exception {
        assertThat(write("csv", "ts timestamp, d date, dec decimal(5,3), f float, x double, b boolean, bin binary",
                List.of(Row.of(TS, DATE, new BigDecimal("1.5"), 0.5f, 1.0E10, false, new byte[]{1, 2, 3}))))
                .isEqualTo("2026-10-02T01:02:03.456Z,2026-10-02,1.500,0.5,1.0E10,false,AQID\n");
    }

    @Test
    void csvOptions() throws Exception {
        List<Row> rows = List.of(Row.of("x;y", null, TS), Row.of("", 2, null), Row.of(" it's ", 3, TS));
        String ddl = "a string, b int, c timestamp";
        assertThat(write("csv", ddl, rows, "header", "true", "sep", ";", "quote", "'", "escape", "'",
                "nullValue", "NULL", "emptyValue", "EMPTY", "timestampFormat", "yyyy-MM-dd HH:mm:ss",
                "ignoreLeadingWhiteSpace", "false")).isEqualTo(
                "a;b;c\n"
                        + "'x;y';NULL;2026-10-02 01:02:03\n"
                        + "EMPTY;2;NULL\n"
                        + "' it''s';3;2026-10-02 01:02:03\n");
    }

    @Test
    void csvQuoteAllAndTabSeparator() throws Exception {
        assertThat(write("csv", "a string, b int", List.of(Row.of("x", 1), Row.of(null, null)),
                "quoteAll", "true", "sep", "\\t")).isEqualTo("\"x\"\t\"1\"\n\"\"\t\"\"\n");
    }

    @Test
    void csvWithoutQuoteEscapingLeavesQuotesAlone() throws Exception {
        assertThat(write("csv", "a string", List.of(Row.of("say \"hi\""), Row.of("a,\"b\"")),
                "escapeQuotes", "false")).isEqualTo("say \"hi\"\n\"a,\\\"b\\\"\"\n");
    }

    // ---------------------------------------------------------------- text

    @Test
    void textWritesTheValueOfEachRow() throws Exception {
        assertThat(write("text", "value string", List.of(Row.of("a"), Row.of((Object) null), Row.of("b \u00e9"))))
                .isEqualTo("a\n\nb \u00e9\n");
        assertThat(SinkHarness.visibleFiles(out).get(0)).endsWith("-c000.txt");
    }

    @Test
    void textWithPartitionColumnsAndLineSep() throws Exception {
        write("text", "line string, day date", List.of(Row.of("x", DATE), Row.of("y", DATE)),
                "partitionBy", "day", "lineSep", "|");
        List<String> files = SinkHarness.visibleFiles(out);
        assertThat(files).singleElement().asString().startsWith("day=2026-10-02/part-00000-");
        assertThat(SinkHarness.read(out.resolve(files.get(0)))).isEqualTo("x|y|");
    }

    // ---------------------------------------------------------------- partition folders

    @Test
    void partitionValuesAreEscapedAndNullsGoToTheDefaultPartition() throws Exception {
        Sink sink = SinkHarness.sink("json", SinkHarness.options(out, "partitionBy", "ts,k"),
                StructType.fromDDL("v int, ts timestamp, k string"), clock);
        SinkHarness.batch(sink, 0, List.of(List.of(
                Row.of(1, Instant.parse("2026-10-02T00:00:00Z"), "a=b"),
                Row.of(2, Instant.parse("2026-10-02T00:00:00.5Z"), ""),
                Row.of(3, null, "100%"),
                Row.of(4, Instant.parse("2026-10-02T00:00:00Z"), "a=b")),
                List.of(Row.of(5, Instant.parse("2026-10-02T00:00:00Z"), "a=b"))));
        assertThat(SinkHarness.visibleFiles(out)).extracting(f -> f.replaceAll("part-(\\d+)-.*", "part-$1"))
                .containsExactlyInAnyOrder(
                        "ts=2026-10-02 00%3A00%3A00/k=a%3Db/part-00000",
                        "ts=2026-10-02 00%3A00%3A00/k=a%3Db/part-00001",
                        "ts=2026-10-02 00%3A00%3A00.5/k=__HIVE_DEFAULT_PARTITION__/part-00000",
                        "ts=__HIVE_DEFAULT_PARTITION__/k=100%25/part-00000");
        Path dir = out.resolve("ts=2026-10-02 00%3A00%3A00/k=a%3Db");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> {
                try {
                    return Files.readString(p);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList()).containsExactlyInAnyOrder("{\"v\":1}\n{\"v\":4}\n", "{\"v\":5}\n");
        }
        assertThat(FileSinkManifest.allFiles(out)).extracting(SinkFileStatus::path)
                .anyMatch(p -> p.contains("/ts=2026-10-02%2000%253A00%253A00/k=a%253Db/part-00000-"));
        assertThat(SinkHarness.manifestFiles(out)).containsExactlyInAnyOrderElementsOf(SinkHarness.visibleFiles(out));
    }

    @Test
    void manyPartitionValuesInOnePartitionRollOverToNewFiles() throws Exception {
        Sink sink = SinkHarness.sink("json", SinkHarness.options(out, "partitionBy", "k"),
                StructType.fromDDL("v int, k int"), clock);
        List<Row> rows = new java.util.ArrayList<>();
        int keys = FileSink.MAX_OPEN_FILES + 6;
        for (int round = 0; round < 2; round++) {
            for (int k = 0; k < keys; k++) {
                rows.add(Row.of(round, k));
            }
        }
        SinkHarness.batch(sink, 0, List.of(rows));
        List<String> files = SinkHarness.visibleFiles(out);
        // Cycling through more keys than files kept open, each key's file is finished before its second row.
        assertThat(files).hasSize(2 * keys);
        assertThat(SinkHarness.manifestFiles(out)).containsExactlyInAnyOrderElementsOf(files);
    }
}
