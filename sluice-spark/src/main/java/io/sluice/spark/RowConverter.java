package io.sluice.spark;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Converts Sluice rows of one schema to Spark's internal rows: strings to UTF8String, decimals to Decimal, dates
 * to days since the epoch, timestamps to microseconds since the epoch, lists to ArrayData, maps to MapData and
 * structs to nested InternalRows. Built once per schema; each column's converter is chosen up front.
 */
final class RowConverter {
    private final Function<Object, Object>[] columns;
    /** Per output column, the Sluice row's column it comes from. */
    private final int[] from;

    RowConverter(StructType schema) {
        this(schema, identity(schema.size()));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private RowConverter(StructType schema, int[] from) {
        this.from = from;
        columns = new Function[from.length];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = converter(schema.field(from[i]).dataType());
        }
    }

    /** For a read: Spark gets the columns the read requires (all, unless Spark pruned), in the schema's order. */
    static RowConverter of(ReadSpec spec) {
        StructType schema = SparkTypes.toSluice(spec.schema());
        int[] from = new int[schema.size()];
        int n = 0;
        for (int i = 0; i < schema.size(); i++) {
            if (spec.pushDown().requires(schema.field(i).name())) {
                from[n++] = i;
            }
        }
        return new RowConverter(schema, java.util.Arrays.copyOf(from, n));
    }

    private static int[] identity(int size) {
        int[] out = new int[size];
        for (int i = 0; i < size; i++) {
            out[i] = i;
        }
        return out;
    }

    InternalRow convert(Row row) {
        Object[] out = new Object[columns.length];
        for (int i = 0; i < out.length; i++) {
            Object v = row.get(from[i]);
            out[i] = v == null ? null : columns[i].apply(v);
        }
        return new GenericInternalRow(out);
    }

    private static Function<Object, Object> converter(DataType type) {
        if (type instanceof AtomicType a) {
            return switch (a) {
                case BOOLEAN_TYPE, BINARY_TYPE -> v -> v;
                // Sluice rows hold the documented boxed type; a source handing another Number is still accepted.
                case BYTE_TYPE -> v -> ((Number) v).byteValue();
                case SHORT_TYPE -> v -> ((Number) v).shortValue();
                case INT_TYPE -> v -> ((Number) v).intValue();
                case LONG_TYPE -> v -> ((Number) v).longValue();
                case FLOAT_TYPE -> v -> ((Number) v).floatValue();
                case DOUBLE_TYPE -> v -> ((Number) v).doubleValue();
                case STRING_TYPE -> v -> UTF8String.fromString((String) v);
                case DATE_TYPE -> v -> (int) ((LocalDate) v).toEpochDay();
                case TIMESTAMP_TYPE -> v -> micros((Instant) v);
            };
        }
        if (type instanceof DecimalType d) {
            int p = d.precision();
            int s = d.scale();
            return v -> Decimal.apply(((BigDecimal) v).setScale(s, RoundingMode.HALF_UP), p, s);
        }
        if (type instanceof ArrayType a) {
            Function<Object, Object> element = converter(a.elementType());
            return v -> {
                List<?> list = (List<?>) v;
                Object[] out = new Object[list.size()];
                int i = 0;
                for (Object e : list) {
                    out[i++] = e == null ? null : element.apply(e);
                }
                return new GenericArrayData(out);
            };
        }
        if (type instanceof MapType m) {
            Function<Object, Object> key = converter(m.keyType());
            Function<Object, Object> value = converter(m.valueType());
            return v -> {
                Map<?, ?> map = (Map<?, ?>) v;
                Object[] keys = new Object[map.size()];
                Object[] values = new Object[map.size()];
                int i = 0;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    keys[i] = key.apply(e.getKey());
                    values[i++] = e.getValue() == null ? null : value.apply(e.getValue());
                }
                return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
            };
        }
        RowConverter nested = new RowConverter((StructType) type);
        return v -> nested.convert((Row) v);
    }

    /** Spark's TimestampType value: microseconds since the epoch (sub-microsecond digits are dropped, as Spark does). */
    static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }
}
