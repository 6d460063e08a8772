package io.sluice.delta;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.TimestampType;
import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Delta (Kernel) types to Sluice types and back, and Kernel column values to Sluice row values. */
final class DeltaTypes {

    private DeltaTypes() {
    }

    static StructType toSluice(io.delta.kernel.types.StructType kernel) {
        List<StructField> fields = new ArrayList<>();
        for (io.delta.kernel.types.StructField f : kernel.fields()) {
            fields.add(new StructField(f.getName(), toSluice(f.getDataType(), f.getName()), f.isNullable()));
        }
        return new StructType(fields);
    }

    static DataType toSluice(io.delta.kernel.types.DataType t, String column) {
        if (t instanceof BooleanType) {
            return AtomicType.BOOLEAN_TYPE;
        } else if (t instanceof ByteType) {
            return AtomicType.BYTE_TYPE;
        } else if (t instanceof ShortType) {
            return AtomicType.SHORT_TYPE;
        } else if (t instanceof IntegerType) {
            return AtomicType.INT_TYPE;
        } else if (t instanceof LongType) {
            return AtomicType.LONG_TYPE;
        } else if (t instanceof FloatType) {
            return AtomicType.FLOAT_TYPE;
        } else if (t instanceof DoubleType) {
            return AtomicType.DOUBLE_TYPE;
        } else if (t instanceof StringType) {
            return AtomicType.STRING_TYPE;
        } else if (t instanceof BinaryType) {
            return AtomicType.BINARY_TYPE;
        } else if (t instanceof DateType) {
            return AtomicType.DATE_TYPE;
        } else if (t instanceof TimestampType) {
            return AtomicType.TIMESTAMP_TYPE;
        } else if (t instanceof io.delta.kernel.types.DecimalType d) {
            return new DecimalType(d.getPrecision(), d.getScale());
        } else if (t instanceof io.delta.kernel.types.ArrayType a) {
            return new ArrayType(toSluice(a.getElementType(), column), a.containsNull());
        } else if (t instanceof io.delta.kernel.types.MapType m) {
            return new MapType(toSluice(m.getKeyType(), column), toSluice(m.getValueType(), column),
                    m.isValueContainsNull());
        } else if (t instanceof io.delta.kernel.types.StructType s) {
            return toSluice(s);
        }
        throw new UnsupportedOperationException("Column `" + column + "` has the Delta type " + t
                + ", which Sluice does not support (timestamp_ntz, variant and the interval types have no Sluice type)");
    }

    static io.delta.kernel.types.StructType toKernel(StructType schema, boolean allNullable) {
        io.delta.kernel.types.StructType out = new io.delta.kernel.types.StructType();
        for (StructField f : schema.fields()) {
            out = out.add(f.name(), toKernel(f.dataType(), allNullable), allNullable || f.nullable());
        }
        return out;
    }

    static io.delta.kernel.types.DataType toKernel(DataType t, boolean allNullable) {
        if (t instanceof AtomicType a) {
            return switch (a) {
                case BOOLEAN_TYPE -> BooleanType.BOOLEAN;
                case BYTE_TYPE -> ByteType.BYTE;
                case SHORT_TYPE -> ShortType.SHORT;
                case INT_TYPE -> IntegerType.INTEGER;
                case LONG_TYPE -> LongType.LONG;
                case FLOAT_TYPE -> FloatType.FLOAT;
                case DOUBLE_TYPE -> DoubleType.DOUBLE;
                case STRING_TYPE -> StringType.STRING;
                case BINARY_TYPE -> BinaryType.BINARY;
                case DATE_TYPE -> DateType.DATE;
                case TIMESTAMP_TYPE -> TimestampType.TIMESTAMP;
            };
        } else if (t instanceof DecimalType d) {
            return new io.delta.kernel.types.DecimalType(d.precision(), d.scale());
        } else if (t instanceof ArrayType a) {
            return new io.delta.kernel.types.ArrayType(toKernel(a.elementType(), allNullable),
                    allNullable || a.containsNull());
        } else if (t instanceof MapType m) {
            return new io.delta.kernel.types.MapType(toKernel(m.keyType(), allNullable),
                    toKernel(m.valueType(), allNullable), allNullable || m.valueContainsNull());
        } else if (t instanceof StructType s) {
            return toKernel(s, allNullable);
        }
        throw new IllegalArgumentException("No Delta type for " + t);
    }

    /** The value at {@code rowId} of a Kernel vector of Sluice type {@code type}, as a Sluice row holds it. */
    static Object value(ColumnVector v, int rowId, DataType type) {
        if (v.isNullAt(rowId)) {
            return null;
        }
        if (type instanceof AtomicType a) {
            return switch (a) {
                case BOOLEAN_TYPE -> v.getBoolean(rowId);
                case BYTE_TYPE -> v.getByte(rowId);
                case SHORT_TYPE -> v.getShort(rowId);
                case INT_TYPE -> v.getInt(rowId);
                case LONG_TYPE -> v.getLong(rowId);
                case FLOAT_TYPE -> v.getFloat(rowId);
                case DOUBLE_TYPE -> v.getDouble(rowId);
                case STRING_TYPE -> v.getString(rowId);
                case BINARY_TYPE -> v.getBinary(rowId);
                case DATE_TYPE -> LocalDate.ofEpochDay(v.getInt(rowId));
                case TIMESTAMP_TYPE -> micros(v.getLong(rowId));
            };
        } else if (type instanceof DecimalType) {
            return v.getDecimal(rowId);
        } else if (type instanceof ArrayType at) {
            ArrayValue av = v.getArray(rowId);
            ColumnVector el = av.getElements();
            List<Object> out = new ArrayList<>(av.getSize());
            for (int i = 0; i < av.getSize(); i++) {
                out.add(value(el, i, at.elementType()));
            }
            return out;
        } else if (type instanceof MapType mt) {
            MapValue mv = v.getMap(rowId);
            Map<Object, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < mv.getSize(); i++) {
                out.put(value(mv.getKeys(), i, mt.keyType()), value(mv.getValues(), i, mt.valueType()));
            }
            return out;
        } else if (type instanceof StructType st) {
            Object[] values = new Object[st.size()];
            for (int i = 0; i < st.size(); i++) {
                values[i] = value(v.getChild(i), rowId, st.field(i).dataType());
            }
            return Row.withSchema(st, values);
        }
        throw new IllegalArgumentException("No Sluice value for " + type);
    }

    /**
     * A Sluice row value of type {@code type} in the representation {@link RowsBatch} hands Kernel: dates as epoch
     * days, timestamps as epoch microseconds, structs ({@link Row}) as an array of their field values, arrays
     * ({@link List}) as an array of elements and maps ({@link Map}) as {@link RowsBatch.MapEntries}, converted
     * recursively; other values as they are. Null stays null at every level.
     */
    static Object kernelValue(Object v, DataType type) {
        if (v == null) {
            return null;
        } else if (type == AtomicType.DATE_TYPE) {
            return (int) ((LocalDate) v).toEpochDay();
        } else if (type == AtomicType.TIMESTAMP_TYPE) {
            return toMicros((Instant) v);
        } else if (type instanceof StructType st) {
            Row r = (Row) v;
            Object[] out = new Object[st.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = kernelValue(r.get(i), st.field(i).dataType());
            }
            return out;
        } else if (type instanceof ArrayType at) {
            List<?> l = (List<?>) v;
            Object[] out = new Object[l.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = kernelValue(l.get(i), at.elementType());
            }
            return out;
        } else if (type instanceof MapType mt) {
            Map<?, ?> m = (Map<?, ?>) v;
            Object[] keys = new Object[m.size()];
            Object[] values = new Object[m.size()];
            int i = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                keys[i] = kernelValue(e.getKey(), mt.keyType());
                values[i++] = kernelValue(e.getValue(), mt.valueType());
            }
            return new RowsBatch.MapEntries(keys, values);
        }
        return v;
    }

    static Instant micros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    static long toMicros(Instant i) {
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000L);
    }

    /** delta-spark writes timestamp partition values as {@code yyyy-MM-dd HH:mm:ss[.SSSSSS]} (UTC), newer ones ISO. */
    private static final DateTimeFormatter PARTITION_TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss").optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd().toFormatter();

    /** A partition value of the log ({@code partitionValues}, text; null or empty is null) as a row value. */
    static Object partitionValue(String text, DataType type, String column) {
        if (text == null || (text.isEmpty() && type != AtomicType.STRING_TYPE)) {
            return null;
        }
        if (type instanceof DecimalType) {
            return new BigDecimal(text);
        }
        if (!(type instanceof AtomicType a)) {
            throw new IllegalArgumentException("Partition column `" + column + "` has the type " + type.simpleString()
                    + ", which cannot be a partition column");
        }
        return switch (a) {
            case BOOLEAN_TYPE -> Boolean.parseBoolean(text);
            case BYTE_TYPE -> Byte.parseByte(text);
            case SHORT_TYPE -> Short.parseShort(text);
            case INT_TYPE -> Integer.parseInt(text);
            case LONG_TYPE -> Long.parseLong(text);
            case FLOAT_TYPE -> Float.parseFloat(text);
            case DOUBLE_TYPE -> Double.parseDouble(text);
            case STRING_TYPE -> text;
            case BINARY_TYPE -> text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            case DATE_TYPE -> LocalDate.parse(text);
            case TIMESTAMP_TYPE -> text.endsWith("Z") || text.contains("T")
                    ? Instant.parse(text) : LocalDateTime.parse(text, PARTITION_TIMESTAMP).toInstant(ZoneOffset.UTC);
        };
    }
}
