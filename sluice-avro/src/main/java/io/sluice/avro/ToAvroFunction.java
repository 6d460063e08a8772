package io.sluice.avro;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.types.DataType;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

import java.util.List;

/**
 * SQL {@code to_avro(data [, jsonFormatSchema [, options]])}, spark-avro's {@code CatalystDataToAvro}: one binary
 * Avro datum per value (NULL for NULL), written with {@code jsonFormatSchema} or, without it (or with NULL), with
 * the schema spark-avro derives from the value's type (a nullable value as the union {@code [T, "null"]}). The
 * result is nullable when the value is. Beyond Spark, the options {@code wireFormat confluent} and
 * {@code schemaId} put a schema registry's header before each datum (docs/avro-functions.md).
 */
public final class ToAvroFunction implements SqlFunction {
    static final String SCHEMA_REFUSAL = "The second argument of the TO_AVRO SQL function must be a constant "
            + "string containing the JSON representation of the schema to use for converting the value to AVRO "
            + "format.";
    static final String OPTIONS_REFUSAL = "The third argument of the TO_AVRO SQL function must be a constant map "
            + "of strings to strings containing the options to use for converting the value to AVRO format.";

    @Override
    public String name() {
        return "to_avro";
    }

    @Override
    public Binding bind(Call call) {
        List<Argument> args = call.arguments();
        if (args.isEmpty() || args.size() > 3) {
            throw new IllegalArgumentException("The function `to_avro` requires 1 to 3 parameters but the actual "
                    + "number is " + args.size() + ".");
        }
        Argument data = args.get(0);
        String json = null;
        if (args.size() > 1) {
            Argument s = args.get(1);
            if (!s.constant() || !(s.type() == null || s.type().equals(DataType.stringType()))) {
                throw new IllegalArgumentException(AvroFunctionOptions.mismatch(call, SCHEMA_REFUSAL));
            }
            json = (String) s.value();
        }
        Options options = AvroFunctionOptions.of(call, 2, OPTIONS_REFUSAL);
        OptionSet set = AvroFunctionOptions.TO_AVRO;
        set.validate(options);
        Integer schemaId = AvroFunctionOptions.schemaId(set, options);
        if (data.type() == null) { // an untyped NULL: Spark never encodes it, the result is NULL
            return new Binding(DataType.binaryType(), true, values -> null);
        }
        DataType type = data.type();
        boolean nullable = data.nullable();
        Schema schema = json == null ? null : parse(json);
        AvroDatumEncoder first;
        try {
            first = schema == null ? AvroDatumEncoder.of(type, nullable)
                    : AvroDatumEncoder.of(type, nullable, schema, false);
        } catch (IncompatibleSchemaException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Schema written = first.schema();
        // An encoder reuses its buffer: one per reader thread, the first one made here so that a schema that does
        // not fit fails the analysis, not the first row.
        ThreadLocal<AvroDatumEncoder> encoders = ThreadLocal.withInitial(
                () -> AvroDatumEncoder.of(type, nullable, written, false));
        encoders.set(first);
        return new Binding(DataType.binaryType(), nullable, values -> {
            Object v = values[0];
            if (v == null) {
                return null;
            }
            byte[] datum = encoders.get().encode(v);
            return schemaId == null ? datum : WireFormat.frame(datum, schemaId);
        });
    }

    private static Schema parse(String json) {
        try {
            return new Schema.Parser().parse(json);
        } catch (SchemaParseException e) {
            throw new IllegalArgumentException("Cannot parse the schema of to_avro as an Avro schema: "
                    + e.getMessage(), e);
        }
    }
}
