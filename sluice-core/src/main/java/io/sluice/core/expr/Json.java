package io.sluice.core.expr;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;
import io.sluice.values.DateTimePatterns;
import io.sluice.values.DateTimeReader;
import io.sluice.values.SparkTimestamps;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code from_json} and {@code to_json} with Spark's JSON semantics: field names match exactly, values of the
 * wrong JSON type become null (the rest of the record is kept), malformed text gives a struct of nulls in
 * PERMISSIVE mode and fails the query in FAILFAST mode, empty or null input gives null.
 */
final class Json {
    private Json() {
    }

    /** The options from_json reads; others are accepted and ignored, as Spark ignores options it does not use. */
    record ReadOptions(boolean failFast, DateTimeReader dateTimes, JsonFactory factory) {

        /**
         * @throws IllegalArgumentException naming the option and the accepted values
         */
        static ReadOptions of(Map<String, String> options) {
            Map<String, String> o = lower(options);
            String mode = o.getOrDefault("mode", "PERMISSIVE").toUpperCase(Locale.ROOT);
            if (!mode.equals("PERMISSIVE") && !mode.equals("FAILFAST")) {
                if (mode.equals("DROPMALFORMED")) {
                    throw new IllegalArgumentException("from_json() doesn't support the DROPMALFORMED mode. "
                            + "Acceptable modes are PERMISSIVE and FAILFAST.");
                }
                throw new IllegalArgumentException("Invalid value '" + o.get("mode") + "' for option 'mode' of "
                        + "from_json: PERMISSIVE or FAILFAST is accepted");
            }
            JsonFactory factory = JsonFactory.builder()
                    .configure(JsonReadFeature.ALLOW_JAVA_COMMENTS, bool(o, "allowComments", false))
                    .configure(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, bool(o, "allowUnquotedFieldNames", false))
                    .configure(JsonReadFeature.ALLOW_SINGLE_QUOTES, bool(o, "allowSingleQuotes", true))
                    .configure(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS,
                            bool(o, "allowNumericLeadingZeros", false))
                    .configure(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS, bool(o, "allowNonNumericNumbers", true))
                    .configure(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER,
                            bool(o, "allowBackslashEscapingAnyCharacter", false))
                    .configure(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, bool(o, "allowUnquotedControlChars", false))
                    .build();
            // The JSON file source's rules (sluice-values), in the session time zone unless timeZone is given.
            return new ReadOptions(mode.equals("FAILFAST"), DateTimeReader.of(Options.of(options),
                    DateTimes.SESSION_ZONE, true), factory);
        }
    }

    /** The options to_json reads. */
    record WriteOptions(DateTimeFormatter timestampFormat, DateTimeFormatter dateFormat, boolean ignoreNullFields,
                        JsonFactory factory) {
        static WriteOptions of(Map<String, String> options) {
            Map<String, String> o = lower(options);
            DateTimeFormatter ts = pattern(o, "timestampFormat");
            DateTimeFormatter date = pattern(o, "dateFormat");
            return new WriteOptions(ts == null ? DateTimes.JSON_TIMESTAMP : ts,
                    date == null ? DateTimeFormatter.ISO_LOCAL_DATE : date, bool(o, "ignoreNullFields", true),
                    new JsonFactory());
        }
    }

    private static Map<String, String> lower(Map<String, String> options) {
        Map<String, String> o = new HashMap<>();
        options.forEach((k, v) -> o.put(k.toLowerCase(Locale.ROOT), v));
        return o;
    }

    private static boolean bool(Map<String, String> o, String key, boolean dflt) {
        String v = o.get(key.toLowerCase(Locale.ROOT));
        if (v == null) {
            return dflt;
        }
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException("Invalid value '" + v + "' for option '" + key + "': true or false is accepted");
    }

    private static DateTimeFormatter pattern(Map<String, String> o, String key) {
        String v = o.get(key.toLowerCase(Locale.ROOT));
        if (v == null) {
            return null;
        }
        try {
            return DateTimePatterns.formatter(v, Locale.US, DateTimes.SESSION_ZONE);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid value '" + v + "' for option '" + key
                    + "': not a datetime pattern (" + e.getMessage() + ")");
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Reading

    /** A JSON value of the wrong type. Shared and without a stack trace: it is control flow, per bad value. */
    private static final class BadValue extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final BadValue INSTANCE = new BadValue();

        private BadValue() {
            super("bad JSON value", null, false, false);
        }
    }

    /**
     * Reads one value whose first token is current; leaves the parser on the value's last token, also when it
     * throws {@link BadValue}.
     */
    private interface Reader {
        Object read(JsonParser p) throws IOException;
    }

    static final class FromJson extends Eval {
        final Eval child;
        final DataType schema;
        final ReadOptions options;
        final Reader root;
        final Object[] allNulls;

        FromJson(Eval child, DataType schema, ReadOptions options) {
            this.child = child;
            this.schema = schema;
            this.options = options;
            this.root = reader(schema, options, true);
            this.allNulls = schema instanceof StructType s ? new Object[s.size()] : null;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            String text = (String) v;
            try (JsonParser p = options.factory.createParser(text)) {
                JsonToken first = p.nextToken();
                if (first == null) {
                    return null; // blank input
                }
                if (first == JsonToken.VALUE_NULL) {
                    return malformed(text, null);
                }
                if (schema instanceof StructType && first == JsonToken.START_ARRAY) {
                    return malformed(text, null); // Spark's from_json reads no arrays as structs
                }
                return root.read(p);
            } catch (BadValue e) {
                return malformed(text, null);
            } catch (IOException e) {
                return malformed(text, e);
            }
        }

        private Object malformed(String text, Exception cause) {
            if (options.failFast) {
                throw new IllegalStateException("Malformed records are detected in record parsing. Parse Mode: "
                        + "FAILFAST. To process malformed records as null result, try setting the option 'mode' as "
                        + "'PERMISSIVE'. Record: " + abbreviate(text), cause);
            }
            return allNulls == null ? null : Row.wrap(allNulls.clone()).attach((StructType) schema);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 197) + "...";
    }

    private static Reader reader(DataType t, ReadOptions o, boolean root) {
        if (t instanceof StructType s) {
            return structReader(s, o);
        } else if (t instanceof ArrayType a) {
            Reader element = reader(a.elementType(), o, false);
            Reader array = p -> {
                if (p.currentToken() != JsonToken.START_ARRAY) {
                    return fail(p);
                }
                List<Object> out = new ArrayList<>();
                boolean bad = false;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    try {
                        out.add(value(element, p));
                    } catch (BadValue e) {
                        if (o.failFast) {
                            throw e;
                        }
                        bad = true;
                    }
                }
                if (bad) {
                    throw BadValue.INSTANCE; // an element that does not convert voids the whole array, as in Spark
                }
                return out;
            };
            if (root && a.elementType() instanceof StructType) {
                Reader single = reader(a.elementType(), o, false);
                // An object where an array of structs is expected is an array of that one struct (SPARK-19595).
                return p -> p.currentToken() == JsonToken.START_OBJECT ? new ArrayList<>(List.of(single.read(p)))
                        : array.read(p);
            }
            return array;
        } else if (t instanceof MapType m) {
            Reader valueReader = reader(m.valueType(), o, false);
            return p -> {
                if (p.currentToken() != JsonToken.START_OBJECT) {
                    return fail(p);
                }
                Map<String, Object> out = new LinkedHashMap<>();
                boolean bad = false;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    try {
                        out.put(key, value(valueReader, p));
                    } catch (BadValue e) {
                        if (o.failFast) {
                            throw e;
                        }
                        bad = true;
                    }
                }
                if (bad) {
                    throw BadValue.INSTANCE;
                }
                return out;
            };
        }
        return atomicReader(t, o);
    }

    /** Runs a reader unless the token is JSON null, which is SQL NULL for every type. */
    private static Object value(Reader r, JsonParser p) throws IOException {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : r.read(p);
    }

    /** Skips the value at hand and reports it as bad. */
    private static Object fail(JsonParser p) throws IOException {
        p.skipChildren();
        throw BadValue.INSTANCE;
    }

    private static Reader structReader(StructType s, ReadOptions o) {
        int n = s.size();
        Reader[] fields = new Reader[n];
        String[] names = new String[n];
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            fields[i] = reader(s.field(i).dataType(), o, false);
            names[i] = s.field(i).name();
            index.putIfAbsent(names[i], i); // field names match exactly, as Spark's JSON reader
        }
        return p -> {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                return fail(p);
            }
            Object[] values = new Object[n];
            int expected = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                int i;
                // Objects usually list fields in schema order: try the next one before the map.
                if (expected < n && names[expected].equals(name)) {
                    i = expected;
                } else {
                    Integer k = index.get(name);
                    i = k == null ? -1 : k;
                }
                p.nextToken();
                if (i < 0) {
                    p.skipChildren();
                    continue;
                }
                expected = i + 1;
                try {
                    values[i] = value(fields[i], p);
                } catch (BadValue e) {
                    if (o.failFast) {
                        throw e;
                    }
                    values[i] = null; // the rest of the record is kept (Spark's partial results)
                }
            }
            return Row.wrap(values).attach(s);
        };
    }

    private static Reader atomicReader(DataType t, ReadOptions o) {
        if (t == AtomicType.STRING_TYPE) {
            return p -> {
                JsonToken tok = p.currentToken();
                if (tok == JsonToken.VALUE_STRING) {
                    return p.getText();
                }
                if (tok == JsonToken.START_OBJECT || tok == JsonToken.START_ARRAY) {
                    StringWriter w = new StringWriter();
                    try (JsonGenerator g = o.factory.createGenerator(w)) {
                        g.copyCurrentStructure(p); // a nested value read as string is its JSON text
                    }
                    return w.toString();
                }
                return p.getText();
            };
        } else if (t == AtomicType.BOOLEAN_TYPE) {
            return p -> switch (p.currentToken()) {
                case VALUE_TRUE -> Boolean.TRUE;
                case VALUE_FALSE -> Boolean.FALSE;
                default -> fail(p);
            };
        } else if (Types.isIntegral(t)) {
            long min = t == AtomicType.LONG_TYPE ? Long.MIN_VALUE : t == AtomicType.INT_TYPE ? Integer.MIN_VALUE
                    : t == AtomicType.SHORT_TYPE ? Short.MIN_VALUE : Byte.MIN_VALUE;
            long max = -(min + 1);
            return p -> {
                if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
                        || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    return fail(p);
                }
                long l = p.getLongValue();
                if (l < min || l > max) {
                    return fail(p);
                }
                return Casts.fromLong(l, t);
            };
        } else if (Types.isFractional(t)) {
            boolean isFloat = t == AtomicType.FLOAT_TYPE;
            return p -> {
                JsonToken tok = p.currentToken();
                double d;
                if (tok == JsonToken.VALUE_NUMBER_INT || tok == JsonToken.VALUE_NUMBER_FLOAT) {
                    d = p.getDoubleValue();
                } else if (tok == JsonToken.VALUE_STRING) {
                    switch (p.getText()) {
                        case "NaN" -> d = Double.NaN;
                        case "+INF", "+Infinity", "Infinity" -> d = Double.POSITIVE_INFINITY;
                        case "-INF", "-Infinity" -> d = Double.NEGATIVE_INFINITY;
                        default -> {
                            return fail(p);
                        }
                    }
                } else {
                    return fail(p);
                }
                return isFloat ? (Object) (float) d : (Object) d;
            };
        } else if (t instanceof DecimalType dt) {
            return p -> {
                JsonToken tok = p.currentToken();
                BigDecimal d;
                if (tok == JsonToken.VALUE_NUMBER_INT || tok == JsonToken.VALUE_NUMBER_FLOAT) {
                    d = p.getDecimalValue();
                } else if (tok == JsonToken.VALUE_STRING && p.getTextLength() > 0) {
                    try {
                        d = new BigDecimal(p.getText());
                    } catch (NumberFormatException e) {
                        return fail(p);
                    }
                } else {
                    return fail(p);
                }
                BigDecimal r = Casts.fit(d, dt);
                return r == null ? fail(p) : r;
            };
        } else if (t == AtomicType.TIMESTAMP_TYPE) {
            DateTimeReader f = o.dateTimes;
            return p -> {
                JsonToken tok = p.currentToken();
                if (tok == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                    return Instant.ofEpochSecond(p.getLongValue());
                }
                if (tok != JsonToken.VALUE_STRING || p.getTextLength() == 0) {
                    return fail(p);
                }
                long r = f.timestampMicros(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                return r == SparkTimestamps.FAIL_MICROS ? fail(p) : SparkTimestamps.instant(r);
            };
        } else if (t == AtomicType.DATE_TYPE) {
            DateTimeReader f = o.dateTimes;
            return p -> {
                if (p.currentToken() != JsonToken.VALUE_STRING || p.getTextLength() == 0) {
                    return fail(p);
                }
                long r = f.epochDay(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                return r == SparkTimestamps.FAIL_DAY ? fail(p) : LocalDate.ofEpochDay(r);
            };
        } else if (t == AtomicType.BINARY_TYPE) {
            return p -> {
                if (p.currentToken() != JsonToken.VALUE_STRING) {
                    return fail(p);
                }
                try {
                    return p.getBinaryValue();
                } catch (IOException | IllegalArgumentException e) {
                    return fail(p);
                }
            };
        }
        throw new IllegalArgumentException("from_json cannot read type " + t.sql());
    }

    // -------------------------------------------------------------------------------------------------------------
    // Writing

    private interface Writer {
        void write(JsonGenerator g, Object v) throws IOException;
    }

    static final class ToJson extends Eval {
        final Eval child;
        final WriteOptions options;
        final Writer writer;

        ToJson(Eval child, DataType type, WriteOptions options) {
            this.child = child;
            this.options = options;
            this.writer = writer(type, options);
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            StringWriter out = new StringWriter(64);
            try (JsonGenerator g = options.factory.createGenerator(out)) {
                writer.write(g, v);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toString();
        }
    }

    private static Writer writer(DataType t, WriteOptions o) {
        if (t instanceof StructType s) {
            int n = s.size();
            Writer[] fields = new Writer[n];
            String[] names = new String[n];
            for (int i = 0; i < n; i++) {
                fields[i] = writer(s.field(i).dataType(), o);
                names[i] = s.field(i).name();
            }
            boolean skipNulls = o.ignoreNullFields;
            return (g, v) -> {
                Row r = (Row) v;
                g.writeStartObject();
                for (int i = 0; i < n; i++) {
                    Object f = r.get(i);
                    if (f == null) {
                        if (!skipNulls) {
                            g.writeNullField(names[i]);
                        }
                        continue;
                    }
                    g.writeFieldName(names[i]);
                    fields[i].write(g, f);
                }
                g.writeEndObject();
            };
        } else if (t instanceof ArrayType a) {
            Writer element = writer(a.elementType(), o);
            return (g, v) -> {
                g.writeStartArray();
                for (Object e : (List<?>) v) {
                    if (e == null) {
                        g.writeNull();
                    } else {
                        element.write(g, e);
                    }
                }
                g.writeEndArray();
            };
        } else if (t instanceof MapType m) {
            Writer value = writer(m.valueType(), o);
            return (g, v) -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    g.writeFieldName(Casts.atomicToString(e.getKey()));
                    if (e.getValue() == null) {
                        g.writeNull();
                    } else {
                        value.write(g, e.getValue());
                    }
                }
                g.writeEndObject();
            };
        } else if (t == AtomicType.BOOLEAN_TYPE) {
            return (g, v) -> g.writeBoolean((Boolean) v);
        } else if (Types.isIntegral(t)) {
            return (g, v) -> g.writeNumber(((Number) v).longValue());
        } else if (t == AtomicType.FLOAT_TYPE) {
            return (g, v) -> g.writeNumber(((Number) v).floatValue());
        } else if (t == AtomicType.DOUBLE_TYPE) {
            return (g, v) -> g.writeNumber(((Number) v).doubleValue());
        } else if (t instanceof DecimalType) {
            return (g, v) -> g.writeNumber((BigDecimal) v);
        } else if (t == AtomicType.STRING_TYPE) {
            return (g, v) -> g.writeString((String) v);
        } else if (t == AtomicType.BINARY_TYPE) {
            return (g, v) -> g.writeBinary((byte[]) v);
        } else if (t == AtomicType.DATE_TYPE) {
            DateTimeFormatter f = o.dateFormat;
            return (g, v) -> g.writeString(f.format((LocalDate) v));
        } else if (t == AtomicType.TIMESTAMP_TYPE) {
            DateTimeFormatter f = o.timestampFormat;
            return (g, v) -> g.writeString(f.format((Instant) v));
        }
        throw new IllegalArgumentException("to_json cannot write type " + t.sql());
    }
}
