package io.sluice.files.sink;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * JSON lines as Spark's JacksonGenerator writes them: one object per row, fields in schema order, a null field
 * left out ({@code ignoreNullFields}, default true) or written as null; nulls inside arrays and maps written as
 * null; timestamps and dates as strings in the chosen pattern and zone; decimals as numbers at the column's
 * scale; binary as base64; floats and doubles as Jackson writes them ({@code "NaN"} and {@code "Infinity"} as
 * strings); map keys as strings. Each line ends with {@code lineSep}.
 */
final class JsonEncoders implements RowEncoder.Factory {
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    /** Writes one non-null value. */
    @FunctionalInterface
    private interface ValueWriter {
        void write(JsonGenerator g, Object v, char[] scratch) throws IOException;
    }

    private final int[] columns;
    private final SerializedString[] names;
    private final ValueWriter[] writers;
    private final boolean ignoreNullFields;
    private final String lineSep;
    private final DateTimeText time;

    JsonEncoders(StructType schema, int[] dataColumns, FileSinkOptions options) {
        this.columns = dataColumns;
        this.ignoreNullFields = options.ignoreNullFields;
        this.lineSep = options.lineSep;
        this.time = new DateTimeText(options.timestampFormat, options.dateFormat, options.zone);
        this.names = new SerializedString[dataColumns.length];
        this.writers = new ValueWriter[dataColumns.length];
        for (int i = 0; i < dataColumns.length; i++) {
            StructField f = schema.field(dataColumns[i]);
            names[i] = new SerializedString(f.name());
            writers[i] = writer(f.dataType());
        }
    }

    @Override
    public RowEncoder open(OutputStream out) throws IOException {
        JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8);
        g.setRootValueSeparator(null);
        return new Encoder(g);
    }

    private final class Encoder implements RowEncoder {
        private final JsonGenerator g;
        private final char[] scratch = new char[64];

        Encoder(JsonGenerator g) {
            this.g = g;
        }

        @Override
        public void write(Row row) throws IOException {
            g.writeStartObject();
            int[] cols = columns;
            for (int i = 0; i < cols.length; i++) {
                Object v = row.get(cols[i]);
                if (v != null) {
                    g.writeFieldName(names[i]);
                    writers[i].write(g, v, scratch);
                } else if (!ignoreNullFields) {
                    g.writeFieldName(names[i]);
                    g.writeNull();
                }
            }
            g.writeEndObject();
            g.writeRaw(lineSep);
        }

        @Override
        public void finish() throws IOException {
            g.flush();
        }
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
                List<?> list = (List<?>) v;
                g.writeStartArray();
                for (Object e : list) {
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
        int n = st.size();
        SerializedString[] fieldNames = new SerializedString[n];
        ValueWriter[] fieldWriters = new ValueWriter[n];
        for (int i = 0; i < n; i++) {
            fieldNames[i] = new SerializedString(st.field(i).name());
            fieldWriters[i] = writer(st.field(i).dataType());
        }
        return (g, v, s) -> {
            Row r = (Row) v;
            g.writeStartObject();
            for (int i = 0; i < n; i++) {
                Object fv = r.get(i);
                if (fv != null) {
                    g.writeFieldName(fieldNames[i]);
                    fieldWriters[i].write(g, fv, s);
                } else if (!ignoreNullFields) {
                    g.writeFieldName(fieldNames[i]);
                    g.writeNull();
                }
            }
            g.writeEndObject();
        };
    }

    static BigDecimal atScale(BigDecimal v, int scale) {
        return v.scale() == scale ? v : v.setScale(scale, RoundingMode.HALF_UP);
    }

    /**
     * Spark writes a map key's internal value as text: timestamps as microseconds since the epoch and dates as
     * days since the epoch. Binary keys, which Spark cannot write usefully, are base64.
     */
    static String mapKey(Object k) {
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
