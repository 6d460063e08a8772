package io.sluice.avro;

import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaParseException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The mapping between Avro schemas and Sluice types, as spark-avro's {@code SchemaConverters} maps Avro and Spark
 * SQL types (Spark 4.2), both ways. Stateless; every method is thread-safe.
 *
 * <p>Avro to Sluice ({@link #toSqlType(Schema)}): {@code record} → struct (fields in the record's order, each
 * nullable when its Avro type is), {@code array} → array, {@code map} → {@code map<string,V>}, {@code enum} and
 * {@code string} (also with logical type {@code uuid}) → string, {@code fixed} and {@code bytes} → binary, or
 * decimal(p,s) with the {@code decimal} logical type, {@code int} → int, or date with {@code date}, {@code long}
 * → bigint, or timestamp with {@code timestamp-millis}/{@code timestamp-micros}, and also timestamp with
 * {@code local-timestamp-millis}/{@code local-timestamp-micros}, where Spark gives {@code timestamp_ntz} (Sluice has
 * no {@code timestamp_ntz}: the local date-time is read as if it were UTC), {@code float}, {@code double},
 * {@code boolean} → the same. A union with {@code null} → the rest of the union, nullable; a union of one type →
 * that type; of {@code int} and {@code long} → bigint; of {@code float} and {@code double} → double; any other
 * union → {@code struct<member0, member1, ...>} of its branches in order, every member nullable (with
 * {@code enableStableIdentifiersForUnionType}: members named {@code <prefix><branch's name>}). A record that
 * contains itself is refused with Spark's message unless {@code recursiveFieldMaxDepth} is 1 to 15, which drops the
 * field at that depth as Spark does. The Avro {@code null} type alone (or a union of only {@code null}) is refused:
 * Sluice has no {@code void} type.
 *
 * <p>Sluice to Avro ({@link #toAvroType}): boolean, int (also tinyint, smallint), bigint, float, double, string,
 * binary → {@code boolean}, {@code int}, {@code long}, {@code float}, {@code double}, {@code string}, {@code bytes};
 * date → {@code int} with {@code date}; timestamp → {@code long} with {@code timestamp-micros}; decimal(p,s) →
 * {@code fixed} of the fewest bytes that hold p digits, logical type {@code decimal(p,s)}, named
 * {@code <namespace>.<recordName>.fixed}; array → {@code array}; {@code map<string,V>} → {@code map} (other key types
 * are refused, as Spark does); struct → {@code record} named {@code recordName} in {@code namespace}, its nested
 * records named after their field, in namespace {@code <namespace>.<recordName>}; a nullable type → the union
 * {@code [T, "null"]}.
 */
public final class AvroSchemas {
    /** Spark's {@code AvroOptions.RECURSIVE_FIELD_MAX_DEPTH_LIMIT}. */
    public static final int RECURSIVE_FIELD_MAX_DEPTH_LIMIT = 15;
    /** Spark's default {@code recordName} of the top-level record. */
    public static final String DEFAULT_RECORD_NAME = "topLevelRecord";

    private AvroSchemas() {
    }

    /** A Sluice type and whether its values may be null: Spark's {@code SchemaConverters.SchemaType}. */
    public record SchemaType(DataType dataType, boolean nullable) {
    }

    /**
     * How Avro schemas are read: Spark's {@code enableStableIdentifiersForUnionType} (false),
     * {@code stableIdentifierPrefixForUnionType} ({@code member_}) and {@code recursiveFieldMaxDepth} (-1: a
     * recursive record is refused; 1 to 15: recursive fields deeper than that are dropped).
     */
    public record ReadSettings(boolean useStableIdForUnionType, String stableIdPrefixForUnionType,
                               int recursiveFieldMaxDepth) {
        /** Spark's defaults. */
        public static final ReadSettings DEFAULT = new ReadSettings(false, "member_", -1);

        public ReadSettings {
            if (recursiveFieldMaxDepth > RECURSIVE_FIELD_MAX_DEPTH_LIMIT) {
                throw new IllegalArgumentException("Should not set recursiveFieldMaxDepth greater than "
                        + RECURSIVE_FIELD_MAX_DEPTH_LIMIT + ", but got " + recursiveFieldMaxDepth + ".");
            }
        }
    }

    /**
     * Parses an Avro schema from its JSON form ({@code avroSchema} options).
     *
     * @throws IllegalArgumentException with Avro's message when the JSON is not a valid Avro schema
     */
    public static Schema parse(String json) {
        try {
            // Spark parses avroSchema without validating defaults.
            return new Schema.Parser().setValidateDefaults(false).parse(json);
        } catch (SchemaParseException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The Sluice type of an Avro schema with Spark's default settings. */
    public static SchemaType toSqlType(Schema avroSchema) {
        return toSqlType(avroSchema, ReadSettings.DEFAULT);
    }

    /**
     * The Sluice type of an Avro schema, as Spark's {@code SchemaConverters.toSqlType}.
     *
     * @throws IncompatibleSchemaException for a recursive record (unless settings allow it) or the null type
     */
    public static SchemaType toSqlType(Schema avroSchema, ReadSettings settings) {
        SchemaType t = toSql(avroSchema, Map.of(), settings);
        if (t == null) {
            // Only a top-level record can be dropped, and it never recurses into itself at depth 0.
            throw new IllegalStateException("no type for " + avroSchema);
        }
        return t;
    }

    /**
     * The struct of a record schema (the schema of an Avro file), as Spark's {@code AvroUtils.inferSchema}.
     *
     * @throws IncompatibleSchemaException when the schema is not a record (Spark's message)
     */
    public static StructType toStructType(Schema avroSchema, ReadSettings settings) {
        if (toSqlType(avroSchema, settings).dataType() instanceof StructType st) {
            return st;
        }
        throw new IncompatibleSchemaException("Avro schema cannot be converted to a Spark SQL StructType:\n\n"
                + avroSchema.toString(true) + "\n");
    }

    private static SchemaType toSql(Schema s, Map<String, Integer> seen, ReadSettings settings) {
        LogicalType lt = s.getLogicalType();
        switch (s.getType()) {
            case INT:
                return new SchemaType(lt instanceof LogicalTypes.Date ? DataType.dateType() : DataType.intType(), false);
            case STRING:
                return new SchemaType(DataType.stringType(), false);
            case BOOLEAN:
                return new SchemaType(DataType.booleanType(), false);
            case BYTES:
            case FIXED:
                if (lt instanceof LogicalTypes.Decimal d) {
                    return new SchemaType(decimalType(d), false);
                }
                return new SchemaType(DataType.binaryType(), false);
            case DOUBLE:
                return new SchemaType(DataType.doubleType(), false);
            case FLOAT:
                return new SchemaType(DataType.floatType(), false);
            case LONG:
                if (lt instanceof LogicalTypes.TimestampMillis || lt instanceof LogicalTypes.TimestampMicros
                        || lt instanceof LogicalTypes.LocalTimestampMillis
                        || lt instanceof LogicalTypes.LocalTimestampMicros) {
                    return new SchemaType(DataType.timestampType(), false);
                }
                return new SchemaType(DataType.longType(), false);
            case ENUM:
                return new SchemaType(DataType.stringType(), false);
            case RECORD: {
                int depth = seen.getOrDefault(s.getFullName(), 0);
                int max = settings.recursiveFieldMaxDepth();
                if (depth > 0 && max <= 0) {
                    throw new IncompatibleSchemaException("Found recursive reference in Avro schema, which can not be "
                            + "processed by Spark by\n default: " + s.toString(true) + ". Try setting the option "
                            + "`recursiveFieldMaxDepth`\n to 1 - " + RECURSIVE_FIELD_MAX_DEPTH_LIMIT + ".");
                }
                if (depth > 0 && depth >= max) {
                    return null;
                }
                Map<String, Integer> next = new HashMap<>(seen);
                next.put(s.getFullName(), depth + 1);
                List<StructField> fields = new ArrayList<>();
                for (Schema.Field f : s.getFields()) {
                    SchemaType ft = toSql(f.schema(), next, settings);
                    if (ft != null) {
                        fields.add(new StructField(f.name(), ft.dataType(), ft.nullable()));
                    }
                }
                return new SchemaType(new StructType(fields), false);
            }
            case ARRAY: {
                SchemaType et = toSql(s.getElementType(), seen, settings);
                return et == null ? null : new SchemaType(new ArrayType(et.dataType(), et.nullable()), false);
            }
            case MAP: {
                SchemaType vt = toSql(s.getValueType(), seen, settings);
                return vt == null ? null
                        : new SchemaType(new MapType(DataType.stringType(), vt.dataType(), vt.nullable()), false);
            }
            case UNION:
                return union(s, seen, settings);
            default:
                // NULL: Spark's NullType, which Sluice does not have.
                throw new IncompatibleSchemaException("Unsupported type " + s.getType());
        }
    }

    private static SchemaType union(Schema s, Map<String, Integer> seen, ReadSettings settings) {
        List<Schema> branches = s.getTypes();
        List<Schema> nonNull = nonNullBranches(s);
        if (nonNull.size() < branches.size()) {
            if (nonNull.isEmpty()) {
                throw new IncompatibleSchemaException("Unsupported type " + Schema.Type.NULL);
            }
            Schema rest = nonNull.size() == 1 ? nonNull.get(0) : Schema.createUnion(nonNull);
            SchemaType t = toSql(rest, seen, settings);
            return t == null ? null : new SchemaType(t.dataType(), true);
        }
        if (branches.size() == 1) {
            return toSql(branches.get(0), seen, settings);
        }
        if (branches.size() == 2) {
            Set<Schema.Type> types = Set.of(branches.get(0).getType(), branches.get(1).getType());
            if (types.equals(Set.of(Schema.Type.INT, Schema.Type.LONG))) {
                return new SchemaType(DataType.longType(), false);
            }
            if (types.equals(Set.of(Schema.Type.FLOAT, Schema.Type.DOUBLE))) {
                return new SchemaType(DataType.doubleType(), false);
            }
        }
        Set<String> names = new HashSet<>();
        List<StructField> fields = new ArrayList<>();
        for (int i = 0; i < branches.size(); i++) {
            Schema b = branches.get(i);
            SchemaType t = toSql(b, seen, settings);
            if (t == null) {
                continue;
            }
            String name;
            if (settings.useStableIdForUnionType()) {
                name = settings.stableIdPrefixForUnionType() + b.getName();
                if (!names.add(name.toLowerCase(Locale.ROOT))) {
                    throw new IncompatibleSchemaException("Cannot generate stable identifier for Avro union type due "
                            + "to name conflict of type name " + b.getName());
                }
            } else {
                name = "member" + i;
            }
            fields.add(new StructField(name, t.dataType(), true));
        }
        return new SchemaType(new StructType(fields), false);
    }

    private static DecimalType decimalType(LogicalTypes.Decimal d) {
        if (d.getPrecision() > DecimalType.MAX_PRECISION) {
            throw new IncompatibleSchemaException("Unsupported type decimal(" + d.getPrecision() + "," + d.getScale()
                    + "): the precision is greater than " + DecimalType.MAX_PRECISION);
        }
        return new DecimalType(d.getPrecision(), d.getScale());
    }

    /** The branches of a union that are not {@code null}, in order. */
    static List<Schema> nonNullBranches(Schema union) {
        List<Schema> out = new ArrayList<>(union.getTypes().size());
        for (Schema b : union.getTypes()) {
            if (b.getType() != Schema.Type.NULL) {
                out.add(b);
            }
        }
        return out;
    }

    /** The Avro schema Spark writes for a Sluice type with the default names ({@code topLevelRecord}, no namespace). */
    public static Schema toAvroType(DataType type, boolean nullable) {
        return toAvroType(type, nullable, DEFAULT_RECORD_NAME, "");
    }

    /**
     * The Avro schema Spark's {@code SchemaConverters.toAvroType} gives a Sluice type: the output schema of the avro
     * file sink and of {@code to_avro} without a schema.
     *
     * @param recordName the name of a struct's record (Spark's {@code recordName}, {@code topLevelRecord})
     * @param namespace  the record's namespace (Spark's {@code recordNamespace}, {@code ""})
     * @throws IncompatibleSchemaException for a map whose keys are not strings (Spark's message)
     */
    public static Schema toAvroType(DataType type, boolean nullable, String recordName, String namespace) {
        SchemaBuilder.TypeBuilder<Schema> builder = SchemaBuilder.builder();
        Schema schema;
        if (type instanceof AtomicType a) {
            schema = switch (a) {
                case BOOLEAN_TYPE -> builder.booleanType();
                case BYTE_TYPE, SHORT_TYPE, INT_TYPE -> builder.intType();
                case LONG_TYPE -> builder.longType();
                case DATE_TYPE -> LogicalTypes.date().addToSchema(builder.intType());
                case TIMESTAMP_TYPE -> LogicalTypes.timestampMicros().addToSchema(builder.longType());
                case FLOAT_TYPE -> builder.floatType();
                case DOUBLE_TYPE -> builder.doubleType();
                case STRING_TYPE -> builder.stringType();
                case BINARY_TYPE -> builder.bytesType();
            };
        } else if (type instanceof DecimalType d) {
            String name = namespace.isEmpty() ? recordName + ".fixed" : namespace + "." + recordName + ".fixed";
            schema = LogicalTypes.decimal(d.precision(), d.scale())
                    .addToSchema(SchemaBuilder.fixed(name).size(minBytesForPrecision(d.precision())));
        } else if (type instanceof ArrayType at) {
            schema = builder.array().items(toAvroType(at.elementType(), at.containsNull(), recordName, namespace));
        } else if (type instanceof MapType mt && mt.keyType() == AtomicType.STRING_TYPE) {
            schema = builder.map().values(toAvroType(mt.valueType(), mt.valueContainsNull(), recordName, namespace));
        } else if (type instanceof StructType st) {
            String childNamespace = namespace.isEmpty() ? recordName : namespace + "." + recordName;
            SchemaBuilder.FieldAssembler<Schema> fields = builder.record(recordName).namespace(namespace).fields();
            for (StructField f : st.fields()) {
                fields.name(f.name()).type(toAvroType(f.dataType(), f.nullable(), f.name(), childNamespace)).noDefault();
            }
            schema = fields.endRecord();
        } else {
            throw new IncompatibleSchemaException("Unexpected type " + type.sparkString() + ".");
        }
        return nullable ? Schema.createUnion(schema, Schema.create(Schema.Type.NULL)) : schema;
    }

    /** Spark's {@code Decimal.minBytesForPrecision}: the fewest bytes whose two's complement holds p digits. */
    static int minBytesForPrecision(int precision) {
        int n = 1;
        while (Math.pow(2.0, 8 * n - 1) < Math.pow(10.0, precision)) {
            n++;
        }
        return n;
    }
}
