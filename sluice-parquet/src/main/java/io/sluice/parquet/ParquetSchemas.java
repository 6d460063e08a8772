package io.sluice.parquet;

import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * Sluice types to Parquet types and back, as Spark's {@code ParquetSchemaConverter} (non-legacy) maps them:
 * tinyint/smallint INT32 with INT(8/16), date INT32 DATE, timestamp INT96 (or INT64 TIMESTAMP micros/millis per
 * {@code spark.sql.parquet.outputTimestampType}), decimal INT32 (p &le; 9), INT64 (p &le; 18) else
 * FIXED_LEN_BYTE_ARRAY, string BINARY STRING, array a 3-level LIST ({@code list}/{@code element}), map a MAP
 * ({@code key_value}/{@code key}/{@code value}); nullable fields optional. The message is {@code spark_schema}.
 */
final class ParquetSchemas {
    static final String MESSAGE_NAME = "spark_schema";

    /** Spark's {@code spark.sql.parquet.outputTimestampType}. */
    enum TimestampOutput { INT96, TIMESTAMP_MICROS, TIMESTAMP_MILLIS }

    private ParquetSchemas() {
    }

    static MessageType toParquet(StructType schema, int[] columns, TimestampOutput ts) {
        List<Type> fields = new ArrayList<>();
        for (int c : columns) {
            StructField f = schema.field(c);
            fields.add(toParquet(f.name(), f.dataType(), f.nullable(), ts));
        }
        return new MessageType(MESSAGE_NAME, fields);
    }

    static Type toParquet(String name, DataType t, boolean nullable, TimestampOutput ts) {
        Repetition rep = nullable ? Repetition.OPTIONAL : Repetition.REQUIRED;
        if (t instanceof DecimalType d) {
            LogicalTypeAnnotation dec = LogicalTypeAnnotation.decimalType(d.scale(), d.precision());
            if (d.precision() <= 9) {
                return Types.primitive(PrimitiveTypeName.INT32, rep).as(dec).named(name);
            }
            if (d.precision() <= 18) {
                return Types.primitive(PrimitiveTypeName.INT64, rep).as(dec).named(name);
            }
            return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep).length(decimalBytes(d.precision()))
                    .as(dec).named(name);
        }
        if (t instanceof ArrayType a) {
            return Types.buildGroup(rep).as(LogicalTypeAnnotation.listType())
                    .addField(Types.repeatedGroup().addField(toParquet("element", a.elementType(),
                            a.containsNull(), ts)).named("list")).named(name);
        }
        if (t instanceof MapType m) {
            return Types.buildGroup(rep).as(LogicalTypeAnnotation.mapType())
                    .addField(Types.repeatedGroup()
                            .addField(toParquet("key", m.keyType(), false, ts))
                            .addField(toParquet("value", m.valueType(), m.valueContainsNull(), ts))
                            .named("key_value")).named(name);
        }
        if (t instanceof StructType s) {
            Types.GroupBuilder<GroupType> g = Types.buildGroup(rep);
            for (StructField f : s.fields()) {
                g.addField(toParquet(f.name(), f.dataType(), f.nullable(), ts));
            }
            return g.named(name);
        }
        AtomicType a = (AtomicType) t;
        return switch (a) {
            case BOOLEAN_TYPE -> Types.primitive(PrimitiveTypeName.BOOLEAN, rep).named(name);
            case BYTE_TYPE -> Types.primitive(PrimitiveTypeName.INT32, rep)
                    .as(LogicalTypeAnnotation.intType(8, true)).named(name);
            case SHORT_TYPE -> Types.primitive(PrimitiveTypeName.INT32, rep)
                    .as(LogicalTypeAnnotation.intType(16, true)).named(name);
            case INT_TYPE -> Types.primitive(PrimitiveTypeName.INT32, rep).named(name);
            case LONG_TYPE -> Types.primitive(PrimitiveTypeName.INT64, rep).named(name);
            case FLOAT_TYPE -> Types.primitive(PrimitiveTypeName.FLOAT, rep).named(name);
            case DOUBLE_TYPE -> Types.primitive(PrimitiveTypeName.DOUBLE, rep).named(name);
            case STRING_TYPE -> Types.primitive(PrimitiveTypeName.BINARY, rep)
                    .as(LogicalTypeAnnotation.stringType()).named(name);
            case BINARY_TYPE -> Types.primitive(PrimitiveTypeName.BINARY, rep).named(name);
            case DATE_TYPE -> Types.primitive(PrimitiveTypeName.INT32, rep)
                    .as(LogicalTypeAnnotation.dateType()).named(name);
            case TIMESTAMP_TYPE -> switch (ts) {
                case INT96 -> Types.primitive(PrimitiveTypeName.INT96, rep).named(name);
                case TIMESTAMP_MICROS -> Types.primitive(PrimitiveTypeName.INT64, rep)
                        .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS)).named(name);
                case TIMESTAMP_MILLIS -> Types.primitive(PrimitiveTypeName.INT64, rep)
                        .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MILLIS)).named(name);
            };
        };
    }

    /** Spark's {@code Decimal.minBytesForPrecision}. */
    static int decimalBytes(int precision) {
        int bytes = 1;
        while (Math.pow(2.0, 8 * bytes - 1) < Math.pow(10.0, precision)) {
            bytes++;
        }
        return bytes;
    }

    /**
     * The Sluice type of a Parquet file's schema (the files' own schema, when the user opts in to inference), as
     * Spark's converter reads it: unsigned and unannotated types widened as Spark does, INT96 and every INT64
     * TIMESTAMP as timestamp (TIMESTAMP_NTZ too: Sluice has no timestamp_ntz type), un-annotated BINARY as binary.
     *
     * @throws IllegalArgumentException for a type Sluice cannot hold (INTERVAL, TIME, UINT64...)
     */
    static StructType toSluice(GroupType g) {
        List<StructField> fields = new ArrayList<>();
        for (Type f : g.getFields()) {
            if (f.isRepetition(Repetition.REPEATED)) {
                // A repeated field outside a LIST group (protobuf-style): an array of non-null elements.
                fields.add(new StructField(f.getName(), new ArrayType(toSluice(f, true), false), false));
            } else {
                fields.add(new StructField(f.getName(), toSluice(f, false), f.isRepetition(Repetition.OPTIONAL)));
            }
        }
        return new StructType(fields);
    }

    private static DataType toSluice(Type t, boolean ignoreRepetition) {
        LogicalTypeAnnotation l = t.getLogicalTypeAnnotation();
        if (!t.isPrimitive()) {
            GroupType g = t.asGroupType();
            if (l instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation && g.getFieldCount() == 1) {
                Type element = ParquetReading.listElement(g);
                return new ArrayType(toSluice(element, true), !element.isRepetition(Repetition.REQUIRED)
                        && !element.isRepetition(Repetition.REPEATED));
            }
            if ((l instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                    || l instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) && g.getFieldCount() == 1
                    && !g.getType(0).isPrimitive() && g.getType(0).asGroupType().getFieldCount() == 2) {
                GroupType kv = g.getType(0).asGroupType();
                return new MapType(toSluice(kv.getType(0), true), toSluice(kv.getType(1), true),
                        !kv.getType(1).isRepetition(Repetition.REQUIRED));
            }
            return toSluice(g);
        }
        PrimitiveType p = t.asPrimitiveType();
        if (l instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            return new DecimalType(d.getPrecision(), d.getScale());
        }
        switch (p.getPrimitiveTypeName()) {
            case BOOLEAN:
                return AtomicType.BOOLEAN_TYPE;
            case INT32:
                if (l instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    return AtomicType.DATE_TYPE;
                }
                if (l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i) {
                    if (!i.isSigned()) {
                        return i.getBitWidth() == 32 ? AtomicType.LONG_TYPE : AtomicType.INT_TYPE;
                    }
                    return i.getBitWidth() == 8 ? AtomicType.BYTE_TYPE
                            : i.getBitWidth() == 16 ? AtomicType.SHORT_TYPE : AtomicType.INT_TYPE;
                }
                if (l == null) {
                    return AtomicType.INT_TYPE;
                }
                break;
            case INT64:
                if (l instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                        && ts.getUnit() != TimeUnit.NANOS) {
                    return AtomicType.TIMESTAMP_TYPE;
                }
                if (l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i) {
                    if (!i.isSigned()) {
                        return new DecimalType(20, 0);
                    }
                    return AtomicType.LONG_TYPE;
                }
                if (l == null) {
                    return AtomicType.LONG_TYPE;
                }
                break;
            case INT96:
                return AtomicType.TIMESTAMP_TYPE;
            case FLOAT:
                return AtomicType.FLOAT_TYPE;
            case DOUBLE:
                return AtomicType.DOUBLE_TYPE;
            case BINARY:
                if (l instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        || l instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                        || l instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
                    return AtomicType.STRING_TYPE;
                }
                if (l == null || l instanceof LogicalTypeAnnotation.BsonLogicalTypeAnnotation) {
                    return AtomicType.BINARY_TYPE;
                }
                break;
            case FIXED_LEN_BYTE_ARRAY:
                if (l == null) {
                    return AtomicType.BINARY_TYPE;
                }
                break;
            default:
                break;
        }
        throw new IllegalArgumentException("[PARQUET_TYPE_NOT_SUPPORTED] Parquet type not supported: " + p
                + " (column " + t.getName() + ").");
    }

    /**
     * Spark's {@code StructType.merge}: the fields of {@code a} then those only {@code b} has; a field of both
     * merged (structs field by field, arrays and maps by their element, key and value types), nullable if
     * either is.
     *
     * @throws IllegalArgumentException with Spark's message for two types that do not merge
     */
    static StructType merge(StructType a, StructType b) {
        List<StructField> fields = new ArrayList<>();
        for (StructField f : a.fields()) {
            int j = b.indexOf(f.name());
            if (j < 0) {
                fields.add(f);
            } else {
                StructField g = b.field(j);
                fields.add(new StructField(f.name(), merge(f.dataType(), g.dataType()), f.nullable() || g.nullable()));
            }
        }
        for (StructField g : b.fields()) {
            if (a.indexOf(g.name()) < 0) {
                fields.add(g);
            }
        }
        return new StructType(fields);
    }

    private static DataType merge(DataType a, DataType b) {
        if (a instanceof StructType x && b instanceof StructType y) {
            return merge(x, y);
        }
        if (a instanceof ArrayType x && b instanceof ArrayType y) {
            return new ArrayType(merge(x.elementType(), y.elementType()), x.containsNull() || y.containsNull());
        }
        if (a instanceof MapType x && b instanceof MapType y) {
            return new MapType(merge(x.keyType(), y.keyType()), merge(x.valueType(), y.valueType()),
                    x.valueContainsNull() || y.valueContainsNull());
        }
        if (a.equals(b)) {
            return a;
        }
        throw new IllegalArgumentException("[CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE] Failed to merge incompatible data "
                + "types \"" + a.sql() + "\" and \"" + b.sql() + "\". SQLSTATE: 42825");
    }

    /** The schema as Spark's {@code StructType.json}, written in the footer for Spark to read it back. */
    static String sparkJson(StructType schema, int[] columns) {
        StringBuilder sb = new StringBuilder("{\"type\":\"struct\",\"fields\":[");
        for (int i = 0; i < columns.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            field(sb, schema.field(columns[i]));
        }
        return sb.append("]}").toString();
    }

    private static void field(StringBuilder sb, StructField f) {
        sb.append("{\"name\":");
        quote(sb, f.name());
        sb.append(",\"type\":");
        json(sb, f.dataType());
        sb.append(",\"nullable\":").append(f.nullable()).append(",\"metadata\":{}}");
    }

    private static void json(StringBuilder sb, DataType t) {
        if (t instanceof ArrayType a) {
            sb.append("{\"type\":\"array\",\"elementType\":");
            json(sb, a.elementType());
            sb.append(",\"containsNull\":").append(a.containsNull()).append('}');
        } else if (t instanceof MapType m) {
            sb.append("{\"type\":\"map\",\"keyType\":");
            json(sb, m.keyType());
            sb.append(",\"valueType\":");
            json(sb, m.valueType());
            sb.append(",\"valueContainsNull\":").append(m.valueContainsNull()).append('}');
        } else if (t instanceof StructType s) {
            sb.append("{\"type\":\"struct\",\"fields\":[");
            for (int i = 0; i < s.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                field(sb, s.field(i));
            }
            sb.append("]}");
        } else if (t instanceof DecimalType d) {
            sb.append("\"decimal(").append(d.precision()).append(',').append(d.scale()).append(")\"");
        } else {
            String name = switch ((AtomicType) t) {
                case BYTE_TYPE -> "byte";
                case SHORT_TYPE -> "short";
                case INT_TYPE -> "integer";
                case LONG_TYPE -> "long";
                default -> t.simpleString();
            };
            sb.append('"').append(name).append('"');
        }
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }
}
