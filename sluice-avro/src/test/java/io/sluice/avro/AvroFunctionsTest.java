package io.sluice.avro;

import io.sluice.api.Row;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.core.AnalysisException;
import io.sluice.core.Functions;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.sources.MemoryStream;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.core.Functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * from_avro and to_avro as SQL functions (found through META-INF/services) and through {@link Functions}: every
 * Sluice type through to_avro and back, Avro's own writer's bytes decoded, FAILFAST and PERMISSIVE on a body that
 * does not match its schema, the reader schema, the schema registry wire format, the analysis errors.
 */
class AvroFunctionsTest {
    static final StructType ALL = StructType.fromDDL("b boolean, t tinyint, sm smallint, i int, l bigint, f float, "
            + "d double, dec decimal(10,2), big decimal(38,10), s string, bin binary, dt date, ts timestamp, "
            + "arr array<int>, m map<string,string>, st struct<x: int, y: string>");
    static final String RECORD = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
            + "{\"name\":\"s\",\"type\":\"string\"}]}";

    private final Sluice sluice = Sluice.builder().parallelism(1).build();
    private final List<MemoryStream> streams = new ArrayList<>();

    @AfterEach
    void close() {
        sluice.close();
        streams.forEach(MemoryStream::unregister);
    }

    private StreamFrame frame(StructType schema, Row... rows) {
        MemoryStream in = MemoryStream.create(schema);
        streams.add(in);
        in.addData(rows);
        return sluice.read().format("memory").option("name", in.name()).load();
    }

    private StreamFrame bytes(byte[]... values) {
        Row[] rows = Arrays.stream(values).map(v -> Row.of((Object) v)).toArray(Row[]::new);
        return frame(StructType.fromDDL("value binary"), rows);
    }

    static Row allValues() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("k", "v");
        m.put("n", null);
        return Row.of(true, (byte) -5, (short) 300, 7, 1L << 40, 1.5f, 2.25, new BigDecimal("-12345678.91"),
                new BigDecimal("-1234567890123456789012345678.0123456789"), "héllo", new byte[] {1, 2, 3},
                LocalDate.of(1582, 10, 4), Instant.parse("1969-12-31T23:59:59.999999Z"), Arrays.asList(1, null, 3),
                m, Row.of(4, "y"));
    }

    static Row nulls() {
        return Row.wrap(new Object[ALL.size()]);
    }

    @Test
    void everySluiceTypeGoesThroughToAvroAndBackWithItsValue() throws Exception {
        List<String> items = new ArrayList<>();
        for (StructField f : ALL.fields()) {
            String schema = AvroSchemas.toAvroType(f.dataType(), true).toString().replace("'", "\\'");
            items.add("from_avro(to_avro(" + f.name() + "), '" + schema + "') AS " + f.name());
        }
        StreamFrame f = frame(ALL, allValues(), nulls()).selectExpr(items.toArray(new String[0]));
        // Avro has no 8- or 16-bit integers: tinyint and smallint come back as int, as in Spark.
        assertThat(f.schema().simpleString()).isEqualTo(ALL.simpleString()
                .replace("t:tinyint,sm:smallint", "t:int,sm:int"));
        List<Row> rows = f.collectAsList();
        assertThat(rows.get(0).toString()).isEqualTo("[true,-5,300,7,1099511627776,1.5,2.25,-12345678.91,"
                + "-1234567890123456789012345678.0123456789,héllo,[1, 2, 3],1582-10-04,1969-12-31T23:59:59.999999Z,"
                + "[1, null, 3],{k=v, n=null},[4,y]]");
        assertThat((byte[]) rows.get(0).get(10)).containsExactly(1, 2, 3);
        assertThat(rows.get(1)).isEqualTo(nulls());

        // The whole row as one record, through the Java API.
        String record = AvroSchemas.toAvroType(ALL, false).toString();
        List<Row> whole = frame(ALL, allValues()).select(Functions.fromAvro(Functions.toAvro(Functions.struct(
                col("*"))), record).as("r")).select("r.*").collectAsList();
        assertThat(whole.get(0).toString()).isEqualTo(rows.get(0).toString());
    }

    @Test
    void toAvroWritesTheBytesOfAvrosOwnWriterAndFromAvroReadsThem() throws Exception {
        Schema schema = new Schema.Parser().parse("""
                {"type":"record","name":"payment","namespace":"com.example","fields":[
                  {"name":"id","type":"long"},
                  {"name":"account","type":"string"},
                  {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}},
                  {"name":"note","type":["null","string"],"default":null},
                  {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["CARD","CASH"]}},
                  {"name":"day","type":{"type":"int","logicalType":"date"}},
                  {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}},
                  {"name":"tags","type":{"type":"array","items":"string"}},
                  {"name":"attrs","type":{"type":"map","values":"int"}},
                  {"name":"hash","type":{"type":"fixed","name":"Hash","size":2}}]}""");
        GenericRecord r = new GenericData.Record(schema);
        r.put("id", 42L);
        r.put("account", "acc-1");
        r.put("amount", new Conversions.DecimalConversion().toBytes(new BigDecimal("12.34"), null,
                LogicalTypes.decimal(10, 2)));
        r.put("note", null);
        r.put("kind", new GenericData.EnumSymbol(schema.getField("kind").schema(), "CASH"));
        r.put("day", 19000);
        r.put("at", 1_700_000_000_123L);
        r.put("tags", List.of("a", "b"));
        r.put("attrs", Map.of("x", 1));
        r.put("hash", new GenericData.Fixed(schema.getField("hash").schema(), new byte[] {9, 8}));
        byte[] avro = write(schema, r);

        StreamFrame decoded = bytes(avro).selectExpr("from_avro(value, '" + schema + "') AS p").select("p.*");
        assertThat(decoded.schema().simpleString()).isEqualTo("struct<id:bigint,account:string,amount:decimal(10,2),"
                + "note:string,kind:string,day:date,at:timestamp,tags:array<string>,attrs:map<string,int>,"
                + "hash:binary>");
        Row row = decoded.collectAsList().get(0);
        assertThat(row.toString()).isEqualTo("[42,acc-1,12.34,null,CASH,2022-01-08,2023-11-14T22:13:20.123Z,[a, b],"
                + "{x=1},[9, 8]]");

        // Back with the same schema: the bytes Avro's writer wrote.
        List<Row> again = bytes(avro).selectExpr("to_avro(from_avro(value, '" + schema + "'), '" + schema + "')")
                .collectAsList();
        assertThat((byte[]) again.get(0).get(0)).containsExactly(avro);
    }

    @Test
    void failFastIsTheDefaultAndFailsOnABodyThatDoesNotMatchItsSchema() throws Exception {
        byte[] truncated = {2}; // a = 1, then the string s is missing
        StreamFrame f = bytes(truncated).selectExpr("from_avro(value, '" + RECORD + "') AS r");
        assertThat(f.schema().fields()).containsExactly(new StructField("r", StructType.of(
                new StructField("a", DataType.intType(), false), new StructField("s", DataType.stringType(), false)),
                true));
        assertThatThrownBy(f::collectAsList).isInstanceOf(IllegalStateException.class)
                .hasMessage("Malformed records are detected in record parsing. Current parse Mode: FAILFAST. To process "
                        + "malformed records as null result, try setting the option 'mode' as 'PERMISSIVE'. Cause: "
                        + "java.io.EOFException")
                .hasCauseInstanceOf(MalformedAvroException.class);
        assertThatThrownBy(bytes(new byte[] {2, 0x7F})
                .selectExpr("from_avro(value, '" + RECORD + "', map('mode', 'failfast'))")::collectAsList)
                .hasMessageStartingWith("Malformed records are detected in record parsing. Current parse Mode: FAILFAST.");
    }

    @Test
    void permissiveGivesNullsAndANullableType() throws Exception {
        byte[] good = {2, 2, 'x'};
        StreamFrame f = bytes(good, new byte[] {2}, null).selectExpr(
                "from_avro(value, '" + RECORD + "', map('mode', 'PERMISSIVE')) AS r",
                "from_avro(value, '\"long\"', map('mode', 'permissive')) AS l");
        assertThat(f.schema()).isEqualTo(StructType.fromDDL("r struct<a: int, s: string>, l bigint"));
        // A record schema gives a struct of NULLs for a malformed value, as Spark's nullResultRow; NULL gives NULL.
        assertThat(f.collectAsList()).containsExactly(Row.of(Row.of(1, "x"), 1L), Row.of(Row.of(null, null), 1L),
                Row.of(null, null));
        assertThat(bytes(new byte[0]).selectExpr("from_avro(value, '\"long\"', map('mode', 'PERMISSIVE'))")
                .collectAsList()).containsExactly(Row.of((Object) null));
    }

    @Test
    void otherModesAreRefusedAtAnalysis() throws Exception {
        assertThatThrownBy(() -> bytes().selectExpr("from_avro(value, '\"long\"', map('mode', 'DROPMALFORMED'))"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("The function `from_avro` doesn't support the DROPMALFORMED mode. Acceptable modes are "
                        + "PERMISSIVE and FAILFAST.\n"
                        + "from_avro(value, '\"long\"', map('mode', 'DROPMALFORMED'))\n"
                        + "^");
        assertThatThrownBy(() -> bytes().select(Functions.fromAvro(col("value"), "\"long\"", Map.of("mode", "lax"))))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Invalid value 'lax' for option 'mode': FAILFAST, PERMISSIVE is accepted (case-insensitive)");
    }

    @Test
    void callsThatCannotBeBoundAreAnalysisErrorsInSparksWords() throws Exception {
        assertThatThrownBy(() -> bytes().selectExpr("from_avro(CAST(value AS STRING), '\"long\"')"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Cannot resolve \"from_avro(CAST(value AS STRING), \"long\")\" due to data type mismatch: "
                        + "The first parameter requires the \"BINARY\" type, however \"CAST(value AS STRING)\" has the "
                        + "type \"STRING\".\n"
                        + "from_avro(CAST(value AS STRING), '\"long\"')\n"
                        + "^");
        assertThatThrownBy(() -> bytes().selectExpr("from_avro(value, CAST(value AS STRING))"))
                .hasMessageStartingWith("Cannot resolve \"from_avro(value, CAST(value AS STRING))\" due to data type "
                        + "mismatch: " + FromAvroFunction.SCHEMA_REFUSAL + "\n");
        assertThatThrownBy(() -> bytes().selectExpr("from_avro(value, '\"long\"', 42)"))
                .hasMessageStartingWith("Cannot resolve \"from_avro(value, \"long\", 42)\" due to data type mismatch: "
                        + FromAvroFunction.OPTIONS_REFUSAL + "\n");
        assertThatThrownBy(() -> bytes().selectExpr("to_avro(value, 42)"))
                .hasMessageStartingWith("Cannot resolve \"to_avro(value, 42)\" due to data type mismatch: "
                        + ToAvroFunction.SCHEMA_REFUSAL + "\n");
        assertThatThrownBy(() -> bytes().selectExpr("from_avro(value)"))
                .hasMessageStartingWith("The function `from_avro` requires 2 to 3 parameters but the actual number is 1.");
        assertThatThrownBy(() -> bytes().selectExpr("from_avro(value, '{\"type\":\"rec\"}')"))
                .hasMessageStartingWith("Cannot parse the schema of from_avro as an Avro schema: ");
        assertThatThrownBy(() -> bytes().selectExpr("to_avro(value, '\"int\"')"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("Cannot convert SQL type BINARY to Avro type \"int\".");
    }

    @Test
    void aReaderSchemaResolvesTheDatumWithAvrosEvolutionRules() throws Exception {
        String reader = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"},"
                + "{\"name\":\"added\",\"type\":\"string\",\"default\":\"none\"}]}";
        StreamFrame f = bytes(new byte[] {2, 2, 'x'}).select(Functions.fromAvro(col("value"), RECORD,
                Map.of("avroSchema", reader)).as("r"));
        assertThat(f.schema()).isEqualTo(StructType.of(new StructField("r", StructType.of(
                new StructField("a", DataType.longType(), false), new StructField("added", DataType.stringType(),
                        false)), true)));
        assertThat(f.collectAsList()).containsExactly(Row.of(Row.of(1L, "none")));
    }

    @Test
    void nullInputGivesNullAndToAvroIsNullableAsItsInput() throws Exception {
        StreamFrame f = frame(StructType.of(new StructField("a", DataType.intType(), true),
                new StructField("b", DataType.longType(), false)), Row.of(null, 3L))
                .selectExpr("to_avro(a) AS a", "to_avro(b) AS b", "to_avro(NULL) AS n", "from_avro(NULL, '\"int\"') AS f");
        assertThat(f.schema()).isEqualTo(StructType.of(new StructField("a", DataType.binaryType(), true),
                new StructField("b", DataType.binaryType(), false), new StructField("n", DataType.binaryType(), true),
                new StructField("f", DataType.intType(), true)));
        Row row = f.collectAsList().get(0);
        assertThat(row.get(0)).isNull();
        assertThat((byte[]) row.get(1)).containsExactly(6); // zig-zag 3, no union: b is not nullable
        assertThat(row.get(2)).isNull();
        assertThat(row.get(3)).isNull();
    }

    @Test
    void aNullableStructIsWrittenToARecordSchemaThatIsNotAUnionAndNullStaysNull() throws Exception {
        // Spark's rule: a nullable value may be written with a schema without "null" (it only warns); a NULL value
        // is never encoded, the result is NULL.
        StreamFrame f = frame(StructType.fromDDL("st struct<a: int, s: string>"), Row.of(Row.of(1, "x")),
                Row.of((Object) null)).selectExpr("to_avro(st, '" + RECORD + "') AS v");
        assertThat(f.schema()).isEqualTo(StructType.fromDDL("v binary"));
        List<Row> rows = f.collectAsList();
        assertThat((byte[]) rows.get(0).get(0)).containsExactly(2, 2, 'x');
        assertThat(rows.get(1).get(0)).isNull();
    }

    @Test
    void aNullFieldWrittenToANonNullAvroFieldFailsWithSparksMessage() throws Exception {
        StreamFrame f = frame(StructType.fromDDL("a int, s string"), Row.of(1, null))
                .selectExpr("to_avro(struct(a, s), '" + RECORD + "')");
        assertThatThrownBy(f::collectAsList).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("[AVRO_CANNOT_WRITE_NULL_FIELD] Cannot write null value for field `s` defined as non-null "
                        + "Avro data type \"string\".\nTo allow null value for this field, specify its avro schema as a "
                        + "union type with \"null\" using `avroSchema` option. SQLSTATE: 22004");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Beyond Spark: the schema registry wire format

    static final String CONFLUENT_5 = "map('wireFormat', 'confluent', 'schemaId', '5')";

    @Test
    void toAvroWritesTheHeaderAndFromAvroChecksAndStripsIt() throws Exception {
        StreamFrame framed = frame(StructType.fromDDL("a int, s string"), Row.of(1, "x"))
                .selectExpr("to_avro(struct(a, s), '" + RECORD + "', " + CONFLUENT_5 + ") AS v");
        byte[] value = (byte[]) framed.collectAsList().get(0).get(0);
        assertThat(value).containsExactly(0, 0, 0, 0, 5, 2, 2, 'x');
        assertThat(bytes(value).selectExpr("from_avro(value, '" + RECORD + "', " + CONFLUENT_5 + ")").collectAsList())
                .containsExactly(Row.of(Row.of(1, "x")));
        // A large id, big-endian.
        assertThat((byte[]) frame(StructType.fromDDL("l bigint"), Row.of(1L)).select(Functions.toAvro(col("l"),
                "\"long\"", Map.of("wireFormat", "CONFLUENT", "schemaId", "2147483647"))).collectAsList().get(0).get(0))
                .containsExactly(0, 0x7F, 0xFF, 0xFF, 0xFF, 2);
    }

    @Test
    void aHeaderThatDoesNotMatchFollowsTheMode() throws Exception {
        byte[] wrongMagic = {1, 0, 0, 0, 5, 2, 2, 'x'};
        byte[] wrongId = {0, 0, 0, 1, 0, 2, 2, 'x'};
        byte[] tooShort = {0, 0, 0};
        String prefix = FromAvroFunction.FAILFAST + " Cause: ";
        assertThatThrownBy(bytes(wrongMagic).selectExpr("from_avro(value, '" + RECORD + "', " + CONFLUENT_5 + ")")
                ::collectAsList).isInstanceOf(IllegalStateException.class).hasMessage(prefix + "the value starts with "
                + "the byte 0x01, not the magic byte 0 of the wire format (option wireFormat 'confluent')");
        assertThatThrownBy(bytes(wrongId).selectExpr("from_avro(value, '" + RECORD + "', " + CONFLUENT_5 + ")")
                ::collectAsList).hasMessage(prefix + "the value's header has the schema id 256, but from_avro expects "
                + "the schema id 5 (option schemaId)");
        assertThatThrownBy(bytes(tooShort).selectExpr("from_avro(value, '" + RECORD + "', " + CONFLUENT_5 + ")")
                ::collectAsList).hasMessage(prefix + "the value has 3 bytes, fewer than the 5 of the wire format's "
                + "header (the magic byte 0 and a 4-byte schema id)");
        String permissive = "map('wireFormat', 'confluent', 'schemaId', '5', 'mode', 'PERMISSIVE')";
        assertThat(bytes(wrongMagic, wrongId, tooShort, new byte[] {0, 0, 0, 0, 5, 4, 2, 'y'})
                .selectExpr("from_avro(value, '" + RECORD + "', " + permissive + ")").collectAsList())
                .containsExactly(Row.of(Row.of(null, null)), Row.of(Row.of(null, null)), Row.of(Row.of(null, null)),
                        Row.of(Row.of(2, "y")));
        // Without the option, the header is read as the datum: another value, silently (as Spark reads it).
        assertThat(bytes(new byte[] {0, 0, 0, 0, 5, 2}).selectExpr("from_avro(value, '\"long\"')").collectAsList())
                .containsExactly(Row.of(0L));
    }

    @Test
    void theWireFormatOptionsAreChecked() throws Exception {
        assertThatThrownBy(() -> bytes().selectExpr("from_avro(value, '\"long\"', map('wireFormat', 'confluent'))"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("Option 'schemaId' is missing: it is required with wireFormat 'confluent'\n");
        assertThatThrownBy(() -> bytes().select(Functions.toAvro(col("value"), "\"bytes\"", Map.of("schemaId", "5"))))
                .hasMessage("Option 'schemaId' is only read with wireFormat 'confluent', but wireFormat is 'plain'");
        assertThatThrownBy(() -> bytes().select(Functions.toAvro(col("value"), "\"bytes\"",
                Map.of("wireFormat", "confluent", "schemaId", "-1"))))
                .hasMessage("Invalid value '-1' for option 'schemaId': a schema id from 0 to 2147483647 is accepted");
        assertThatThrownBy(() -> bytes().select(Functions.toAvro(col("value"), "\"bytes\"",
                Map.of("wireFormat", "registry"))))
                .hasMessage("Invalid value 'registry' for option 'wireFormat': plain, confluent is accepted "
                        + "(case-insensitive)");
    }

    static byte[] write(Schema schema, Object datum) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<>(schema).write(datum, enc);
        enc.flush();
        return out.toByteArray();
    }

    static ByteBuffer buffer(byte... b) {
        return ByteBuffer.wrap(b);
    }
}
