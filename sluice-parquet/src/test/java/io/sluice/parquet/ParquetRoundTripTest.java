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
}
