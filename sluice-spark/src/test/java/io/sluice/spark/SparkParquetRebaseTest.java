package io.sluice.spark;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spark 4.2 as the judge of sluice-parquet's calendar rebase ({@code datetimeRebaseMode}, {@code int96RebaseMode}):
 * files Spark writes in {@code LEGACY} mode (the hybrid Julian calendar, in the session's zone) and files of
 * another writer (no Spark version in the footer) read with each mode give the dates and timestamps Spark reads,
 * before 1582 and before 1900 included, and {@code EXCEPTION} fails with Spark's message. One SparkSession for the
 * class, in a zone whose offsets before 1900 are not whole hours.
 */
class SparkParquetRebaseTest {
    private static final String ZONE = "America/Los_Angeles";
    private static final String SCHEMA = "d date, ts timestamp";
    private static final String[] DATES = {"0001-01-01", "1000-03-01", "1200-01-01", "1582-10-04", "1582-10-15",
            "1700-03-01", "1899-12-31", "1970-01-01", "2026-10-02"};
    private static final String[] TIMES = {"0001-01-01 00:00:00", "1000-03-01 01:02:03.123456",
            "1582-10-04 23:59:59.999999", "1582-10-15 00:00:00", "1850-06-01 12:00:00", "1883-11-18 12:00:00",
            "1899-12-31 23:59:59.999999", "1900-01-01 00:00:00", "2026-10-02 01:02:03.456789"};
    private static SparkSession spark;

    @TempDir
    Path dir;
    private final Sluice sluice = Sluice.builder().parallelism(1)
            .config("spark.sql.session.timeZone", ZONE).build();

    @BeforeAll
    static void startSpark() {
        spark = SharedSpark.session(Map.of("spark.sql.session.timeZone", ZONE,
                "spark.sql.shuffle.partitions", "1"));
    }


    @AfterEach
    void closeSluice() {
        sluice.close();
    }

    private static String values() {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < DATES.length; i++) {
            rows.add("(DATE'" + DATES[i] + "', TIMESTAMP'" + TIMES[i] + "')");
        }
        return "SELECT * FROM VALUES " + String.join(", ", rows) + " AS t(d, ts)";
    }

    private List<Row> sparkRows(Path out, String... options) {
        var reader = spark.read();
        for (int i = 0; i < options.length; i += 2) {
            reader = reader.option(options[i], options[i + 1]);
        }
        List<Row> rows = new ArrayList<>();
        for (org.apache.spark.sql.Row r : reader.parquet(out.toString()).collectAsList()) {
            rows.add(Row.of(r.get(0), r.get(1)));
        }
        return rows;
    }

    private List<Row> sluiceRows(Path out, String... options) throws Exception {
        var reader = sluice.read().format("parquet").schema(SCHEMA);
        for (int i = 0; i < options.length; i += 2) {
            reader = reader.option(options[i], options[i + 1]);
        }
        return reader.load(out.toString()).collectAsList();
    }

    @Test
    void sparksLegacyFilesReadAsSparkReadsThemInEveryTimestampType() throws Exception {
        for (String type : new String[]{"INT96", "TIMESTAMP_MICROS", "TIMESTAMP_MILLIS"}) {
            Path out = dir.resolve(type);
            spark.conf().set("spark.sql.parquet.datetimeRebaseModeInWrite", "LEGACY");
            spark.conf().set("spark.sql.parquet.int96RebaseModeInWrite", "LEGACY");
            spark.conf().set("spark.sql.parquet.outputTimestampType", type);
            try {
                spark.sql(values()).coalesce(1).write().parquet(out.toString());
            } finally {
                spark.conf().unset("spark.sql.parquet.datetimeRebaseModeInWrite");
                spark.conf().unset("spark.sql.parquet.int96RebaseModeInWrite");
                spark.conf().unset("spark.sql.parquet.outputTimestampType");
            }
            List<Row> expected = sparkRows(out);
            assertThat(expected).as(type).hasSize(DATES.length);
            // The footer says LEGACY: the options do not change that, as in Spark.
            assertThat(sluiceRows(out)).as(type).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(sluiceRows(out, "datetimeRebaseMode", "EXCEPTION", "int96RebaseMode", "CORRECTED")).as(type)
                    .containsExactlyInAnyOrderElementsOf(expected);
            // The dates Spark 3.0+ reads from its own legacy file are the ones it was given.
            assertThat(expected).extracting(r -> r.get(0).toString()).as(type)
                    .containsExactlyInAnyOrder(DATES);
        }
    }

    /** A file with ancient dates and INT96 timestamps and no Spark version: the options decide. */
    private Path foreignFile() throws Exception {
        MessageType schema = MessageTypeParser.parseMessageType(
                "message m { optional int32 d (DATE); optional int96 ts; }");
        Path out = Files.createDirectories(dir.resolve("foreign"));
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        Configuration conf = new Configuration();
        org.apache.parquet.hadoop.example.GroupWriteSupport.setSchema(schema, conf);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
                new org.apache.hadoop.fs.Path(out.resolve("f.parquet").toUri())).withConf(conf).build()) {
            for (String t : new String[]{"1000-03-01T01:02:03.123456Z", "1850-06-01T12:00:00Z",
                    "2026-10-02T01:02:03.456789Z"}) {
                Instant i = Instant.parse(t);
                long micros = i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
                ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
                b.putLong(Math.floorMod(micros, 86_400_000_000L) * 1000)
                        .putInt((int) (Math.floorDiv(micros, 86_400_000_000L) + 2_440_588));
                w.write(groups.newGroup().append("d", (int) LocalDate.parse(t.substring(0, 10)).toEpochDay())
                        .append("ts", Binary.fromConstantByteArray(b.array())));
            }
        }
        return out;
    }

    @Test
    void filesWithoutASparkVersionFollowTheModesAndExceptionIsSparksError() throws Exception {
        Path out = foreignFile();
        // The two calendars differ before 1582 (the JVM's zone, in which LEGACY reads a file without a time zone
        // key, may be UTC: no difference in 1850 then).
        assertThat(sparkRows(out, "datetimeRebaseMode", "LEGACY", "int96RebaseMode", "LEGACY"))
                .doesNotContain(Row.of(LocalDate.parse("1000-03-01"), Instant.parse("1000-03-01T01:02:03.123456Z")))
                .contains(Row.of(LocalDate.parse("1000-02-24"), Instant.parse("1000-02-24T01:02:03.123456Z")));
        for (String mode : new String[]{"CORRECTED", "LEGACY"}) {
            List<Row> expected = sparkRows(out, "datetimeRebaseMode", mode, "int96RebaseMode", mode);
            assertThat(sluiceRows(out, "datetimeRebaseMode", mode, "int96RebaseMode", mode)).as(mode)
                    .containsExactlyInAnyOrderElementsOf(expected);
            spark.conf().set("spark.sql.parquet.datetimeRebaseModeInRead", mode);
            spark.conf().set("spark.sql.parquet.int96RebaseModeInRead", mode);
            try {
                assertThat(sparkRows(out)).as(mode).containsExactlyInAnyOrderElementsOf(expected);
            } finally {
                spark.conf().unset("spark.sql.parquet.datetimeRebaseModeInRead");
                spark.conf().unset("spark.sql.parquet.int96RebaseModeInRead");
            }
            assertThat(sluiceRows(out, "spark.sql.parquet.datetimeRebaseModeInRead", mode,
                    "spark.sql.parquet.int96RebaseModeInRead", mode)).as(mode)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(sparkRows(out)).containsExactlyInAnyOrderElementsOf(sluiceRows(out)); // CORRECTED by default
        for (String[] m : new String[][]{{"datetimeRebaseMode", "int96RebaseMode"},
                {"int96RebaseMode", "datetimeRebaseMode"}}) {
            Throwable sparkError = org.assertj.core.api.Assertions.catchThrowable(
                    () -> sparkRows(out, m[0], "EXCEPTION", m[1], "CORRECTED"));
            String sparkMessage = rootUpgradeMessage(sparkError);
            assertThat(sparkMessage).as(m[0]).startsWith("[INCONSISTENT_BEHAVIOR_CROSS_VERSION.READ_ANCIENT_DATETIME]");
            assertThatThrownBy(() -> sluiceRows(out, m[0], "EXCEPTION", m[1], "CORRECTED")).as(m[0])
                    .hasStackTraceContaining(sparkMessage);
        }
    }

    private static String rootUpgradeMessage(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null && c.getMessage().startsWith("[INCONSISTENT_BEHAVIOR_CROSS_VERSION")) {
                return c.getMessage();
            }
        }
        throw new AssertionError("no upgrade error in " + t, t);
    }

    private static java.util.Map<String, String> footer(Path folder) throws Exception {
        Path file;
        try (Stream<Path> s = Files.walk(folder)) {
            file = s.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        try (var r = org.apache.parquet.hadoop.ParquetFileReader.open(
                org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
            return r.getFooter().getFileMetaData().getKeyValueMetaData();
        }
    }

    @Test
    void theSinkWritesTheFooterKeysOfSparksCorrectedFiles() throws Exception {
        Path fromSpark = dir.resolve("spark");
        spark.sql(values()).coalesce(1).write().parquet(fromSpark.toString());
        io.sluice.core.sources.MemoryStream input = io.sluice.core.sources.MemoryStream.create(
                io.sluice.api.types.StructType.fromDDL(SCHEMA));
        Path fromSluice = dir.resolve("sluice");
        try {
            var q = sluice.readStream().format("memory").option("name", input.name()).load().writeStream()
                    .format("parquet").option("checkpointLocation", dir.resolve("chk").toString())
                    .start(fromSluice.toString());
            input.addData(List.of(Row.of(LocalDate.parse("1000-03-01"), Instant.parse("1850-06-01T12:00:00Z"))));
            q.processAllAvailable();
            q.stop();
        } finally {
            input.unregister();
        }
        // Spark 3.0+'s CORRECTED files: the version, the schema, no legacy key, no time zone.
        assertThat(footer(fromSpark)).containsEntry("org.apache.spark.version", "4.2.0")
                .containsOnlyKeys("org.apache.spark.version", "org.apache.spark.sql.parquet.row.metadata");
        assertThat(footer(fromSluice).keySet()).isEqualTo(footer(fromSpark).keySet());
        assertThat(footer(fromSluice)).containsEntry("org.apache.spark.version", "4.2.0");
        assertThat(sparkRows(fromSluice)).containsExactly(
                Row.of(LocalDate.parse("1000-03-01"), Instant.parse("1850-06-01T12:00:00Z")));
    }
}
