package io.sluice.values;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Rows to JSON as Spark's JacksonGenerator writes them: the one implementation behind {@code to_json} and the JSON
 * file sink. Compiled once per type ({@link #of}, {@link #ofColumns}); immutable and thread-safe.
 *
 * <p>Callers may rely on: fields in schema order; a null field left out ({@code ignoreNullFields}, Spark's default)
 * or written as null; nulls inside arrays and maps written as null; timestamps and dates as strings through a
 * {@link DateTimeWriter}; decimals as numbers at the column's scale; binary as base64; floats and doubles as Jackson
 * writes them ({@code "NaN"} and {@code "Infinity"} as strings); map keys as text of Spark's internal value
 * (timestamps as microseconds and dates as days since the epoch).
 */
public final class RowToJson {
    /** Writes one non-null value; {@code scratch} holds at least 64 chars. */
    @FunctionalInterface
    private interface ValueWriter {
        void write(JsonGenerator g, Object v, char[] scratch) throws IOException;
    }

    private final ValueWriter writer;
    private final DateTimeWriter time;
    private final boolean ignoreNullFields;

    private RowToJson(DataType type, int[] columns, DateTimeWriter time, boolean ignoreNullFields) {
        this.time = time;
        this.ignoreNullFields = ignoreNullFields;
        this.writer = columns == null ? writer(type) : struct((StructType) type, columns);
    }

    /** A writer of values of {@code type} (a struct, array, map or atomic type). */
    public static RowToJson of(DataType type, DateTimeWriter time, boolean ignoreNullFields) {
        return new RowToJson(type, null, time, ignoreNullFields);
    }

    /** A writer of rows of {@code schema} that writes only the given columns (a sink leaves partition columns out). */
    public static RowToJson ofColumns(StructType schema, int[] columns, DateTimeWriter time, boolean ignoreNullFields) {
        return new RowToJson(schema, columns.clone(), time, ignoreNullFields);
    }

    /**
     * Writes the non-null value {@code v}.
     *
     * @param scratch a buffer of at least 64 chars, reused between calls of one thread
     */
    public void write(JsonGenerator g, Object v, char[] scratch) throws IOException {
        writer.write(g, v, scratch);
    }

    private ValueWriter writer(DataType type) {
        if (type instanceof AtomicType a) {
            return switch (a) {
                case BOOLEAN_TYPE -> (g, v, s) -> g.writeBoolean((Boolean) v);
                case BYTE_TYPE, SHORT_TYPE, INT_TYPE -> (g, v, s) -> g.writeNumber(((Number) v).intValue());
                case LONG_TYPE -> (g, v, s) -> g.writeNumber(((Number) v).longValue());
                case FLOAT_TYPE -> (g, v, s) -> g.writeNumber(((Number) v).floatValue());
                case DOUBLE_TYPE -> (g, v, s) -> g.writeNumber(((Number) v).doubleValue());
                case STRING_TYPE -> (g, v, s) -> g.writeString(v.toString());
                case BINARY_TYPE -> (g, v, s) -> g.writeBinary((byte[]) v);
                case DATE_TYPE -> (g, v, s) -> g.writeString(s, 0, time.date((LocalDate) v, s));
                case TIMESTAMP_TYPE -> (g, v, s) -> g.writeString(s, 0, time.timestamp((Instant) v, s));
            };
        }
        if (type instanceof DecimalType d) {
            int scale = d.scale();
            return (g, v, s) -> g.writeNumber(atScale((BigDecimal) v, scale));
        }
        if (type instanceof ArrayType at) {
            ValueWriter element = writer(at.elementType());
            return (g, v, s) -> {
                g.writeStartArray();
                for (Object e : (List<?>) v) {
                    if (e == null) {
                        g.writeNull();
                    } else {
                        element.write(g, e, s);
                    }
                }
                g.writeEndArray();
            };
        }
        if (type instanceof MapType mt) {
            ValueWriter value = writer(mt.valueType());
            return (g, v, s) -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    g.writeFieldName(mapKey(e.getKey()));
                    if (e.getValue() == null) {
                        g.writeNull();
                    } else {
                        value.write(g, e.getValue(), s);
                    }
                }
                g.writeEndObject();
            };
        }
        StructType st = (StructType) type;
        int[] all = new int[st.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return struct(st, all);
    }

    private ValueWriter struct(StructType st, int[] columns) {
        int n = columns.length;
        SerializedString[] names = new SerializedString[n];
        ValueWriter[] writers = new ValueWriter[n];
        for (int i = 0; i < n; i++) {
            names[i] = new SerializedString(st.field(columns[i]).name());
            writers[i] = writer(st.field(columns[i]).dataType());
        }
        boolean skipNulls = ignoreNullFields;
        return (g, v, s) -> {
            Row r = (Row) v;
            g.writeStartObject();
            for (int i = 0; i < n; i++) {
                Object fv = r.get(columns[i]);
                if (fv != null) {
                    g.writeFieldName(names[i]);
                    writers[i].write(g, fv, s);
                } else if (!skipNulls) {
                    g.writeFieldName(names[i]);
                    g.writeNull();
                }
            }
            g.writeEndObject();
        };
    }

    /** A decimal at the column's scale (rounded half-up), as Spark stores it. */
    public static BigDecimal atScale(BigDecimal v, int scale) {
        return v.scale() == scale ? v : v.setScale(scale, RoundingMode.HALF_UP);
    }

    /**
     * Spark writes a map key's internal value as text: timestamps as microseconds since the epoch and dates as
     * days since the epoch. Binary keys, which Spark cannot write usefully, are base64.
     */
    public static String mapKey(Object k) {
        if (k instanceof Instant t) {
            return Long.toString(ChronoUnit.MICROS.between(Instant.EPOCH, t));
        }
        if (k instanceof LocalDate d) {
            return Long.toString(d.toEpochDay());
        }
        if (k instanceof byte[] b) {
            return Base64.getEncoder().encodeToString(b);
        }
        return String.valueOf(k);
    }
}
