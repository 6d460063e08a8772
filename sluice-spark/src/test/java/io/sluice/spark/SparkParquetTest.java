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
 * Spark 4.2 as the judge of sluice-parquet: Spark reads the Parquet sink's output folder (through its
 * {@code _spark_metadata} manifest) with exactly the rows and types Sluice wrote, and Sluice's file source reads
 * Parquet that Spark wrote, for every type (INT96 and INT64 timestamps, decimals of each physical kind, Spark's
 * legacy format's lists and decimals). One SparkSession for the class.
 */
class SparkParquetTest {
    private static final String ALL_TYPES = "b boolean, y tinyint, s smallint, i int, l bigint, f float, "
            + "d double, d9 decimal(9,2), d18 decimal(18,3), d38 decimal(38,10), str string, bin binary, dt date, "
            + "ts timestamp, arr array<int>, m map<string,bigint>, st struct<x: int, y: string>, "
            + "nested array<struct<k: string, v: array<double>>>";
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

    private static List<Row> rows() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("a", 1L);
        m.put("b", null);
        return List.of(
                Row.of(true, (byte) -1, (short) 300, 3, 4L << 40, 1.5f, 2.25, new BigDecimal("-1234567.89"),
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
    void sparkReadsTheParquetSinksOutputThroughTheManifest() throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL(ALL_TYPES));
        Path out = dir.resolve("out");
        try {
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("parquet").option("checkpointLocation", dir.resolve("chk").toString())
                    .start(out.toString());
            input.addData(rows());
            q.processAllAvailable();
            // A file outside the manifest: Spark must not read it.
            Files.writeString(out.resolve("part-99999-stray.snappy.parquet"), "not listed");
            q.stop();
        } finally {
            input.unregister();
        }
        var df = spark.read().parquet(out.toString());
        assertThat(df.schema().toDDL()).isEqualTo(org.apache.spark.sql.types.StructType.fromDDL(ALL_TYPES).toDDL());
        assertThat(SparkRows.toSluice(df.collectAsList(), StructType.fromDDL(ALL_TYPES)))
                .containsExactlyInAnyOrderElementsOf(rows());
    }

    @Test
    void sluiceReadsWhatSparkWroteInEveryTimestampTypeAndTheLegacyFormat() throws Exception {
        String[][] confs = {
                {"spark.sql.parquet.outputTimestampType", "INT96"},
                {"spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS"},
                {"spark.sql.parquet.writeLegacyFormat", "true"},
                {"spark.sql.parquet.compression.codec", "zstd"},
                {"spark.sql.parquet.compression.codec", "lz4"},
                {"spark.sql.parquet.compression.codec", "gzip"},
                {"spark.sql.parquet.compression.codec", "lz4_raw"},
        };
        for (String[] conf : confs) {
            Path out = dir.resolve(conf[0] + "-" + conf[1]);
            String old = spark.conf().get(conf[0]);
            spark.conf().set(conf[0], conf[1]);
            try {
                spark.sql(SPARK_SELECT).coalesce(1).write().parquet(out.toString());
            } finally {
                spark.conf().set(conf[0], old);
            }
            assertThat(sluice.read().format("parquet").schema(ALL_TYPES).load(out.toString()).collectAsList())
                    .as(conf[0] + "=" + conf[1]).containsExactlyInAnyOrderElementsOf(rows());
            assertThat(sluice.read().format("parquet").option("inferSchema", "true").load(out.toString())
                    .schema().simpleString()).as(conf[0] + "=" + conf[1])
                    .isEqualTo(StructType.fromDDL(ALL_TYPES).simpleString()); // Spark's literals make some NOT NULL
        }
    }

    @Test
    void sparksFileNamesAndFooterKeysMatchSluices() throws Exception {
        Path out = dir.resolve("spark");
        spark.sql("SELECT 1 AS i").coalesce(1).write().parquet(out.toString());
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")))
                    .singleElement().asString().matches("part-00000-[0-9a-f-]{36}-c000\\.snappy\\.parquet");
        }
    }

    @Test
    void sparksTimestampNtzReadsAsATimestampInUtcAndAMismatchIsSparksError() throws Exception {
        Path out = dir.resolve("ntz");
        spark.sql("SELECT TIMESTAMP_NTZ'2026-10-02 01:02:03.456789' AS t, 7L AS n").coalesce(1).write()
                .parquet(out.toString());
        assertThat(sluice.read().format("parquet").schema("t timestamp, n bigint, gone string").load(out.toString())
                .collectAsList()).containsExactly(Row.of(TS, 7L, null));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sluice.read().format("parquet").schema("n int")
                .load(out.toString()).collectAsList()).hasStackTraceContaining(
                "Data type mismatches when reading Parquet column [n]. Expected Spark type int, actual Parquet type "
                        + "INT64.");
    }

    @Test
    void aCorruptPageInTheMiddleIsSparksFailedReadFileAndIgnoreCorruptFilesKeepsTheRowsReadBeforeIt()
            throws Exception {
        Path out = dir.resolve("pages");
        spark.range(20_000).selectExpr("id * 7919 % 1000003 AS a").coalesce(1).write()
                .option("parquet.page.size", "8192").option("parquet.enable.dictionary", "false")
                .parquet(out.toString());
        Path file;
        try (Stream<Path> s = Files.list(out)) {
            file = s.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        // The middle data page's payload overwritten with 0xFF: the footer is intact.
        var chunk = org.apache.parquet.hadoop.ParquetFileReader.open(
                        org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(file.toUri()), new org.apache.hadoop.conf.Configuration()))
                .getFooter().getBlocks().get(0).getColumns().get(0);
        byte[] bytes = Files.readAllBytes(file);
        List<long[]> pages = new java.util.ArrayList<>(); // payload offset, size, rows before
        long pos = chunk.getStartingPos();
        long rows = 0;
        while (pos < chunk.getStartingPos() + chunk.getTotalSize()) {
            var in = new java.io.ByteArrayInputStream(bytes, (int) pos, bytes.length - (int) pos);
            int before = in.available();
            var h = org.apache.parquet.format.Util.readPageHeader(in);
            long payload = pos + (before - in.available());
            pages.add(new long[]{payload, h.getCompressed_page_size(), rows});
            rows += h.getData_page_header().getNum_values();
            pos = payload + h.getCompressed_page_size();
        }
        assertThat(pages).hasSizeGreaterThan(4);
        long[] bad = pages.get(pages.size() / 2);
        java.util.Arrays.fill(bytes, (int) bad[0], (int) (bad[0] + bad[1]), (byte) 0xFF);
        Files.write(file, bytes);

        Throwable sparkError = org.assertj.core.api.Assertions.catchThrowable(
                () -> spark.read().parquet(out.toString()).collectAsList());
        String uri = file.toUri().toString();
        assertThat(sparkError.getMessage()).startsWith("[FAILED_READ_FILE.NO_HINT] Encountered error while reading "
                + "file " + uri + ".  SQLSTATE: KD001");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sluice.read().format("parquet").schema("a bigint")
                        .load(out.toString()).collectAsList())
                .hasStackTraceContaining("[FAILED_READ_FILE.NO_HINT] Encountered error while reading file "
                        + file.toUri() + ".  SQLSTATE: KD001 (");
        // Under ignoreCorruptFiles both keep a prefix of the file's rows, read before the damaged page: Spark whole
        // batches of its vectorized reader (4096 rows), Sluice every row of the pages before it (a flat file is read
        // column by column, page by page).
        List<Long> sparkKept = spark.read().option("ignoreCorruptFiles", "true").parquet(out.toString())
                .collectAsList().stream().map(r -> r.getLong(0)).toList();
        List<Long> sluiceKept = sluice.read().format("parquet").schema("a bigint").option("ignoreCorruptFiles", "true")
                .load(out.toString()).collectAsList().stream().map(r -> (Long) r.get(0)).toList();
        List<Long> all = new java.util.ArrayList<>();
        for (long i = 0; i < 20_000; i++) {
            all.add(i * 7919 % 1_000_003);
        }
        assertThat(sluiceKept).isEqualTo(all.subList(0, (int) bad[2]));
        assertThat(sparkKept).isEqualTo(all.subList(0, sparkKept.size()));
        assertThat(sparkKept.size() % 4096).isZero();
        assertThat(sparkKept.size()).isLessThanOrEqualTo(sluiceKept.size());
    }
}
