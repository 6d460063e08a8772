package io.sluice.core.expr;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import io.sluice.values.DateTimePatterns;
import io.sluice.values.DateTimeReader;
import io.sluice.values.DateTimeWriter;
import io.sluice.values.JsonToRow;
import io.sluice.values.PartialValueException;
import io.sluice.values.RowToJson;
import io.sluice.values.SparkTimestamps;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
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
    record ReadOptions(boolean failFast, JsonToRow.Settings values) {

        /**
         * @throws IllegalArgumentException naming the option and the accepted values
         */
        static ReadOptions of(Map<String, String> options, ZoneId sessionZone) {
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
            boolean nonNumeric = bool(o, "allowNonNumericNumbers", true);
            Options given = Options.of(options);
            return new ReadOptions(mode.equals("FAILFAST"), new JsonToRow.Settings(factory, nonNumeric,
                    given.get("locale").map(Locale::forLanguageTag).orElse(Locale.US),
                    DateTimeReader.of(given, sessionZone, true)));
        }
    }

    /**
     * The options to_json reads: timestampFormat, dateFormat (Spark's write defaults), timeZone (default the session
     * zone) and ignoreNullFields (default true).
     */
    record WriteOptions(DateTimeWriter time, boolean ignoreNullFields, JsonFactory factory) {
        static WriteOptions of(Map<String, String> options, ZoneId sessionZone) {
            Map<String, String> o = lower(options);
            String ts = pattern(o, "timestampFormat", DateTimeWriter.DEFAULT_TIMESTAMP_FORMAT, sessionZone);
            String date = pattern(o, "dateFormat", DateTimeWriter.DEFAULT_DATE_FORMAT, sessionZone);
            return new WriteOptions(new DateTimeWriter(ts, date, DateTimeReader.zone(Options.of(options),
                    sessionZone)), bool(o, "ignoreNullFields", true), new JsonFactory());
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

    private static String pattern(Map<String, String> o, String key, String dflt, ZoneId zone) {
        String v = o.get(key.toLowerCase(Locale.ROOT));
        if (v == null) {
            return dflt;
        }
        try {
            DateTimePatterns.formatter(v, Locale.US, zone);
            return v;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid value '" + v + "' for option '" + key
                    + "': not a datetime pattern (" + e.getMessage() + ")");
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Reading

    /**
     * {@code from_json}: the JSON file source's reader ({@link JsonToRow}) on the text. A field that does not convert
     * is null and the rest is kept (Spark's partial results); malformed text, JSON null or an array where a struct is
     * expected give a struct of nulls (PERMISSIVE) or fail (FAILFAST).
     */
    static final class FromJson extends Eval {
        final Eval child;
        final DataType schema;
        final ReadOptions options;
        final JsonToRow.Reader root;
        /** For an array of structs: the struct, since an object stands for an array of it (SPARK-19595). */
        final JsonToRow.Reader single;
        final Object[] allNulls;

        FromJson(Eval child, DataType schema, ReadOptions options) {
            this.child = child;
            this.schema = schema;
            this.options = options;
            this.root = JsonToRow.forType(schema);
            this.single = schema instanceof ArrayType a && a.elementType() instanceof StructType
                    ? JsonToRow.forType(a.elementType()) : null;
            this.allNulls = schema instanceof StructType s ? new Object[s.size()] : null;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            String text = (String) v;
            // A fresh context per value: evaluation may run on several reader threads at once.
            JsonToRow.Ctx ctx = new JsonToRow.Ctx(options.values);
            try (JsonParser p = options.values.factory().createParser(text)) {
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
                if (single != null && first == JsonToken.START_OBJECT) {
                    return new ArrayList<>(List.of(single.read(p, ctx)));
                }
                return root.read(p, ctx);
            } catch (PartialValueException e) {
                return options.failFast ? malformed(text, e.reason) : e.partial;
            } catch (IOException | RuntimeException e) {
                return malformed(text, e);
            }
        }

        private Object malformed(String text, Throwable cause) {
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

    // -------------------------------------------------------------------------------------------------------------
    // Writing

    /** {@code to_json}: the JSON file sink's writer ({@link RowToJson}). */
    static final class ToJson extends Eval {
        final Eval child;
        final WriteOptions options;
        final RowToJson writer;

        ToJson(Eval child, DataType type, WriteOptions options) {
            this.child = child;
            this.options = options;
            this.writer = RowToJson.of(type, options.time, options.ignoreNullFields);
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            StringWriter out = new StringWriter(64);
            try (JsonGenerator g = options.factory.createGenerator(out)) {
                writer.write(g, v, new char[64]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toString();
        }
    }
}
