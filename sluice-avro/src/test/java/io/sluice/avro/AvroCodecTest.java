package io.sluice.avro;

import io.sluice.api.Row;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroCodecTest {
    static final StructType ALL = StructType.fromDDL("b boolean, i int, l bigint, f float, d double, s string, "
            + "bin binary, dec decimal(10,2), big decimal(38,10), dt date, ts timestamp, "
            + "arr array<int>, m map<string,string>, st struct<x: int, y: string>, t tinyint, sm smallint");

    static Row allRow() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("k", "v");
        m.put("n", null);
        return Row.of(true, 7, 1L << 40, 1.5f, 2.25, "héllo", new byte[] {1, 2, 3}, new BigDecimal("-12345678.91"),
                new BigDecimal("-1234567890123456789012345678.0123456789"), LocalDate.of(2024, 2, 29),
                Instant.parse("1969-12-31T23:59:59.999999Z"), Arrays.asList(1, null, 3), m, Row.of(4, "y"),
                (byte) -5, (short) 300);
    }

    @Test
    void everyTypeRoundTripsThroughTheDerivedSchema() {
        AvroDatumEncoder enc = AvroDatumEncoder.of(ALL, false);
        // Spark reads tinyint and smallint back as int (Avro has no smaller integers): the files' own struct.
        StructType read = AvroSchemas.toStructType(enc.schema(), AvroSchemas.ReadSettings.DEFAULT);
        assertThat(read.simpleString()).isEqualTo(ALL.simpleString().replace("t:tinyint,sm:smallint", "t:int,sm:int"));
        AvroDatumDecoder dec = AvroDatumDecoder.of(enc.schema(), read);
        Row in = allRow();
        byte[] datum = enc.encode(in);
        Row out = (Row) dec.decode(datum);
        assertThat(out.toString()).isEqualTo("[true,7,1099511627776,1.5,2.25,héllo,[1, 2, 3],-12345678.91,"
                + "-1234567890123456789012345678.0123456789,2024-02-29,1969-12-31T23:59:59.999999Z,[1, null, 3],"
                + "{k=v, n=null},[4,y],-5,300]");
        // A second datum through the same (reused) decoder.
        assertThat(dec.decode(datum).toString()).isEqualTo(out.toString());
    }

    @Test
    void derivedSchemaIsSparks() {
        Schema s = AvroSchemas.toAvroType(StructType.fromDDL("a int, n struct<d decimal(5,2), e array<date>> not null"),
                false, "rec", "ns");
        assertThat(s.toString()).isEqualTo("{\"type\":\"record\",\"name\":\"rec\",\"namespace\":\"ns\",\"fields\":["
                + "{\"name\":\"a\",\"type\":[\"int\",\"null\"]},{\"name\":\"n\",\"type\":{\"type\":\"record\","
                + "\"name\":\"n\",\"namespace\":\"ns.rec\",\"fields\":[{\"name\":\"d\",\"type\":[{\"type\":\"fixed\","
                + "\"name\":\"fixed\",\"namespace\":\"ns.rec.n.d\",\"size\":3,\"logicalType\":\"decimal\","
                + "\"precision\":5,\"scale\":2},\"null\"]},{\"name\":\"e\",\"type\":[{\"type\":\"array\",\"items\":"
                + "[{\"type\":\"int\",\"logicalType\":\"date\"},\"null\"]},\"null\"]}]}}]}");
        assertThat(AvroSchemas.toAvroType(DataType.timestampType(), false).toString())
                .isEqualTo("{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}");
        assertThatThrownBy(() -> AvroSchemas.toAvroType(DataType.fromDDL("map<int,string>"), false))
                .isInstanceOf(IncompatibleSchemaException.class)
                .hasMessage("Unexpected type MapType(IntegerType,StringType,true).");
    }

    @Test
    void avroTypesMapAsSparksSchemaConverters() {
        Schema s = AvroSchemas.parse("""
                {"type":"record","name":"r","fields":[
                 {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},
                 {"name":"fx","type":{"type":"fixed","name":"F","size":2}},
                 {"name":"dfx","type":{"type":"fixed","name":"G","size":5,"logicalType":"decimal","precision":9,"scale":3}},
                 {"name":"dby","type":{"type":"bytes","logicalType":"decimal","precision":20,"scale":0}},
                 {"name":"u","type":{"type":"string","logicalType":"uuid"}},
                 {"name":"tm","type":{"type":"long","logicalType":"timestamp-millis"}},
                 {"name":"lt","type":{"type":"long","logicalType":"local-timestamp-micros"}},
                 {"name":"n","type":["null","int"]},
                 {"name":"il","type":["int","long"]},
                 {"name":"fd","type":["float","double"]},
                 {"name":"cu","type":["null","int","string"]},
                 {"name":"m","type":{"type":"map","values":["null","long"]}},
                 {"name":"a","type":{"type":"array","items":"string"}}]}""");
        assertThat(AvroSchemas.toStructType(s, AvroSchemas.ReadSettings.DEFAULT).toDDL()).isEqualTo(
                "e STRING NOT NULL, fx BINARY NOT NULL, dfx DECIMAL(9,3) NOT NULL, dby DECIMAL(20,0) NOT NULL, "
                        + "u STRING NOT NULL, tm TIMESTAMP NOT NULL, lt TIMESTAMP NOT NULL, n INT, il BIGINT NOT NULL, "
                        + "fd DOUBLE NOT NULL, cu STRUCT<member0: INT, member1: STRING>, "
                        + "m MAP<STRING, BIGINT> NOT NULL, a ARRAY<STRING> NOT NULL");
    }

    @Test
    void recursiveSchemaIsRefusedAsSparkRefusesIt() {
        Schema s = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"v\",\"type\":\"int\"},"
                + "{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}");
        assertThatThrownBy(() -> AvroSchemas.toSqlType(s)).isInstanceOf(IncompatibleSchemaException.class)
                .hasMessage("Found recursive reference in Avro schema, which can not be processed by Spark by\n"
                        + " default: " + s.toString(true) + ". Try setting the option `recursiveFieldMaxDepth`\n"
                        + " to 1 - 15.");
        assertThat(AvroSchemas.toSqlType(s, new AvroSchemas.ReadSettings(false, "member_", 2)).dataType().simpleString())
                .isEqualTo("struct<v:int,next:struct<v:int>>");
    }

    @Test
    void decodesWithSchemaResolution() throws IOException {
        Schema writer = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
                + "{\"name\":\"gone\",\"type\":\"string\"}]}");
        Schema reader = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"},"
                + "{\"name\":\"added\",\"type\":\"string\",\"default\":\"dflt\"}]}");
        GenericRecord rec = new GenericData.Record(writer);
        rec.put("a", 5);
        rec.put("gone", "x");
        byte[] datum = write(writer, rec);
        AvroDatumDecoder dec = AvroDatumDecoder.of(writer, reader, StructType.fromDDL("added string, a bigint"), false);
        assertThat(dec.decode(datum)).isEqualTo(Row.of("dflt", 5L));
        // By position: the reader's fields in order.
        AvroDatumDecoder pos = AvroDatumDecoder.of(writer, reader, StructType.fromDDL("x bigint, y string"), true);
        assertThat(pos.decode(datum)).isEqualTo(Row.of(5L, "dflt"));
    }

    @Test
    void complexUnionsAreStructsOfMembers() throws IOException {
        Schema s = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"u\",\"type\":[\"int\",\"string\",\"null\"]}]}");
        StructType t = AvroSchemas.toStructType(s, AvroSchemas.ReadSettings.DEFAULT);
        AvroDatumDecoder dec = AvroDatumDecoder.of(s, t);
        GenericRecord rec = new GenericData.Record(s);
        rec.put("u", "str");
        assertThat(dec.decode(write(s, rec))).isEqualTo(Row.of(Row.of(null, "str")));
        rec.put("u", null);
        assertThat(dec.decode(write(s, rec))).isEqualTo(Row.of((Object) null));
        AvroDatumEncoder enc = AvroDatumEncoder.of(t, false, s, false);
        assertThat(dec.decode(enc.encode(Row.of(Row.of(9, null))))).isEqualTo(Row.of(Row.of(9, null)));
    }

    @Test
    void malformedDatumsAndIncompatibleTypesFailWithSparksMessages() {
        Schema s = AvroSchemas.toAvroType(StructType.fromDDL("a string not null"), false);
        AvroDatumDecoder dec = AvroDatumDecoder.of(s, StructType.fromDDL("a string"));
        assertThatThrownBy(() -> dec.decode(new byte[] {20, 'a'})).isInstanceOf(MalformedAvroException.class);
        assertThatThrownBy(() -> AvroDatumDecoder.of(s, StructType.fromDDL("a int")))
                .isInstanceOf(IncompatibleSchemaException.class)
                .hasMessage("Cannot convert Avro type " + s + " to SQL type STRUCT<a: INT>.")
                .cause().hasMessage("Cannot convert Avro field 'a' to SQL field 'a' because schema is incompatible "
                        + "(avroType = \"string\", sqlType = INT)");
        assertThatThrownBy(() -> AvroDatumDecoder.of(s, StructType.fromDDL("a string, b int not null")))
                .cause().hasMessage("Cannot find field 'b' in Avro schema");
        assertThatThrownBy(() -> AvroDatumEncoder.of(StructType.fromDDL("a string"), false, s, false)
                .encode(Row.of((Object) null))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("[AVRO_CANNOT_WRITE_NULL_FIELD] Cannot write null value for field `a` defined as non-null "
                        + "Avro data type \"string\".\nTo allow null value for this field, specify its avro schema as a "
                        + "union type with \"null\" using `avroSchema` option. SQLSTATE: 22004");
        Schema e = AvroSchemas.parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"e\",\"type\":"
                + "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}}]}");
        assertThatThrownBy(() -> AvroDatumEncoder.of(StructType.fromDDL("e string"), false, e, false).encode(Row.of("C")))
                .isInstanceOf(IncompatibleSchemaException.class)
                .hasMessage("Cannot convert SQL field 'e' to Avro field 'e' because \"C\" cannot be written since it's "
                        + "not defined in enum \"A\", \"B\"");
    }

    @Test
    void bytesAndNonRecordTargets() {
        AvroDatumEncoder enc = AvroDatumEncoder.of(DataType.fromDDL("array<string>"), true);
        AvroDatumDecoder dec = AvroDatumDecoder.of(enc.schema(), DataType.fromDDL("array<string>"));
        assertThat(dec.decode(enc.encode(List.of("a", "b")))).isEqualTo(List.of("a", "b"));
        assertThat(dec.decode(enc.encode(null))).isNull();
        Schema bytes = Schema.create(Schema.Type.BYTES);
        assertThat((byte[]) AvroDatumDecoder.of(bytes, DataType.binaryType())
                .decode(AvroDatumEncoder.of(DataType.binaryType(), false, bytes, false).encode(new byte[] {9})))
                .containsExactly(9);
        assertThat(ByteBuffer.wrap(new byte[0])).isNotNull();
    }

    static byte[] write(Schema s, Object datum) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<Object>(s).write(datum, e);
        e.flush();
        return out.toByteArray();
    }
}
