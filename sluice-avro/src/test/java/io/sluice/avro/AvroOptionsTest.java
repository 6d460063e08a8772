package io.sluice.avro;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sources.MemoryStream;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The avro format's union, recursion and extension options and the sink's value errors, through the engine. */
class AvroOptionsTest {
    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(1).build();

    @AfterEach
    void close() {
        sluice.close();
    }

    static Path file(Path file, Schema s, GenericRecord... records) throws Exception {
        try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(s))) {
            w.create(s, file.toFile());
            for (GenericRecord r : records) {
                w.append(r);
            }
        }
        return file;
    }

    @Test
    void unionsReadAsMembersOrStableIdentifiers() throws Exception {
        Schema s = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"u\",\"type\":"
                + "[\"null\",\"int\",\"string\"]}]}");
        GenericRecord a = new GenericData.Record(s);
        a.put("u", 5);
        GenericRecord b = new GenericData.Record(s);
        b.put("u", "five");
        GenericRecord c = new GenericData.Record(s);
        Path dir = Files.createDirectories(tmp.resolve("u"));
        file(dir.resolve("u.avro"), s, a, b, c);
        var members = sluice.read().format("avro").option("inferSchema", "true").load(dir.toString());
        assertThat(members.schema()).isEqualTo(StructType.fromDDL("u struct<member0: int, member1: string>"));
        assertThat(members.collectAsList()).containsExactly(Row.of(Row.of(5, null)), Row.of(Row.of(null, "five")),
                Row.of((Object) null));
        var stable = sluice.read().format("avro").option("inferSchema", "true")
                .option("enableStableIdentifiersForUnionType", "true").load(dir.toString());
        assertThat(stable.schema()).isEqualTo(StructType.fromDDL("u struct<member_int: int, member_string: string>"));
        var prefixed = sluice.read().format("avro").option("inferSchema", "true")
                .option("enableStableIdentifiersForUnionType", "true")
                .option("stableIdentifierPrefixForUnionType", "").load(dir.toString());
        assertThat(prefixed.schema()).isEqualTo(StructType.fromDDL("u struct<`int`: int, string: string>"));
        assertThat(prefixed.collectAsList()).containsExactly(Row.of(Row.of(5, null)), Row.of(Row.of(null, "five")),
                Row.of((Object) null));
    }

    @Test
    void recursiveRecordsReadToRecursiveFieldMaxDepth() throws Exception {
        Schema s = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"Id\",\"type\":\"int\"},"
                + "{\"name\":\"Next\",\"type\":[\"null\",\"Node\"]}]}");
        GenericRecord inner = new GenericData.Record(s);
        inner.put("Id", 2);
        GenericRecord outer = new GenericData.Record(s);
        outer.put("Id", 1);
        outer.put("Next", inner);
        Path dir = Files.createDirectories(tmp.resolve("rec"));
        file(dir.resolve("n.avro"), s, outer);
        assertThatThrownBy(() -> sluice.read().format("avro").option("inferSchema", "true").load(dir.toString()))
                .hasStackTraceContaining("Found recursive reference in Avro schema, which can not be processed by "
                        + "Spark by\n default: ");
        var one = sluice.read().format("avro").option("inferSchema", "true").option("recursiveFieldMaxDepth", "1")
                .load(dir.toString());
        assertThat(one.schema()).isEqualTo(StructType.fromDDL("Id int not null"));
        assertThat(one.collectAsList()).containsExactly(Row.of(1));
        var two = sluice.read().format("avro").option("inferSchema", "true").option("recursiveFieldMaxDepth", "2")
                .load(dir.toString());
        assertThat(two.schema()).isEqualTo(StructType.fromDDL("Id int not null, Next struct<Id: int not null>"));
        assertThat(two.collectAsList()).containsExactly(Row.of(1, Row.of(2)));
    }

    @Test
    void ignoreExtensionFalseInferenceNeedsAnAvroFile() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ext"));
        Schema s = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}");
        GenericRecord r = new GenericData.Record(s);
        r.put("a", 1);
        file(dir.resolve("data.bin"), s, r);
        assertThat(sluice.read().format("avro").option("inferSchema", "true").load(dir.toString()).collectAsList())
                .containsExactly(Row.of(1));
        assertThatThrownBy(() -> sluice.read().format("avro").option("inferSchema", "true")
                .option("ignoreExtension", "false").load(dir.toString()))
                .hasStackTraceContaining("No Avro files found. If files don't have .avro extension, set "
                        + "ignoreExtension to true");
    }

    @Test
    void sparksFromAvroModeIsNotAFileOption() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("mode"));
        Schema s = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}");
        GenericRecord r = new GenericData.Record(s);
        r.put("a", 1);
        file(dir.resolve("a.avro"), s, r);
        // Unknown to the avro file source (warned about), as Spark ignores it for files.
        assertThat(sluice.read().format("avro").schema("a int").option("mode", "PERMISSIVE").load(dir.toString())
                .collectAsList()).containsExactly(Row.of(1));
    }

    Throwable writeFails(String ddl, Row row, String... options) throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL(ddl));
        Path base = Files.createTempDirectory(tmp, "q");
        try {
            var w = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("avro").option("checkpointLocation", base.resolve("chk").toString());
            for (int i = 0; i < options.length; i += 2) {
                w = w.option(options[i], options[i + 1]);
            }
            StreamingQuery q = w.start(base.resolve("out").toString());
            input.addData(List.of(row));
            try {
                q.processAllAvailable();
            } catch (Exception e) {
                return e;
            } finally {
                q.stop();
            }
            return q.exception().orElseThrow();
        } finally {
            input.unregister();
        }
    }

    @Test
    void valuesTheOutputSchemaRefusesFailTheBatchWithSparksMessages() throws Exception {
        String required = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}";
        assertThat(writeFails("a string", Row.of((Object) null), "avroSchema", required))
                .hasStackTraceContaining("[AVRO_CANNOT_WRITE_NULL_FIELD] Cannot write null value for field `a` "
                        + "defined as non-null Avro data type \"string\".\nTo allow null value for this field, specify "
                        + "its avro schema as a union type with \"null\" using `avroSchema` option. SQLSTATE: 22004");
        String fixed = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"b\",\"type\":{\"type\":\"fixed\","
                + "\"name\":\"F\",\"size\":2}}]}";
        assertThat(writeFails("b binary", Row.of((Object) new byte[] {1, 2, 3}), "avroSchema", fixed))
                .hasStackTraceContaining("Cannot convert SQL field 'b' to Avro field 'b' because 3 bytes of binary "
                        + "data cannot be written into FIXED type with size of 2 bytes");
        String extra = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"},"
                + "{\"name\":\"x\",\"type\":\"int\"}]}";
        assertThatThrownBy(() -> writeFails("a string", Row.of("v"), "avroSchema", extra))
                .hasStackTraceContaining("Found field 'x' in Avro schema but there is no match in the SQL schema");
    }
}
