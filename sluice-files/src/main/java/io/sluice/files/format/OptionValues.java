package io.sluice.files.format;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.nio.charset.Charset;
import java.util.Locale;
import java.util.Optional;

/** Option parsing shared by the formats; every error names the option, the value and what is accepted. */
final class OptionValues {
    static final String DEFAULT_CORRUPT_COLUMN = "_corrupt_record";

    private OptionValues() {
    }

    /** A boolean option; {@code true}/{@code false}, case-insensitive. */
    static boolean bool(Options o, String key, boolean def) {
        return o.getBoolean(key, def);
    }

    /** A boolean read the way Spark's CSVOptions.getBool reads it, with its message. */
    static boolean csvFlag(Options o, String key, boolean def) {
        Optional<String> v = o.get(key);
        if (v.isEmpty()) {
            return def;
        }
        String s = v.get();
        if (s.equalsIgnoreCase("true")) {
            return true;
        }
        if (s.equalsIgnoreCase("false")) {
            return false;
        }
        throw new InvalidOptionException(key, s, key + " flag can be true or false");
    }

    /** Spark's CSVOptions.getChar: empty means the NUL character (feature off), else exactly one character. */
    static char oneChar(Options o, String key, char def) {
        Optional<String> v = o.get(key);
        if (v.isEmpty()) {
            return def;
        }
        String s = v.get();
        if (s.isEmpty()) {
            return '\0';
        }
        if (s.length() == 1) {
            return s.charAt(0);
        }
        throw new InvalidOptionException(key, s, key + " cannot be more than one character");
    }

    /** Spark's CSVOptions.getInt, with its message. */
    static int integer(Options o, String key, int def) {
        Optional<String> v = o.get(key);
        if (v.isEmpty()) {
            return def;
        }
        try {
            return Integer.parseInt(v.get());
        } catch (NumberFormatException e) {
            throw new InvalidOptionException(key, v.get(), key + " should be an integer. Found " + v.get());
        }
    }

    static String corruptColumn(Options o) {
        return o.get("columnNameOfCorruptRecord", DEFAULT_CORRUPT_COLUMN);
    }

    /**
     * The index of the corrupt-record column in the schema (exact name match, as Spark's getFieldIndex), or -1.
     * The column must be a nullable string (Spark's ExprUtils.verifyColumnNameOfCorruptRecord).
     */
    static int corruptIndex(StructType schema, String name) {
        for (int i = 0; i < schema.size(); i++) {
            StructField f = schema.field(i);
            if (f.name().equals(name)) {
                if (f.dataType() != DataType.stringType() || !f.nullable()) {
                    throw new InvalidOptionException("columnNameOfCorruptRecord", name, "The column `" + name
                            + "` for corrupt records must have the nullable STRING type, but got \""
                            + f.dataType().sql() + (f.nullable() ? "" : " NOT NULL") + "\".", true);
                }
                return i;
            }
        }
        return -1;
    }

    /** Spark's locale option: an IETF BCP 47 language tag; default en-US. */
    static Locale locale(Options o) {
        return o.get("locale").map(Locale::forLanguageTag).orElse(Locale.US);
    }

    /** lineSep: any non-empty string (Spark: "'lineSep' cannot be an empty string."). */
    static Optional<String> lineSep(Options o) {
        Optional<String> v = o.get("lineSep");
        if (v.isPresent() && v.get().isEmpty()) {
            throw new InvalidOptionException("lineSep", "", "'lineSep' cannot be an empty string.", true);
        }
        return v;
    }

    /** encoding, or its alias charset; empty when neither is set. Any charset the JVM supports. */
    static Optional<Charset> anyCharset(Options o) {
        String key = o.contains("encoding") ? "encoding" : "charset";
        Optional<String> v = o.get(key);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Charset.forName(v.get()));
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(key, v.get(),
                    "a charset name the JVM supports, such as UTF-8, UTF-16LE or ISO-8859-1, is accepted");
        }
    }

    static double samplingRatio(Options o) {
        Optional<String> v = o.get("samplingRatio");
        if (v.isEmpty()) {
            return 1.0;
        }
        double d;
        try {
            d = Double.parseDouble(v.get().trim());
        } catch (NumberFormatException e) {
            d = Double.NaN;
        }
        if (!(d > 0 && d <= 1)) {
            throw new InvalidOptionException("samplingRatio", v.get(), "a number greater than 0 and at most 1 is accepted");
        }
        return d;
    }

    static Optional<Boolean> optionalBool(Options o, String key) {
        return o.contains(key) ? Optional.of(o.getBoolean(key, false)) : Optional.empty();
    }

}
