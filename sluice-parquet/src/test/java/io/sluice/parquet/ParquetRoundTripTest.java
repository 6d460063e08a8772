package io.sluice.parquet;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Parquet written by the file sink and read back by the file source, through the engine, for every type. */
class ParquetRoundTripTest {
    static final String ALL_TYPES = "b boolean, y tinyint, s smallint, i int, l bigint, f float, d double, "
            + "d9 decimal(9,2), d18 decimal(18,3), d38 decimal(38,10), str string, bin binary, dt date, "
            + "ts timestamp, arr array<int>, m map<string,bigint>, st struct<x: int, y: string>, "
            + "nested array<struct<k: string, v: array<double>>>";
    static final Instant TS = Instant.parse("2026-10-02T01:02:03.456789Z");

    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();

    @AfterEach
    void close() {
        sluice.close();
    }

    static List<Row> allTypesRows() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("a", 1L);
        m.put("b", null);
        Row full = Row.of(true, (byte) -1, (short) 300, 3, 4L << 40, 1.5f, 2.25, new BigDecimal("-1234567.89"),
                new BigDecimal("123456789012345.678"), new BigDecimal("-1234567890123456789012345678.0123456789"),
                "q\"uote\n\u00e9", new byte[]{1, 2, 3}, LocalDate.of(1500, 3, 1), TS, Arrays.asList(1, null, 3), m,
                Row.of(1, null), List.of(Row.of("k", Arrays.asList(0.5, null)), Row.of(null, List.of())));
        Row before1970 = Row.of(false, null, null, null, null, null, null, null, null, null, "", new byte[0],
                LocalDate.of(1969, 12, 31), Instant.parse("1969-12-31T23:59:59.999999Z"), List.of(), Map.of(),
                Row.of(null, null), null);
        Row empty = Row.of(new Object[18]);
        return List.of(full, before1970, empty);
    }

    /** Writes the rows through the Parquet sink (one batch), returns the output folder. */
    Path write(String ddl, List<Row> rows, String... options) throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL(ddl));
        Path base = Files.createTempDirectory(tmp, "q");
        Path out = base.resolve("out");
        try {
            var w = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("parquet").option("checkpointLocation", base.resolve("chk").toString());
            for (int i = 0; i < options.length; i += 2) {
                w = w.option(options[i], options[i + 1]);
            }
            StreamingQuery q = w.start(out.toString());
            input.addData(rows);
            q.processAllAvailable();
            q.stop();
        } finally {
            input.unregister();
        }
        return out;
    }

    List<Row> read(Path dir, String ddl) throws Exception {
        return sluice.read().format("parquet").schema(ddl).load(dir.toString()).collectAsList();
    }

    static List<String> dataFiles(Path out) throws Exception {
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(p -> p.getFileName().toString().startsWith("part-"))
                    .map(p -> out.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void everyTypeRoundTripsWithSparksDefaults() throws Exception {
        Path out = write(ALL_TYPES, allTypesRows());
        assertThat(dataFiles(out)).singleElement().asString()
                .matches("part-00000-[0-9a-f-]{36}-c000\\.snappy\\.parquet");
        assertThat(read(out, ALL_TYPES)).containsExactlyElementsOf(allTypesRows());
    }

    @Test
    void everyCodecAndTimestampTypeRoundTrips() throws Exception {
        for (String codec : List.of("none", "uncompressed", "gzip", "zstd", "lz4", "lz4_raw", "snappy")) {
            for (String ts : List.of("INT96", "TIMESTAMP_MICROS", "TIMESTAMP_MILLIS")) {
                Path out = write("i int, ts timestamp, s string", List.of(Row.of(1, TS, "x"), Row.of(2, null, null)),
                        "compression", codec, "spark.sql.parquet.outputTimestampType", ts);
                Instant expected = ts.equals("TIMESTAMP_MILLIS") ? Instant.parse("2026-10-02T01:02:03.456Z") : TS;
                assertThat(read(out, "i int, ts timestamp, s string")).as(codec + " " + ts)
                        .containsExactly(Row.of(1, expected, "x"), Row.of(2, null, null));
                String ext = switch (codec) {
                    case "none", "uncompressed" -> "";
                    case "gzip" -> ".gz";
                    case "lz4" -> ".lz4hadoop";
                    case "lz4_raw" -> ".lz4raw";
                    default -> "." + codec;
                };
                assertThat(dataFiles(out)).singleElement().asString().endsWith("-c000" + ext + ".parquet");
            }
        }
    }

    @Test
    void aBadCodecIsSparksCodecNotAvailable() {
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "compression", "brotli"))
                .hasMessageContaining("[CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION] The codec brotli is "
                        + "not available. Available codecs are none, uncompressed, snappy, gzip, lz4, lz4_raw, zstd.");
    }

    @Test
    void missingColumnsReadAsNullAndOnlyRequestedColumnsAreRead() throws Exception {
        Path out = write("a int, st struct<x: int, y: string>", List.of(Row.of(1, Row.of(2, "y"))));
        assertThat(read(out, "st struct<y: string, z: int>, gone string, A int"))
                .containsExactly(Row.of(Row.of("y", null), null, 1));
    }

    @Test
    void aTypeMismatchNamesTheFileAndColumnAsSpark() throws Exception {
        Path out = write("a bigint", List.of(Row.of(1L)));
        String file = out.resolve(dataFiles(out).get(0)).toUri().toString();
        assertThatThrownBy(() -> read(out, "a int")).hasStackTraceContaining("[FAILED_READ_FILE."
                + "PARQUET_COLUMN_DATA_TYPE_MISMATCH] Encountered error while reading file " + file + ". Data type "
                + "mismatches when reading Parquet column [a]. Expected Spark type int, actual Parquet type INT64.");
    }

    @Test
    void widerTypesReadAsSparkWidensThem() throws Exception {
        Path out = write("i int, f float, d decimal(5,2)", List.of(Row.of(7, 1.5f, new BigDecimal("1.25"))));
        assertThat(read(out, "i bigint, f double, d decimal(10,4)"))
                .containsExactly(Row.of(7L, 1.5, new BigDecimal("1.2500")));
    }

    @Test
    void aCorruptFooterIsSparksCannotReadFileFooterAndIgnoreCorruptFilesSkipsIt() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("in"));
        Path out = write("a int", List.of(Row.of(1)));
        Files.copy(out.resolve(dataFiles(out).get(0)), dir.resolve("good.parquet"));
        Files.writeString(dir.resolve("bad.parquet"), "not parquet at all");
        String bad = dir.resolve("bad.parquet").toUri().toString();
        assertThatThrownBy(() -> read(dir, "a int")).hasStackTraceContaining("[FAILED_READ_FILE."
                + "CANNOT_READ_FILE_FOOTER] Encountered error while reading file " + bad + ". Could not read footer.");
        assertThat(sluice.read().format("parquet").schema("a int").option("ignoreCorruptFiles", "true")
                .load(dir.toString()).collectAsList()).containsExactly(Row.of(1));
    }

    @Test
    void inferSchemaTakesTheFilesOwnSchema() throws Exception {
        Path out = write(ALL_TYPES, allTypesRows());
        assertThat(sluice.read().format("parquet").option("inferSchema", "true").load(out.toString()).schema())
                .isEqualTo(StructType.fromDDL(ALL_TYPES));
    }

    @Test
    void partitionByWritesFoldersAndTheSourceReadsThemBack() throws Exception {
        Path out = write("id bigint, day string", List.of(Row.of(1L, "d1"), Row.of(2L, "d2")), "partitionBy", "day");
        assertThat(dataFiles(out)).hasSize(2).allMatch(f -> f.matches("day=d[12]/part-00000-.*\\.snappy\\.parquet"));
        assertThat(read(out, "id bigint, day string")).containsExactlyInAnyOrder(Row.of(1L, "d1"), Row.of(2L, "d2"));
    }

    @Test
    void mergeSchemaUnitesTheFilesSchemasAsSpark() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("merge"));
        Path a = write("a bigint, st struct<x: int>", List.of(Row.of(1L, Row.of(1))));
        Path b = write("b string, st struct<y: string>, a bigint", List.of(Row.of("b", Row.of("y"), 2L)));
        Files.copy(a.resolve(dataFiles(a).get(0)), dir.resolve("1.parquet"));
        Files.copy(b.resolve(dataFiles(b).get(0)), dir.resolve("2.parquet"));
        Files.setLastModifiedTime(dir.resolve("1.parquet"), java.nio.file.attribute.FileTime.fromMillis(1000));
        Files.setLastModifiedTime(dir.resolve("2.parquet"), java.nio.file.attribute.FileTime.fromMillis(2000));
        var merged = sluice.read().format("parquet").option("inferSchema", "true").option("mergeSchema", "true")
                .load(dir.toString());
        assertThat(merged.schema()).isEqualTo(StructType.fromDDL("b string, st struct<y: string, x: int>, a bigint"));
        assertThat(merged.collectAsList()).containsExactlyInAnyOrder(Row.of(null, Row.of(null, 1), 1L),
                Row.of("b", Row.of("y", null), 2L));
        assertThat(sluice.read().format("parquet").option("inferSchema", "true").load(dir.toString()).schema())
                .isEqualTo(StructType.fromDDL("b string, st struct<y: string>, a bigint"));
        Path c = write("a string", List.of(Row.of("x")));
        Files.copy(c.resolve(dataFiles(c).get(0)), dir.resolve("3.parquet"));
        assertThatThrownBy(() -> sluice.read().format("parquet").option("inferSchema", "true")
                .option("mergeSchema", "true").load(dir.toString())).hasMessageContaining(
                "[CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE] Failed to merge incompatible data types \"STRING\" and "
                        + "\"BIGINT\". SQLSTATE: 42825");
    }

    @Test
    void badSinkOptionsFailAtStartWithTheOptionNamed() {
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "parquet.block.size", "0"))
                .hasMessageContaining("Invalid value '0' for option 'parquet.block.size': a positive size in bytes "
                        + "is accepted");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "parquet.page.size", "0"))
                .hasMessageContaining("Invalid value '0' for option 'parquet.page.size': a positive size in bytes "
                        + "is accepted");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "parquet.enable.dictionary", "x"))
                .hasMessageContaining("Invalid value 'x' for option 'parquet.enable.dictionary': true or false is "
                        + "accepted");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "spark.sql.parquet.outputTimestampType", "X"))
                .hasMessageContaining("Invalid value 'X' for option 'spark.sql.parquet.outputTimestampType': INT96, "
                        + "TIMESTAMP_MICROS or TIMESTAMP_MILLIS is accepted");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "parquet.memory.pool.ratio", "0"))
                .hasMessageContaining("Invalid value '0' for option 'parquet.memory.pool.ratio': a fraction of the "
                        + "heap above 0 and at most 1 is accepted");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "parquet.memory.min.chunk.size", "0"))
                .hasMessageContaining("Invalid value '0' for option 'parquet.memory.min.chunk.size': a positive size "
                        + "in bytes is accepted");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "parquet.compression", "lzo"))
                .hasMessageContaining("[CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION] The codec lzo is not "
                        + "available.");
    }

    @Test
    void smallRowGroupsAndPagesWithoutDictionaryReadBackInOrder() throws Exception {
        List<Row> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            rows.add(Row.of((long) i, "v" + (i % 7)));
        }
        Path out = write("id bigint, s string", rows, "parquet.block.size", "4096", "parquet.page.size", "512",
                "parquet.enable.dictionary", "false");
        assertThat(read(out, "id bigint, s string")).containsExactlyInAnyOrderElementsOf(rows);
    }

    /** Flat rows over several pages and row-builder blocks: nulls, non-ASCII strings, every word type. */
    static List<Row> flatRows() {
        return flatRows(Integer.MAX_VALUE);
    }

    /** The same with every value one of about {@code distinct} per column, so every chunk stays dictionary-encoded. */
    static List<Row> flatRows(int distinct) {
        List<Row> rows = new java.util.ArrayList<>();
        for (int n = 0; n < 3000; n++) {
            int i = n % distinct;
            boolean none = i % 11 == 0;
            rows.add(Row.of(none ? null : i % 3 == 0, none ? null : (byte) (i % 200 - 100), (short) (i * 7),
                    none ? null : i * 1_000_003, (long) i << 33, i % 5 == 0 ? null : i / 4f, i / 8.0,
                    new BigDecimal(i).movePointLeft(2), i % 13 == 0 ? null : (i % 4 == 0 ? "\u00e9t\u00e9 " + i
                    : "v" + (i % 50)), none ? null : "id-" + i, LocalDate.ofEpochDay(i - 1500),
                    none ? null : TS.plusSeconds(i * 3_600L).minusNanos(i * 1000L),
                    Instant.parse("1969-12-31T23:59:59.999999Z").plusSeconds(i % 7)));
        }
        return rows;
    }

    static final String FLAT = "b boolean, y tinyint, s smallint, i int, l bigint, f float, d double, "
            + "dec decimal(9,2), str string, id string, dt date, ts timestamp, ts2 timestamp";

    @Test
    void flatFilesReadBackExactlyWithAndWithoutDictionaryInEveryTimestampType() throws Exception {
        List<Row> rows = flatRows();
        for (String dictionary : List.of("true", "false")) {
            for (String ts : List.of("INT96", "TIMESTAMP_MICROS", "TIMESTAMP_MILLIS")) {
                Path out = write(FLAT, rows, "parquet.page.size", "2048", "parquet.enable.dictionary", dictionary,
                        "spark.sql.parquet.outputTimestampType", ts);
                List<Row> expected = ts.equals("TIMESTAMP_MILLIS") ? rows.stream().map(r -> {
                    Object[] v = r.toArray();
                    for (int c : new int[] {11, 12}) {
                        v[c] = v[c] == null ? null : Instant.ofEpochMilli(Math.floorDiv(
                                ((Instant) v[c]).getEpochSecond() * 1_000_000L + ((Instant) v[c]).getNano() / 1000,
                                1000L));
                    }
                    return Row.of(v);
                }).toList() : rows;
                assertThat(readByColumns(out)).isTrue();
                assertThat(read(out, FLAT)).as(dictionary + " " + ts).containsExactlyInAnyOrderElementsOf(expected);
                // A projection, another order, a column the files lack and a case-insensitive match.
                assertThat(read(out, "TS timestamp, gone int, str string")).as(dictionary + " " + ts)
                        .containsExactlyInAnyOrderElementsOf(expected.stream()
                                .map(r -> Row.of(r.get(11), null, r.get(8))).toList());
            }
        }
    }

    /** Whether every file of the folder is one {@link FlatColumns} reads (its encodings), else parquet-java's records. */
    static boolean readByColumns(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".parquet")).toList()) {
                try (var r = org.apache.parquet.hadoop.ParquetFileReader.open(new org.apache.parquet.io.LocalInputFile(f),
                        org.apache.parquet.SluiceReadOptions.of(ParquetCodecs.INSTANCE))) {
                    if (!FlatColumns.handles(r.getFooter())) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    @Test
    void flatFilesOfVersion2PagesReadBackExactly() throws Exception {
        // Version 2 pages: dictionary ids and RLE levels without a length, read by FlatColumns while every chunk
        // is dictionary-encoded; without a dictionary the writer uses DELTA encodings, read by parquet-java.
        List<Row> rows = flatRows(23);
        StructType schema = StructType.fromDDL(FLAT);
        int[] columns = java.util.stream.IntStream.range(0, schema.size()).toArray();
        for (String dictionary : List.of("true", "false")) {
            Path dir = Files.createTempDirectory(tmp, "v2");
            ParquetRowWriter writer = new ParquetRowWriter(schema, columns, ParquetSinkSettings.of(
                    io.sluice.api.Options.of(Map.of("parquet.page.size", "2048",
                            "parquet.enable.dictionary", dictionary))),
                    org.apache.parquet.column.ParquetProperties.WriterVersion.PARQUET_2_0);
            try (var out = Files.newOutputStream(dir.resolve("v2.parquet"))) {
                var enc = writer.open(out);
                for (Row r : rows) {
                    enc.write(r);
                }
                enc.finish();
            }
            assertThat(readByColumns(dir)).as(dictionary).isEqualTo(dictionary.equals("true"));
            assertThat(read(dir, FLAT)).as(dictionary).containsExactlyElementsOf(rows);
        }
    }
}
