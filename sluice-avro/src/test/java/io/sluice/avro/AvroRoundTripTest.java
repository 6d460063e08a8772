package io.sluice.avro;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sources.MemoryStream;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Avro written by the file sink and read back by the file source, through the engine: every type, option, error. */
class AvroRoundTripTest {
    static final String ALL_TYPES = "b boolean, y tinyint, s smallint, i int, l bigint, f float, d double, "
            + "d9 decimal(9,2), d18 decimal(18,3), d38 decimal(38,10), str string, bin binary, dt date, "
            + "ts timestamp, arr array<int>, m map<string,bigint>, st struct<x: int, y: string>, "
            + "nested array<struct<k: string, v: array<double>>>";
    /** What Spark reads back: Avro has no tinyint or smallint, so they are int (Spark does not narrow them). */
    static final String ALL_TYPES_READ = ALL_TYPES.replace("y tinyint, s smallint", "y int, s int");
    static final Instant TS = Instant.parse("2026-10-02T01:02:03.456789Z");

    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();

    @AfterEach
    void close() {
        sluice.close();
    }

    static List<Row> allTypesRows(boolean asRead) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("a", 1L);
        m.put("b", null);
        Object y = asRead ? (Object) (-1) : (Object) (byte) -1;
        Object s = asRead ? (Object) 300 : (Object) (short) 300;
        Row full = Row.of(true, y, s, 3, 4L << 40, 1.5f, 2.25, new BigDecimal("-1234567.89"),
                new BigDecimal("123456789012345.678"), new BigDecimal("-1234567890123456789012345678.0123456789"),
                "q\"uote\n\u00e9", new byte[]{1, 2, 3}, LocalDate.of(1500, 3, 1), TS, Arrays.asList(1, null, 3), m,
                Row.of(1, null), List.of(Row.of("k", Arrays.asList(0.5, null)), Row.of(null, List.of())));
        Row before1970 = Row.of(false, null, null, null, null, null, null, null, null, null, "", new byte[0],
                LocalDate.of(1969, 12, 31), Instant.parse("1969-12-31T23:59:59.999999Z"), List.of(), Map.of(),
                Row.of(null, null), null);
        Row empty = Row.of(new Object[18]);
        return List.of(full, before1970, empty);
    }

    /** Writes the rows through the Avro sink (one batch), returns the output folder. */
    Path write(String ddl, List<Row> rows, String... options) throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL(ddl));
        Path base = Files.createTempDirectory(tmp, "q");
        Path out = base.resolve("out");
        try {
            var w = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("avro").option("checkpointLocation", base.resolve("chk").toString());
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

    List<Row> read(Path dir, String ddl, String... options) throws Exception {
        var r = sluice.read().format("avro").schema(ddl);
        for (int i = 0; i < options.length; i += 2) {
            r = r.option(options[i], options[i + 1]);
        }
        return r.load(dir.toString()).collectAsList();
    }

    static List<String> dataFiles(Path out) throws Exception {
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(p -> p.getFileName().toString().startsWith("part-"))
                    .map(p -> out.relativize(p).toString()).sorted().toList();
        }
    }

    static Path onlyFile(Path out) throws Exception {
        return out.resolve(dataFiles(out).get(0));
    }

    static DataFileReader<GenericRecord> open(Path file) throws Exception {
        return new DataFileReader<>(file.toFile(), new GenericDatumReader<>());
    }

    @Test
    void everyTypeRoundTripsWithSparksDefaults() throws Exception {
        Path out = write(ALL_TYPES, allTypesRows(false));
        assertThat(dataFiles(out)).singleElement().asString().matches("part-00000-[0-9a-f-]{36}-c000\\.snappy\\.avro");
        assertThat(read(out, ALL_TYPES_READ)).containsExactlyElementsOf(allTypesRows(true));
        try (DataFileReader<GenericRecord> r = open(onlyFile(out))) {
            assertThat(r.getMetaString("avro.codec")).isEqualTo("snappy");
            assertThat(r.getMetaString("org.apache.spark.version")).isEqualTo("4.2.0");
            assertThat(r.getSchema()).isEqualTo(AvroSchemas.toAvroType(StructType.fromDDL(ALL_TYPES), false));
        }
        assertThat(sluice.read().format("avro").option("inferSchema", "true").load(out.toString()).schema())
                .isEqualTo(StructType.fromDDL(ALL_TYPES_READ));
    }

    @Test
    void everyCodecRoundTripsAndIsNamedInTheHeader() throws Exception {
        Map<String, String> header = Map.of("uncompressed", "null", "deflate", "deflate", "snappy", "snappy",
                "bzip2", "bzip2", "xz", "xz", "zstandard", "zstandard");
        for (String codec : List.of("uncompressed", "deflate", "snappy", "bzip2", "xz", "zstandard", "ZSTANDARD")) {
            Path out = write("i int, s string", List.of(Row.of(1, "x"), Row.of(2, null)), "compression", codec);
            assertThat(read(out, "i int, s string")).as(codec).containsExactly(Row.of(1, "x"), Row.of(2, null));
            String ext = codec.equals("uncompressed") ? "" : "." + codec.toLowerCase();
            assertThat(dataFiles(out)).singleElement().asString().endsWith("-c000" + ext + ".avro");
            try (DataFileReader<GenericRecord> r = open(onlyFile(out))) {
                assertThat(r.getMetaString("avro.codec")).isEqualTo(header.get(codec.toLowerCase()));
            }
        }
        Path out = write("i int", List.of(Row.of(1)), "compression", "deflate", "spark.sql.avro.deflate.level", "9");
        assertThat(read(out, "i int")).containsExactly(Row.of(1));
        out = write("i int", List.of(Row.of(1)), "compression", "xz", "spark.sql.avro.xz.level", "1");
        assertThat(read(out, "i int")).containsExactly(Row.of(1));
    }

    @Test
    void badOptionsFailAtStartWithSparksMessages() {
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "compression", "lz4"))
                .hasMessageContaining("[CODEC_SHORT_NAME_NOT_FOUND] Cannot find a short name for the codec lz4. "
                        + "SQLSTATE: 42704");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "spark.sql.avro.deflate.level", "0"))
                .hasMessageContaining("Invalid value '0' for option 'spark.sql.avro.deflate.level': 1 to 9, or -1 "
                        + "(level 6), is accepted");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "spark.sql.avro.xz.level", "10"))
                .hasMessageContaining("Invalid value '10' for option 'spark.sql.avro.xz.level': 1 to 9 is accepted");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "avroSchema", "{\"type\":"))
                .hasMessageContaining("Invalid value for option 'avroSchema': ");
        assertThatThrownBy(() -> write("i int", List.of(Row.of(1)), "avroSchema",
                "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"j\",\"type\":\"int\"}]}"))
                .hasStackTraceContaining("Cannot find field 'i' in Avro schema");
        assertThatThrownBy(() -> write("m map<int,string>", List.of(Row.of(Map.of(1, "a")))))
                .hasMessageContaining("Unexpected type MapType(IntegerType,StringType,true).");
        assertThatThrownBy(() -> read(tmp, "i int", "recursiveFieldMaxDepth", "16"))
                .hasMessageContaining("Invalid value '16' for option 'recursiveFieldMaxDepth': Should not be greater "
                        + "than 15.");
        assertThatThrownBy(() -> read(tmp, "i int", "positionalFieldMatching", "yes"))
                .hasMessageContaining("Invalid value 'yes' for option 'positionalFieldMatching': true or false is "
                        + "accepted");
    }

    @Test
    void avroSchemaSetsTheOutputSchemaAndTheReaderSchema() throws Exception {
        String enumSchema = "{\"type\":\"record\",\"name\":\"r\",\"namespace\":\"n\",\"fields\":["
                + "{\"name\":\"kind\",\"type\":{\"type\":\"enum\",\"name\":\"K\",\"symbols\":[\"A\",\"B\"]}},"
                + "{\"name\":\"at\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}]}]}";
        Path out = write("kind string, at timestamp", List.of(Row.of("A", TS), Row.of("B", null)),
                "avroSchema", enumSchema);
        try (DataFileReader<GenericRecord> r = open(onlyFile(out))) {
            assertThat(r.getSchema().toString()).isEqualTo(AvroSchemas.parse(enumSchema).toString());
        }
        assertThat(read(out, "kind string, at timestamp"))
                .containsExactly(Row.of("A", Instant.parse("2026-10-02T01:02:03.456Z")), Row.of("B", null));
        // Evolution: the reader schema adds a field with a default, promotes nothing away, drops 'at'.
        String evolved = "{\"type\":\"record\",\"name\":\"r\",\"namespace\":\"n\",\"fields\":["
                + "{\"name\":\"kind\",\"type\":{\"type\":\"enum\",\"name\":\"K\",\"symbols\":[\"A\",\"B\"]}},"
                + "{\"name\":\"added\",\"type\":\"string\",\"default\":\"d\"}]}";
        assertThat(read(out, "kind string, added string", "avroSchema", evolved))
                .containsExactly(Row.of("A", "d"), Row.of("B", "d"));
        assertThat(sluice.read().format("avro").option("inferSchema", "true").option("avroSchema", evolved)
                .load(out.toString()).schema()).isEqualTo(StructType.fromDDL("kind string not null, added string not null"));
        // A column the reader schema does not have is refused before any file is read.
        assertThatThrownBy(() -> read(out, "gone string not null", "avroSchema", evolved))
                .hasStackTraceContaining("Cannot find field 'gone' in Avro schema");
        // A bad enum value on write is Spark's message.
        assertThatThrownBy(() -> write("kind string, at timestamp", List.of(Row.of("C", null)), "avroSchema",
                enumSchema)).hasStackTraceContaining("Cannot convert SQL field 'kind' to Avro field 'kind' because "
                + "\"C\" cannot be written since it's not defined in enum \"A\", \"B\"");
    }

    @Test
    void recordNameAndNamespaceNameTheRecords() throws Exception {
        Path out = write("a int, st struct<d decimal(5,2)>", List.of(Row.of(1, Row.of(new BigDecimal("1.50")))),
                "recordName", "Top", "recordNamespace", "com.acme");
        try (DataFileReader<GenericRecord> r = open(onlyFile(out))) {
            Schema s = r.getSchema();
            assertThat(s.getFullName()).isEqualTo("com.acme.Top");
            Schema st = s.getField("st").schema().getTypes().get(0);
            assertThat(st.getFullName()).isEqualTo("com.acme.Top.st");
            assertThat(st.getField("d").schema().getTypes().get(0).getFullName()).isEqualTo("com.acme.Top.st.d.fixed");
        }
        assertThat(read(out, "a int, st struct<d decimal(5,2)>")).containsExactly(Row.of(1, Row.of(new BigDecimal("1.50"))));
    }

    @Test
    void positionalFieldMatchingMatchesByPosition() throws Exception {
        String schema = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"},"
                + "{\"name\":\"y\",\"type\":[\"string\",\"null\"]}]}";
        Path out = write("a int not null, b string", List.of(Row.of(1, "one")), "avroSchema", schema,
                "positionalFieldMatching", "true");
        assertThat(read(out, "x int, y string")).containsExactly(Row.of(1, "one"));
        assertThat(read(out, "p int, q string", "positionalFieldMatching", "true")).containsExactly(Row.of(1, "one"));
        // By name, missing nullable columns read as null; names match case-insensitively.
        assertThat(read(out, "P int, Y string")).containsExactly(Row.of(null, "one"));
    }

    @Test
    void ignoreExtensionFalseReadsOnlyAvroFilesAndPathGlobFilterSelects() throws Exception {
        Path out = write("i int", List.of(Row.of(1)));
        Path dir = Files.createDirectories(tmp.resolve("ext"));
        Files.copy(onlyFile(out), dir.resolve("a.avro"));
        Files.copy(onlyFile(out), dir.resolve("b.data"));
        assertThat(read(dir, "i int")).containsExactly(Row.of(1), Row.of(1));
        assertThat(read(dir, "i int", "ignoreExtension", "false")).containsExactly(Row.of(1));
        assertThat(read(dir, "i int", "pathGlobFilter", "*.data")).containsExactly(Row.of(1));
    }

    @Test
    void aTypeMismatchIsSparksMessageNamingTheFile() throws Exception {
        Path out = write("a string", List.of(Row.of("x")));
        String file = onlyFile(out).toUri().toString();
        assertThatThrownBy(() -> read(out, "a int")).hasStackTraceContaining("Encountered error while reading file "
                + file).hasStackTraceContaining("Cannot convert Avro field 'a' to SQL field 'a' because schema is "
                + "incompatible (avroType = \"string\", sqlType = INT)");
        Path dec = write("d decimal(12,2)", List.of(Row.of(new BigDecimal("1.00"))));
        assertThatThrownBy(() -> read(dec, "d decimal(4,2)")).hasStackTraceContaining("[AVRO_INCOMPATIBLE_READ_TYPE] "
                + "Cannot convert Avro field 'd' to SQL field 'd' because the original encoded data type is "
                + "decimal(12,2), however you're trying to read the field as decimal(4,2), which would lead to an "
                + "incorrect answer.");
    }

    @Test
    void partitionByWritesFoldersAndTheSourceReadsThemBack() throws Exception {
        Path out = write("id bigint, day string", List.of(Row.of(1L, "d1"), Row.of(2L, "d2")), "partitionBy", "day");
        assertThat(dataFiles(out)).hasSize(2).allMatch(f -> f.matches("day=d[12]/part-00000-.*\\.snappy\\.avro"));
        assertThat(read(out, "id bigint, day string")).containsExactlyInAnyOrder(Row.of(1L, "d1"), Row.of(2L, "d2"));
    }

    /** Writes an uncompressed Avro file of many small blocks, as another writer would. */
    static Path avroFile(Path file, int rows) throws Exception {
        Schema s = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"},"
                + "{\"name\":\"s\",\"type\":\"string\"}]}");
        try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(s))) {
            w.setSyncInterval(32);
            w.create(s, file.toFile());
            for (int i = 0; i < rows; i++) {
                GenericRecord r = new GenericData.Record(s);
                r.put("a", (long) i);
                r.put("s", "value-" + i);
                w.append(r);
            }
        }
        return file;
    }

    static List<Row> rows(int n) {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Row.of((long) i, "value-" + i));
        }
        return out;
    }

    @Test
    void badFilesFailNamingTheFileAndIgnoreCorruptFilesKeepsWhatWasRead() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("bad"));
        Path good = avroFile(dir.resolve("good.avro"), 3);
        assertThat(read(dir, "a bigint, s string")).containsExactlyElementsOf(rows(3));
        String schema = "a bigint, s string";

        // Not Avro at all.
        Path notAvro = dir.resolve("not.avro");
        Files.writeString(notAvro, "this is not avro");
        assertThatThrownBy(() -> read(dir, schema)).hasStackTraceContaining("[FAILED_READ_FILE.NO_HINT] Encountered "
                + "error while reading file " + notAvro.toUri() + ".  SQLSTATE: KD001 (Not an Avro data file.)");
        assertThat(read(dir, schema, "ignoreCorruptFiles", "true")).containsExactlyElementsOf(rows(3));
        Files.delete(notAvro);

        // Truncated: the last block cut in half; the blocks before it are read.
        Path whole = avroFile(tmp.resolve("whole.avro"), 40);
        byte[] bytes = Files.readAllBytes(whole);
        Path truncated = dir.resolve("truncated.avro");
        Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 20));
        long lastBlock = 0; // where the last block starts: the last block boundary before the end
        try (DataFileReader<GenericRecord> r = open(whole)) {
            while (r.hasNext()) {
                if (r.previousSync() < bytes.length) {
                    lastBlock = r.previousSync();
                }
                r.next();
            }
        }
        assertThatThrownBy(() -> read(dir, schema)).hasStackTraceContaining("[FAILED_READ_FILE.NO_HINT] Encountered "
                + "error while reading file " + truncated.toUri() + ".  SQLSTATE: KD001 (Truncated Avro file: it ends "
                + "inside the block at byte " + lastBlock + " of " + (bytes.length - 20) + ")");
        // The complete blocks before it are kept: every row but the last block's.
        List<Row> kept = read(dir, schema, "ignoreCorruptFiles", "true");
        assertThat(kept.subList(0, 3)).containsExactlyElementsOf(rows(3));
        assertThat(kept.subList(3, kept.size())).isEqualTo(rows(40).subList(0, kept.size() - 3)).hasSizeBetween(30, 39);
        Files.delete(truncated);

        // A damaged sync marker after the first block.
        byte[] badSync = bytes.clone();
        int sync = indexOf(badSync, Arrays.copyOfRange(bytes, headerEnd(whole) - 16, headerEnd(whole)), headerEnd(whole));
        badSync[sync] ^= 0x55;
        Path corrupt = dir.resolve("badsync.avro");
        Files.write(corrupt, badSync);
        assertThatThrownBy(() -> read(dir, schema)).hasStackTraceContaining("[FAILED_READ_FILE.NO_HINT] Encountered "
                + "error while reading file " + corrupt.toUri() + ".  SQLSTATE: KD001 (Invalid sync!)");
        Files.delete(corrupt);

        // A datum that does not match the schema: a string's length made negative in the first block.
        byte[] badDatum = bytes.clone();
        int at = headerEnd(whole) + 3; // block count, block size, then the first long (0) and the string's length
        badDatum[at] = 0x01; // zig-zag -1
        Path mismatch = dir.resolve("mismatch.avro");
        Files.write(mismatch, badDatum);
        assertThatThrownBy(() -> read(dir, schema)).hasStackTraceContaining("[FAILED_READ_FILE.NO_HINT] Encountered "
                + "error while reading file " + mismatch.toUri() + ".  SQLSTATE: KD001 (Malformed data. Length is "
                + "negative: -1)");
        assertThat(read(dir, schema, "ignoreCorruptFiles", "true")).containsExactlyElementsOf(rows(3));
        assertThat(good).exists();
    }

    /** The offset of the first block: after the header, which ends with the 16-byte sync marker. */
    static int headerEnd(Path file) throws Exception {
        try (DataFileReader<GenericRecord> r = open(file)) {
            r.sync(0);
            return (int) r.previousSync();
        }
    }

    static int indexOf(byte[] in, byte[] what, int from) {
        for (int i = from; i <= in.length - what.length; i++) {
            if (Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    @Test
    void inferSchemaSkipsFilesThatDoNotOpenOnlyWithIgnoreCorruptFiles() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("infer"));
        avroFile(dir.resolve("a.avro"), 1);
        Path bad = dir.resolve("z.avro");
        Files.writeString(bad, "nope");
        Files.setLastModifiedTime(bad, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        assertThatThrownBy(() -> sluice.read().format("avro").option("inferSchema", "true").load(dir.toString()))
                .hasMessageContaining("Could not read file: " + bad.toUri());
        assertThat(sluice.read().format("avro").option("inferSchema", "true").option("ignoreCorruptFiles", "true")
                .load(dir.toString()).schema()).isEqualTo(StructType.fromDDL("a bigint not null, s string not null"));
        File unused = dir.toFile();
        assertThat(unused).isDirectory();
    }
}
