package io.sluice.values;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
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
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * JSON to rows, Spark's JacksonParser rules for every type: the one implementation behind the JSON file source and
 * {@code from_json}. Readers are compiled once per schema ({@link #forType}, {@link StructReader}) and read the
 * value at a Jackson parser's current token.
 *
 * <p>Callers may rely on: a value of the wrong JSON type fails its field with {@link ValueParseException} (the rest
 * of the record is kept: a struct with a bad field throws {@link PartialValueException} holding the partial row);
 * JSON null is null for every type; a string column gets a number, object or array as its JSON text (exactly as
 * written when the record's raw text is given with {@link Ctx#source}, as the file source does; re-serialised
 * otherwise, as {@code from_json} does); integers must fit the column's type; a whole number is seconds since the
 * epoch for a timestamp; timestamps and dates follow {@link DateTimeReader}; decimals are rounded half-up to the
 * scale and fail past the precision; {@code NaN}/{@code Infinity} strings are doubles when
 * {@code allowNonNumericNumbers}; JSON fields match columns by exact (case-sensitive) name, extra fields are skipped
 * and missing ones are null; a bad map value voids the map. Immutable and thread-safe; the per-record state is in
 * {@link Ctx}.
 */
public final class JsonToRow {
    private JsonToRow() {
    }

    /**
     * The reading options: the parser factory (its features are Spark's allow* options), Spark's
     * {@code allowNonNumericNumbers}, the {@code locale} of decimals in strings, and the timestamp and date rules.
     */
    public record Settings(JsonFactory factory, boolean allowNonNumericNumbers, Locale locale,
                           DateTimeReader dateTimes) {
    }

    /** Per-reader state (one per file or thread): the record's raw text (for exact strings) and its first failure. */
    public static final class Ctx {
        final Settings settings;
        byte[] bytes;
        char[] chars;
        int base;
        /** Set by {@link StructReader#readFields} for its caller: the first failure in that object, or null. */
        Throwable lastBad;
        /** The line (within the record) where the first failure of the record was seen, 0 if unknown. */
        int badLine;

        public Ctx(Settings settings) {
            this.settings = settings;
        }

        /** The record's text is these bytes from {@code off}: strings read from other tokens keep it exactly. */
        public void source(byte[] b, int off) {
            bytes = b;
            chars = null;
            base = off;
        }

        /** The record's text is these chars from {@code off}. */
        public void source(char[] c, int off) {
            bytes = null;
            chars = c;
            base = off;
        }

        /** Forgets the last record's failure, before a new record. */
        public void startRecord() {
            lastBad = null;
            badLine = 0;
        }

        /** The first failure {@link StructReader#readFields} saw in the object it just read, or null; clears it. */
        public Throwable takeLastBad() {
            Throwable t = lastBad;
            lastBad = null;
            return t;
        }

        /** The line within the record of its first failure, 0 if unknown. */
        public int badLine() {
            return badLine;
        }

        void noteBad(JsonParser p) {
            if (badLine == 0) {
                JsonLocation l = p.currentLocation();
                badLine = l == null ? 0 : Math.max(0, l.getLineNr());
            }
        }
    }

    /** Reads one value of a type. */
    public abstract static class Reader {
        final DataType type;

        Reader(DataType type) {
            this.type = type;
        }

        /**
         * Reads the value at the parser's current token (a FIELD_NAME is stepped over first, as Spark does).
         *
         * @throws PartialValueException when only part of a struct, array or map could be read
         */
        public abstract Object read(JsonParser p, Ctx ctx) throws IOException;

        /** Spark's message for the token {@code t} where this type's value was expected. */
        public final ValueParseException failed(JsonParser p, JsonToken t) throws IOException {
            if (t == JsonToken.VALUE_STRING && p.getTextLength() < 1) {
                return new ValueParseException("Failed to parse an empty string for data type \"" + type.sql() + "\".");
            }
            return new ValueParseException("Cannot parse the field name " + quote(p.currentName()) + " and the value "
                    + quote(t == null ? null : p.getText()) + " of the JSON token type " + t
                    + " to target Spark data type \"" + type.sql() + "\".");
        }
    }

    private static String quote(String s) {
        return s == null ? "NULL" : "'" + s.replace("'", "\\'") + "'";
    }

    private static JsonToken token(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        return t == JsonToken.FIELD_NAME ? p.nextToken() : t;
    }

    /** The reader of a type (a struct's fields go to their own positions). */
    public static Reader forType(DataType type) {
        if (type instanceof AtomicType a) {
            return switch (a) {
                case BOOLEAN_TYPE -> new BooleanReader();
                case BYTE_TYPE, SHORT_TYPE, INT_TYPE, LONG_TYPE -> new IntegralReader(a);
                case FLOAT_TYPE, DOUBLE_TYPE -> new FractionalReader(a);
                case STRING_TYPE -> new StringReader();
                case BINARY_TYPE -> new BinaryReader();
                case TIMESTAMP_TYPE -> new TimestampReader();
                case DATE_TYPE -> new DateReader();
            };
        }
        if (type instanceof DecimalType d) {
            return new DecimalReader(d);
        }
        if (type instanceof StructType s) {
            return new StructReader(s, null);
        }
        if (type instanceof ArrayType a) {
            return new ArrayReader(a);
        }
        if (type instanceof MapType m) {
            return new MapReader(m);
        }
        throw new IllegalArgumentException("Unsupported type " + type);
    }

    private static final class BooleanReader extends Reader {
        BooleanReader() {
            super(DataType.booleanType());
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.VALUE_TRUE) {
                return Boolean.TRUE;
            }
            if (t == JsonToken.VALUE_FALSE) {
                return Boolean.FALSE;
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }
    }

    private static final class IntegralReader extends Reader {
        private final AtomicType kind;

        IntegralReader(AtomicType kind) {
            super(kind);
            this.kind = kind;
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.VALUE_NUMBER_INT) {
                // Jackson refuses values out of the type's range (InputCoercionException), as in Spark.
                return switch (kind) {
                    case BYTE_TYPE -> p.getByteValue();
                    case SHORT_TYPE -> p.getShortValue();
                    case INT_TYPE -> p.getIntValue();
                    default -> p.getLongValue();
                };
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }
    }

    private static final class FractionalReader extends Reader {
        private final boolean isFloat;

        FractionalReader(AtomicType kind) {
            super(kind);
            this.isFloat = kind == AtomicType.FLOAT_TYPE;
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                return isFloat ? (Object) p.getFloatValue() : (Object) p.getDoubleValue();
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            if (t == JsonToken.VALUE_STRING && p.getTextLength() >= 1) {
                String s = p.getText();
                boolean allow = ctx.settings.allowNonNumericNumbers();
                double d;
                if (allow && s.equals("NaN")) {
                    d = Double.NaN;
                } else if (allow && (s.equals("+INF") || s.equals("+Infinity") || s.equals("Infinity"))) {
                    d = Double.POSITIVE_INFINITY;
                } else if (allow && (s.equals("-INF") || s.equals("-Infinity"))) {
                    d = Double.NEGATIVE_INFINITY;
                } else {
                    throw new ValueParseException("Cannot parse the value " + quote(s) + " of the field "
                            + quote(p.currentName()) + " as target spark data type \"" + type.sql()
                            + "\" from the input type \"STRING\".");
                }
                return isFloat ? (Object) (float) d : (Object) d;
            }
            throw failed(p, t);
        }
    }

    private static final class StringReader extends Reader {
        StringReader() {
            super(DataType.stringType());
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.VALUE_STRING) {
                return p.getText();
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            return exactText(p, t, ctx);
        }

        // Spark 4 (SPARK-48148) keeps a number, object or array read as a string exactly as written.
        private static String exactText(JsonParser p, JsonToken t, Ctx ctx) throws IOException {
            JsonLocation start = p.currentTokenLocation();
            if (ctx.bytes != null && start.getByteOffset() >= 0) {
                p.skipChildren();
                long s = start.getByteOffset();
                long e = p.currentLocation().getByteOffset();
                return new String(ctx.bytes, ctx.base + (int) s, (int) (e - s), StandardCharsets.UTF_8);
            }
            if (ctx.chars != null && start.getCharOffset() >= 0) {
                p.skipChildren();
                long s = start.getCharOffset();
                long e = p.currentLocation().getCharOffset();
                return new String(ctx.chars, ctx.base + (int) s, (int) (e - s));
            }
            StringWriter w = new StringWriter();
            try (JsonGenerator g = ctx.settings.factory().createGenerator(w)) {
                g.copyCurrentStructure(p);
            }
            return w.toString();
        }
    }

    private static final class BinaryReader extends Reader {
        BinaryReader() {
            super(DataType.binaryType());
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.VALUE_STRING) {
                return p.getBinaryValue();
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }
    }

    private static final class TimestampReader extends Reader {
        TimestampReader() {
            super(DataType.timestampType());
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.VALUE_STRING && p.getTextLength() >= 1) {
                return SparkTimestamps.instant(ctx.settings.dateTimes().timestampMicrosOrFail(p.getTextCharacters(),
                        p.getTextOffset(), p.getTextLength()));
            }
            if (t == JsonToken.VALUE_NUMBER_INT) {
                // Spark reads a whole number as seconds since the epoch.
                return java.time.Instant.ofEpochSecond(p.getLongValue());
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }
    }

    private static final class DateReader extends Reader {
        DateReader() {
            super(DataType.dateType());
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.VALUE_STRING && p.getTextLength() >= 1) {
                return ctx.settings.dateTimes().dateOrFail(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }
    }

    private static final class DecimalReader extends Reader {
        private final DecimalType dt;

        DecimalReader(DecimalType dt) {
            super(dt);
            this.dt = dt;
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                return SparkDecimals.fit(p.getDecimalValue(), dt);
            }
            if (t == JsonToken.VALUE_STRING && p.getTextLength() >= 1) {
                BigDecimal v;
                try {
                    v = SparkDecimals.parse(p.getText(), ctx.settings.locale());
                } catch (NumberFormatException e) {
                    throw new ValueParseException("Cannot parse '" + p.getText() + "' as " + dt.sql(), e);
                }
                return SparkDecimals.fit(v, dt);
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }
    }

    /**
     * Reads an object into a struct. The root struct writes into the data schema's positions (skipping the
     * corrupt-record column), nested ones into their own.
     */
    public static final class StructReader extends Reader {
        private final StructType struct;
        private final int width;
        private final String[] names;
        private final SerializedString[] serialized;
        private final int[] targets;
        private final Reader[] readers;
        private final HashMap<String, Integer> slots = new HashMap<>();

        /**
         * @param outputPositions where each field goes in the output array (null: same position)
         * @param width           the output array's length
         */
        public StructReader(StructType struct, int[] outputPositions, int width) {
            super(struct);
            this.struct = struct;
            this.width = width;
            int n = struct.size();
            names = new String[n];
            serialized = new SerializedString[n];
            targets = new int[n];
            readers = new Reader[n];
            for (int i = 0; i < n; i++) {
                StructField f = struct.field(i);
                // Jackson interns field names: the same instance then compares by identity in the HashMap.
                names[i] = f.name().intern();
                serialized[i] = new SerializedString(names[i]);
                targets[i] = outputPositions == null ? i : outputPositions[i];
                readers[i] = forType(f.dataType());
                slots.putIfAbsent(names[i], i);
            }
        }

        /** A struct whose fields go to the positions given (null: their own). */
        public StructReader(StructType struct, int[] outputPositions) {
            this(struct, outputPositions, struct.size());
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.START_OBJECT) {
                Object[] values = readFields(p, ctx);
                Throwable bad = ctx.lastBad;
                ctx.lastBad = null;
                Row row = Row.wrap(values).attach(struct);
                if (bad != null) {
                    throw new PartialValueException(row, bad);
                }
                return row;
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }

        private int slot(String name) {
            if (name == null) {
                return -1;
            }
            Integer i = slots.get(name);
            return i == null ? -1 : i;
        }

        /**
         * Reads the fields of the object whose START_OBJECT is the current token. A field that fails is left null
         * and the first failure is left in {@code ctx.lastBad} for the caller (Spark's partial results).
         */
        public Object[] readFields(JsonParser p, Ctx ctx) throws IOException {
            Object[] values = new Object[width];
            Throwable bad = null;
            int expect = 0;
            int n = names.length;
            while (true) {
                int slot;
                // Fields usually come in schema order: try the expected name first (a byte comparison in Jackson).
                if (expect < n && p.nextFieldName(serialized[expect])) {
                    slot = expect;
                } else {
                    JsonToken t = expect < n ? p.currentToken() : p.nextToken();
                    if (t == null || t == JsonToken.END_OBJECT) {
                        break;
                    }
                    slot = slot(p.currentName());
                    if (slot < 0) {
                        if (t == JsonToken.FIELD_NAME) {
                            p.nextToken();
                        }
                        p.skipChildren();
                        continue;
                    }
                }
                try {
                    values[targets[slot]] = readers[slot].read(p, ctx);
                } catch (PartialValueException e) {
                    if (bad == null) {
                        bad = e.reason;
                        ctx.noteBad(p);
                    }
                    values[targets[slot]] = e.partial;
                } catch (IOException | RuntimeException e) {
                    if (e instanceof StreamConstraintsException) {
                        ctx.noteBad(p);
                        throw e; // the parser cannot go on past a bound: the record fails with this reason
                    }
                    if (bad == null) {
                        bad = e;
                        ctx.noteBad(p);
                    }
                    values[targets[slot]] = null;
                    p.skipChildren();
                }
                expect = slot + 1;
            }
            ctx.lastBad = bad;
            return values;
        }
    }

    private static final class ArrayReader extends Reader {
        private final Reader element;

        ArrayReader(ArrayType type) {
            super(type);
            this.element = forType(type.elementType());
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.START_ARRAY) {
                ArrayList<Object> list = new ArrayList<>();
                Throwable bad = null;
                while (true) {
                    JsonToken e = p.nextToken();
                    if (e == null || e == JsonToken.END_ARRAY) {
                        break;
                    }
                    try {
                        list.add(element.read(p, ctx));
                    } catch (PartialValueException x) {
                        if (bad == null) {
                            bad = x.reason;
                        }
                        list.add(x.partial);
                    }
                }
                if (bad != null) {
                    throw new PartialValueException(list, bad);
                }
                return list;
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }
    }

    private static final class MapReader extends Reader {
        private final Reader value;

        MapReader(MapType type) {
            super(type);
            this.value = forType(type.valueType());
        }

        @Override
        public Object read(JsonParser p, Ctx ctx) throws IOException {
            JsonToken t = token(p);
            if (t == JsonToken.START_OBJECT) {
                Map<String, Object> map = new LinkedHashMap<>();
                Throwable partialBad = null;
                Throwable bad = null;
                while (true) {
                    JsonToken e = p.nextToken();
                    if (e == null || e == JsonToken.END_OBJECT) {
                        break;
                    }
                    String key = p.currentName();
                    try {
                        Object v = value.read(p, ctx);
                        if (key != null) {
                            map.put(key, v);
                        }
                    } catch (PartialValueException x) {
                        if (partialBad == null) {
                            partialBad = x.reason;
                        }
                        if (key != null) {
                            map.put(key, x.partial);
                        }
                    } catch (IOException | RuntimeException x) {
                        if (x instanceof StreamConstraintsException) {
                            ctx.noteBad(p);
                            throw x;
                        }
                        if (bad == null) {
                            bad = x;
                        }
                        p.skipChildren();
                    }
                }
                // A value that failed outright invalidates the whole map (Spark's convertMap).
                if (bad instanceof IOException io) {
                    throw io;
                }
                if (bad != null) {
                    throw (RuntimeException) bad;
                }
                if (partialBad != null) {
                    throw new PartialValueException(map, partialBad);
                }
                return map;
            }
            if (t == null || t == JsonToken.VALUE_NULL) {
                return null;
            }
            throw failed(p, t);
        }
    }
}
