package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Iceberg's types to Sluice's and back, as iceberg-spark maps them (TypeToSparkType, SparkTypeToType), and Iceberg's
 * values to Sluice's: timestamptz is Spark's timestamp; byte and short are written as int. Iceberg's timestamp
 * without zone, time, uuid and fixed have no Sluice type yet and are refused with the column's name. The sink's
 * values go the other way through {@link RowStruct}.
 */
final class IcebergSchemas {
    private IcebergSchemas() {
    }

    static StructType toSluice(Schema schema) {
        return (StructType) toSluice("", schema.asStruct());
    }

    private static DataType toSluice(String column, Type type) {
        return switch (type.typeId()) {
            case BOOLEAN -> DataType.booleanType();
            case INTEGER -> DataType.intType();
            case LONG -> DataType.longType();
            case FLOAT -> DataType.floatType();
            case DOUBLE -> DataType.doubleType();
            case STRING -> DataType.stringType();
            case BINARY -> DataType.binaryType();
            case DATE -> DataType.dateType();
            case DECIMAL -> new DecimalType(((Types.DecimalType) type).precision(), ((Types.DecimalType) type).scale());
            case TIMESTAMP -> {
                if (!((Types.TimestampType) type).shouldAdjustToUTC()) {
                    throw unsupported(column, type);
                }
                yield DataType.timestampType();
            }
            case STRUCT -> {
                List<StructField> fields = new ArrayList<>();
                for (Types.NestedField f : type.asStructType().fields()) {
                    fields.add(new StructField(f.name(), toSluice(column + f.name(), f.type()), f.isOptional()));
                }
                yield new StructType(fields);
            }
            case LIST -> new ArrayType(toSluice(column, type.asListType().elementType()),
                    type.asListType().isElementOptional());
            case MAP -> new MapType(toSluice(column, type.asMapType().keyType()),
                    toSluice(column, type.asMapType().valueType()), type.asMapType().isValueOptional());
            default -> throw unsupported(column, type);
        };
    }

    private static IllegalArgumentException unsupported(String column, Type type) {
        return new IllegalArgumentException("Column '" + column + "' has Iceberg type " + type
                + ", which Sluice cannot read or write yet");
    }

    /** A new table's schema from the stream's, fields optional as Spark's are nullable, ids assigned in order. */
    static Schema toIceberg(StructType schema) {
        AtomicInteger ids = new AtomicInteger(0);
        Types.StructType struct = (Types.StructType) toIceberg(schema, ids);
        return new Schema(struct.fields());
    }

    private static Type toIceberg(DataType type, AtomicInteger ids) {
        if (type instanceof StructType s) {
            List<Integer> fieldIds = new ArrayList<>();
            for (int i = 0; i < s.size(); i++) {
                fieldIds.add(ids.incrementAndGet());
            }
            List<Types.NestedField> fields = new ArrayList<>();
            for (int i = 0; i < s.size(); i++) {
                StructField f = s.field(i);
                Type t = toIceberg(f.dataType(), ids);
                fields.add(f.nullable() ? Types.NestedField.optional(fieldIds.get(i), f.name(), t)
                        : Types.NestedField.required(fieldIds.get(i), f.name(), t));
            }
            return Types.StructType.of(fields);
        }
        if (type instanceof ArrayType a) {
            int id = ids.incrementAndGet();
            Type e = toIceberg(a.elementType(), ids);
            return a.containsNull() ? Types.ListType.ofOptional(id, e) : Types.ListType.ofRequired(id, e);
        }
        if (type instanceof MapType m) {
            int k = ids.incrementAndGet();
            int v = ids.incrementAndGet();
            Type kt = toIceberg(m.keyType(), ids);
            Type vt = toIceberg(m.valueType(), ids);
            return m.valueContainsNull() ? Types.MapType.ofOptional(k, v, kt, vt) : Types.MapType.ofRequired(k, v, kt, vt);
        }
        if (type instanceof DecimalType d) {
            return Types.DecimalType.of(d.precision(), d.scale());
        }
        return switch ((AtomicType) type) {
            case BOOLEAN_TYPE -> Types.BooleanType.get();
            case BYTE_TYPE, SHORT_TYPE, INT_TYPE -> Types.IntegerType.get();
            case LONG_TYPE -> Types.LongType.get();
            case FLOAT_TYPE -> Types.FloatType.get();
            case DOUBLE_TYPE -> Types.DoubleType.get();
            case STRING_TYPE -> Types.StringType.get();
            case BINARY_TYPE -> Types.BinaryType.get();
            case DATE_TYPE -> Types.DateType.get();
            case TIMESTAMP_TYPE -> Types.TimestampType.withZone();
        };
    }

    /**
     * One Iceberg record as a row of {@code type}: a generic {@link Record} (values as Java objects:
     * OffsetDateTime, LocalDate) or a StructLike of iceberg-parquet's internal readers (epoch microseconds and
     * days), whichever form each value has.
     */
    static Row toRow(StructLike record, StructType type) {
        Object[] values = new Object[type.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = toSluiceValue(record.get(i, Object.class), type.field(i).dataType());
        }
        return Row.wrap(values);
    }

    static Object toSluiceValue(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        if (type instanceof StructType s) {
            return toRow((StructLike) v, s);
        }
        if (type instanceof ArrayType a) {
            List<Object> out = new ArrayList<>();
            for (Object e : (List<?>) v) {
                out.add(toSluiceValue(e, a.elementType()));
            }
            return out;
        }
        if (type instanceof MapType m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            ((Map<?, ?>) v).forEach((k, e) -> out.put(toSluiceValue(k, m.keyType()), toSluiceValue(e, m.valueType())));
            return out;
        }
        if (v instanceof CharSequence cs) {
            return cs.toString();
        }
        if (v instanceof ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            byte[] bytes = new byte[d.remaining()];
            d.get(bytes);
            return bytes;
        }
        if (v instanceof OffsetDateTime t) {
            return t.toInstant();
        }
        if (type == DataType.timestampType() && v instanceof Long micros) {
            return instantOfMicros(micros);
        }
        if (type == DataType.dateType() && v instanceof Integer day) {
            return LocalDate.ofEpochDay(day);
        }
        return v;
    }

    static Instant instantOfMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** An instant as Iceberg's internal timestamp: microseconds since the epoch (sub-microsecond digits dropped). */
    static long microsOf(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }
}
