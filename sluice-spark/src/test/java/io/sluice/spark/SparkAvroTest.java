package io.sluice.spark;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sources.MemoryStream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
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

/**
 * Spark 4.2 (with spark-avro) as the judge of sluice-avro: Spark reads the avro sink's output folder (through its
 * {@code _spark_metadata} manifest) with exactly the rows and types Sluice wrote, and Sluice's file source reads
 * Avro that Spark wrote, for every type and codec. One SparkSession for the class.
 */
class SparkAvroTest {
    private static final String ALL_TYPES = "b boolean, y tinyint, s smallint, i int, l bigint, f float, "
            + "d double, d9 decimal(9,2), d18 decimal(18,3), d38 decimal(38,10), str string, bin binary, dt date, "
            + "ts timestamp, arr array<int>, m map<string,bigint>, st struct<x: int, y: string>, "
            + "nested array<struct<k: string, v: array<double>>>";
    /** Avro has no tinyint or smallint: Spark (and Sluice) read them back as int. */
    private static final String ALL_TYPES_READ = ALL_TYPES.replace("y tinyint, s smallint", "y int, s int");
    private static final Instant TS = Instant.parse("2026-10-02T01:02:03.456789Z");
    private static SparkSession spark;

    @TempDir
    Path dir;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();

    @BeforeAll
    static void startSpark() {
        spark = SharedSpark.session(Map.of());
    }


    @AfterEach
    void closeSluice() {
        sluice.close();
    }

    private static List<Row> rows(boolean asRead) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("a", 1L);
        m.put("b", null);
        return List.of(
                Row.of(true, asRead ? (Object) (-1) : (Object) (byte) -1, asRead ? (Object) 300 : (Object) (short) 300,
                        3, 4L << 40, 1.5f, 2.25, new BigDecimal("-1234567.89"),
                        new BigDecimal("123456789012345.678"),
                        new BigDecimal("-1234567890123456789012345678.0123456789"), "q\"uote\n\u00e9",
                        new byte[]{1, 2, 3}, LocalDate.of(1500, 3, 1), TS, Arrays.asList(1, null, 3), m,
                        Row.of(1, null), List.of(Row.of("k", Arrays.asList(0.5, null)), Row.of(null, List.of()))),
                Row.of(false, null, null, null, null, null, null, null, null, null, "", new byte[0],
                        LocalDate.of(1969, 12, 31), Instant.parse("1969-12-31T23:59:59.999999Z"), List.of(),
                        Map.of(), Row.of(null, null), null),
                Row.of(new Object[18]));
    }

    /** The same rows as Spark SQL literals. */
    private static final String SPARK_SELECT = "SELECT * FROM VALUES "
            + "(true, CAST(-1 AS TINYINT), CAST(300 AS SMALLINT), 3, 4L << 40, CAST(1.5 AS FLOAT), 2.25D, "
            + "CAST(-1234567.89 AS DECIMAL(9,2)), CAST(123456789012345.678 AS DECIMAL(18,3)), "
            + "CAST('-1234567890123456789012345678.0123456789' AS DECIMAL(38,10)), 'q\"uote\\n\u00e9', X'010203', "
            + "DATE'1500-03-01', TIMESTAMP'2026-10-02 01:02:03.456789', array(1, null, 3), map('a', 1L, 'b', "
            + "CAST(null AS BIGINT)), named_struct('x', 1, 'y', CAST(null AS STRING)), "
            + "array(named_struct('k', 'k', 'v', array(0.5D, null)), named_struct('k', CAST(null AS STRING), "
            + "'v', CAST(array() AS ARRAY<DOUBLE>)))), "
            + "(false, null, null, null, null, null, null, null, null, null, '', X'', DATE'1969-12-31', "
            + "TIMESTAMP'1969-12-31 23:59:59.999999', CAST(array() AS ARRAY<INT>), "
            + "CAST(map() AS MAP<STRING,BIGINT>), named_struct('x', CAST(null AS INT), 'y', CAST(null AS STRING)), "
            + "null), "
            + "(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, "
            + "null, null) "
            + "AS t(b, y, s, i, l, f, d, d9, d18, d38, str, bin, dt, ts, arr, m, st, nested)";

    @Test
    void sparkReadsTheAvroSinksOutputThroughTheManifest() throws Exception {
        for (String codec : List.of("snappy", "zstandard", "bzip2")) {
            MemoryStream input = MemoryStream.create(StructType.fromDDL(ALL_TYPES));
            Path out = dir.resolve("out-" + codec);
            try {
                StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                        .writeStream().format("avro").option("compression", codec)
                        .option("checkpointLocation", dir.resolve("chk-" + codec).toString())
                        .start(out.toString());
                input.addData(rows(false));
                q.processAllAvailable();
                // A file outside the manifest: Spark must not read it.
                Files.writeString(out.resolve("part-99999-stray.avro"), "not listed");
                q.stop();
                try (Stream<Path> s = Files.list(out)) { // Sluice names its files as Spark does (below)
                    assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-0000")))
                            .singleElement().asString().matches("part-00000-[0-9a-f-]{36}-c000\\." + codec + "\\.avro");
                }
            } finally {
                input.unregister();
            }
            var df = spark.read().format("avro").load(out.toString());
            assertThat(df.schema().toDDL()).as(codec)
                    .isEqualTo(org.apache.spark.sql.types.StructType.fromDDL(ALL_TYPES_READ).toDDL());
            assertThat(SparkRows.toSluice(df.collectAsList(), StructType.fromDDL(ALL_TYPES_READ))).as(codec)
                    .containsExactlyInAnyOrderElementsOf(rows(true));
        }
    }

    @Test
    void sluiceReadsWhatSparkWroteWithEveryCodec() throws Exception {
        for (String codec : List.of("snappy", "uncompressed", "deflate", "bzip2", "xz", "zstandard")) {
            Path out = dir.resolve("spark-" + codec);
            spark.sql(SPARK_SELECT).coalesce(1).write().format("avro").option("compression", codec)
                    .save(out.toString());
            try (Stream<Path> s = Files.list(out)) {
                assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")))
                        .singleElement().asString().matches("part-00000-[0-9a-f-]{36}-c000"
                                + (codec.equals("uncompressed") ? "" : "\\." + codec) + "\\.avro");
            }
            assertThat(sluice.read().format("avro").schema(ALL_TYPES_READ).load(out.toString()).collectAsList())
                    .as(codec).containsExactlyInAnyOrderElementsOf(rows(true));
            assertThat(sluice.read().format("avro").option("inferSchema", "true").load(out.toString())
                    .schema().simpleString()).as(codec)
                    .isEqualTo(StructType.fromDDL(ALL_TYPES_READ).simpleString()); // Spark's literals make some NOT NULL
        }
    }

    @Test
    void sparksTimestampNtzEnumsAndUnionsReadAsSparkMapsThem() throws Exception {
        Path out = dir.resolve("ntz");
        String schema = "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
                + "{\"name\":\"t\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}},"
                + "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}},"
                + "{\"name\":\"u\",\"type\":[\"int\",\"string\",\"null\"]}]}";
        spark.sql("SELECT TIMESTAMP_NTZ'2026-10-02 01:02:03.456789' AS t, 'B' AS e, "
                        + "named_struct('member0', CAST(null AS INT), 'member1', 'x') AS u").coalesce(1).write()
                .format("avro").option("avroSchema", schema).save(out.toString());
        assertThat(sluice.read().format("avro").option("inferSchema", "true").load(out.toString()).schema().toDDL())
                .isEqualTo("t TIMESTAMP NOT NULL, e STRING NOT NULL, u STRUCT<member0: INT, member1: STRING>");
        assertThat(sluice.read().format("avro").schema("t timestamp, e string, u struct<member0: int, member1: string>")
                .load(out.toString()).collectAsList()).containsExactly(Row.of(TS, "B", Row.of(null, "x")));
    }
}
