package io.sluice.avro;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * SQL {@code from_avro(data, jsonFormatSchema [, options])}, spark-avro's {@code AvroDataToCatalyst}: decodes a
 * binary value holding one Avro datum written with {@code jsonFormatSchema} (no container file header). The result
 * type is the SQL type of the schema ({@code avroSchema} when given: a reader schema the datum is resolved against),
 * always nullable (NULL for NULL input). A value that is not a datum of the schema fails the query with Spark's
 * message in mode FAILFAST (the default) and gives NULL (a struct of NULLs for a record schema, as Spark's) in
 * PERMISSIVE, which also makes the result type nullable throughout. Beyond Spark, {@code wireFormat} {@code
 * confluent} reads a schema registry's framing first (docs/avro-functions.md).
 */
public final class FromAvroFunction implements SqlFunction {
    static final String SCHEMA_REFUSAL = "The second argument of the FROM_AVRO SQL function must be a constant "
            + "string containing the JSON representation of the schema to use for converting the value from AVRO "
            + "format.";
    static final String OPTIONS_REFUSAL = "The third argument of the FROM_AVRO SQL function must be a constant map "
            + "of strings to strings containing the options to use for converting the value from AVRO format.";
    static final String FAILFAST = "Malformed records are detected in record parsing. Current parse Mode: "
            + "FAILFAST. To process malformed records as null result, try setting the option 'mode' as "
            + "'PERMISSIVE'.";

    @Override
    public String name() {
        return "from_avro";
    }

    @Override
    public Binding bind(Call call) {
        List<Argument> args = call.arguments();
        if (args.size() < 2 || args.size() > 3) {
            throw new IllegalArgumentException("The function `from_avro` requires 2 to 3 parameters but the actual "
                    + "number is " + args.size() + ".");
        }
        Argument data = args.get(0);
        if (data.type() != null && !data.type().equals(DataType.binaryType())) {
            throw new IllegalArgumentException(AvroFunctionOptions.mismatch(call, "The first parameter requires the "
                    + "\"BINARY\" type, however \"" + data.sql() + "\" has the type \"" + data.type().sql() + "\"."));
        }
        Argument schemaArg = args.get(1);
        if (!schemaArg.constant() || !(schemaArg.type() == null || schemaArg.type().equals(DataType.stringType()))) {
            throw new IllegalArgumentException(AvroFunctionOptions.mismatch(call, SCHEMA_REFUSAL));
        }
        Options options = AvroFunctionOptions.of(call, 2, OPTIONS_REFUSAL);
        OptionSet set = AvroFunctionOptions.FROM_AVRO;
        boolean permissive = mode(options);
        set.validate(options);
        set.get(options, AvroFunctionOptions.DATETIME_REBASE_MODE.name());
        Integer schemaId = AvroFunctionOptions.schemaId(set, options);

        Schema writer = parse(schemaArg.value() == null ? "" : (String) schemaArg.value(), "the schema");
        Schema reader = options.get(AvroFunctionOptions.AVRO_SCHEMA.name())
                .map(json -> parse(json, "the avroSchema option")).orElse(null);
        AvroSchemas.ReadSettings settings;
        try {
            settings = new AvroSchemas.ReadSettings(
                    set.getBoolean(options, AvroFunctionOptions.STABLE_UNION_IDS.name()),
                    set.require(options, AvroFunctionOptions.STABLE_UNION_PREFIX.name()),
                    set.getInt(options, AvroFunctionOptions.RECURSIVE_DEPTH.name()));
        } catch (InvalidOptionException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(AvroFunctionOptions.RECURSIVE_DEPTH.name(),
                    options.get(AvroFunctionOptions.RECURSIVE_DEPTH.name()).orElse(null), e.getMessage(), true);
        }
        DataType type;
        AvroDatumDecoder first;
        try {
            type = AvroSchemas.toSqlType(reader == null ? writer : reader, settings).dataType();
            if (permissive) {
                type = asNullable(type);
            }
            first = AvroDatumDecoder.of(writer, reader, type, false);
        } catch (IncompatibleSchemaException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        DataType resultType = type;
        Object malformedResult = permissive && type instanceof StructType st ? st : null;
        // A decoder reuses its buffers: one per reader thread, the first one made here so that a schema that does
        // not fit fails the analysis, not the first row.
        ThreadLocal<AvroDatumDecoder> decoders = ThreadLocal.withInitial(
                () -> AvroDatumDecoder.of(writer, reader, resultType, false));
        decoders.set(first);
        return new Binding(resultType, true, values -> {
            byte[] bytes = (byte[]) values[0];
            if (bytes == null) {
                return null;
            }
            try {
                int offset = schemaId == null ? 0 : WireFormat.bodyOffset(bytes, schemaId);
                return decoders.get().decode(bytes, offset, bytes.length - offset);
            } catch (MalformedAvroException e) {
                if (!permissive) {
                    throw new IllegalStateException(FAILFAST + " Cause: " + e.getMessage(), e);
                }
                return malformedResult == null ? null : Row.wrap(new Object[((StructType) malformedResult).size()]);
            }
        });
    }

    /** True for PERMISSIVE; FAILFAST is the default; DROPMALFORMED gets Spark's PARSE_MODE_UNSUPPORTED. */
    private static boolean mode(Options options) {
        String mode = options.get(AvroFunctionOptions.MODE.name()).orElse("FAILFAST").trim()
                .toUpperCase(Locale.ROOT);
        if (mode.equals("DROPMALFORMED")) {
            throw new InvalidOptionException("mode", mode, "The function `from_avro` doesn't support the "
                    + "DROPMALFORMED mode. Acceptable modes are PERMISSIVE and FAILFAST.", true);
        }
        return AvroFunctionOptions.FROM_AVRO.get(options, "mode").orElseThrow().trim()
                .equalsIgnoreCase("PERMISSIVE");
    }

    /** As Spark parses from_avro's schemas: defaults are not validated. */
    private static Schema parse(String json, String what) {
        try {
            return new Schema.Parser().setValidateDefaults(false).parse(json);
        } catch (SchemaParseException e) {
            throw new IllegalArgumentException("Cannot parse " + what + " of from_avro as an Avro schema: "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Cannot parse " + what + " of from_avro as an Avro schema: "
                    + e, e);
        }
    }

    /** The type with every field, element and value nullable (Spark's asNullable). */
    static DataType asNullable(DataType t) {
        if (t instanceof StructType s) {
            List<StructField> fields = new ArrayList<>();
            for (StructField f : s.fields()) {
                fields.add(new StructField(f.name(), asNullable(f.dataType()), true));
            }
            return new StructType(fields);
        }
        if (t instanceof ArrayType a) {
            return new ArrayType(asNullable(a.elementType()), true);
        }
        if (t instanceof MapType m) {
            return new MapType(asNullable(m.keyType()), asNullable(m.valueType()), true);
        }
        return t;
    }
}
