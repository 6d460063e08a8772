package io.sluice.files.format;

import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.values.SparkDecimals;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Spark's CSV schema inference (CSVInferSchema): column names from the first line ({@code header}: its values,
 * empty ones and duplicates suffixed with their position; otherwise {@code _c0, _c1, ...}); types only with
 * {@code inferSchema} (otherwise all {@code string}), the narrowest of int, bigint, decimal (integers too big for
 * bigint), double, date ({@code preferDate}, {@code yyyy-MM-dd} or {@code dateFormat}), timestamp, boolean, string
 * that fits every sampled value; empty and {@code nullValue} values do not count; a column with none is string.
 */
final class CsvInference {
    private static final Set<String> LENIENT_DATE_FORMATS =
            Set.of("yyyy-MM-dd", "yyyy-M-d", "yyyy-M-dd", "yyyy-MM-d", "yyyy-MM", "yyyy-M", "yyyy");

    /** Inference types, NULL meaning no value seen yet. */
    private enum K { NULL, INT, LONG, DECIMAL, DOUBLE, DATE, TIMESTAMP, BOOLEAN, STRING }

    private record T(K kind, int precision, int scale) {
        static final T NULL = new T(K.NULL, 0, 0);
        static final T INT = new T(K.INT, 0, 0);
        static final T LONG = new T(K.LONG, 0, 0);
        static final T DOUBLE = new T(K.DOUBLE, 0, 0);
        static final T DATE = new T(K.DATE, 0, 0);
        static final T TIMESTAMP = new T(K.TIMESTAMP, 0, 0);
        static final T BOOLEAN = new T(K.BOOLEAN, 0, 0);
        static final T STRING = new T(K.STRING, 0, 0);

        static T decimal(int p, int s) {
            return new T(K.DECIMAL, p, s);
        }
    }

    private final CsvSettings settings;
    private final DateTimeFormatter defaultDate;
    private final SplittableRandom random = new SplittableRandom(1);
    private String dateFormatOption;
    private String firstLine;
    private String[] names;
    private T[] types;

    private CsvInference(CsvSettings settings) {
        this.settings = settings;
        this.defaultDate = TemporalParsers.formatter("dateFormat", "yyyy-MM-dd", settings.locale);
    }

    static StructType infer(CsvSettings settings, String dateFormatOption, List<Path> files) throws IOException {
        return new CsvInference(settings).run(dateFormatOption, files);
    }

    private StructType run(String dateFormatOption, List<Path> files) throws IOException {
        this.dateFormatOption = dateFormatOption;
        for (Path file : files) {
            if (settings.multiLine) {
                try (Reader r = new InputStreamReader(FileInput.open(file), settings.charset)) {
                    CsvTokenizer t = new CsvTokenizer(settings);
                    t.open(r);
                    boolean firstOfFile = true;
                    while (t.nextRecord()) {
                        String[] tokens = t.tokens();
                        if (names == null) {
                            start(tokens);
                        }
                        // Spark drops the first record of every file when there is a header
                        if (!(firstOfFile && settings.header)) {
                            row(tokens);
                        }
                        firstOfFile = false;
                    }
                }
            } else {
                try (CharLineReader lines = new CharLineReader(
                        new InputStreamReader(FileInput.open(file), settings.charset), settings.lineSep)) {
                    CsvTokenizer t = new CsvTokenizer(settings);
                    while (lines.next()) {
                        char[] b = lines.buffer();
                        int s = lines.start();
                        int e = lines.end();
                        String line = new String(b, s, e - s);
                        if (line.trim().isEmpty() || settings.commentSet && line.charAt(0) == settings.comment) {
                            continue;
                        }
                        t.tokenizeLine(b, s, e);
                        if (names == null) {
                            firstLine = line;
                            start(t.tokens());
                        }
                        // Spark drops every line equal to the header line, in every file
                        if (!(settings.header && line.equals(firstLine))) {
                            row(t.tokens());
                        }
                    }
                }
            }
        }
        if (names == null) {
            return StructType.empty();
        }
        List<StructField> fields = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            fields.add(StructField.of(names[i], toDataType(types[i])));
        }
        return new StructType(fields);
    }

    private void start(String[] first) {
        names = header(first);
        types = new T[names.length];
        java.util.Arrays.fill(types, T.NULL);
    }

    private void row(String[] row) {
        if (!settings.inferSchema || settings.samplingRatio < 1 && random.nextDouble() >= settings.samplingRatio) {
            return;
        }
        for (int i = 0; i < Math.min(types.length, row.length); i++) {
            types[i] = field(types[i], row[i], dateFormatOption);
        }
    }

    // Spark's CSVUtils.makeSafeHeader (spark.sql.caseSensitive off).
    private String[] header(String[] row) {
        String[] out = new String[row.length];
        if (!settings.header) {
            for (int i = 0; i < row.length; i++) {
                out[i] = "_c" + i;
            }
            return out;
        }
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new HashSet<>();
        for (String v : row) {
            if (v != null && !seen.add(v.toLowerCase(Locale.ROOT))) {
                duplicates.add(v.toLowerCase(Locale.ROOT));
            }
        }
        for (int i = 0; i < row.length; i++) {
            String v = row[i];
            if (v == null || v.isEmpty() || v.equals(settings.nullValue)) {
                out[i] = "_c" + i;
            } else if (duplicates.contains(v.toLowerCase(Locale.ROOT))) {
                out[i] = v + i;
            } else {
                out[i] = v;
            }
        }
        return out;
    }

    private T field(T soFar, String value, String dateFormatOption) {
        if (value == null || value.isEmpty() || value.equals(settings.nullValue)) {
            return soFar;
        }
        T found = switch (soFar.kind) {
            case NULL, INT -> tryInt(value);
            case LONG -> tryLong(value);
            case DECIMAL -> tryDecimal(value);
            case DOUBLE -> tryDouble(value);
            case DATE -> tryDate(value);
            case TIMESTAMP -> tryTimestamp(value);
            case BOOLEAN -> tryBoolean(value);
            case STRING -> T.STRING;
        };
        T merged = compatible(soFar, found, dateFormatOption);
        return merged == null ? T.STRING : merged;
    }

    private T tryInt(String v) {
        try {
            Integer.parseInt(v);
            return T.INT;
        } catch (NumberFormatException e) {
            return tryLong(v);
        }
    }

    private T tryLong(String v) {
        try {
            Long.parseLong(v);
            return T.LONG;
        } catch (NumberFormatException e) {
            return tryDecimal(v);
        }
    }

    private T tryDecimal(String v) {
        try {
            BigDecimal d = settings.locale.equals(Locale.US) ? new BigDecimal(v) : SparkDecimals.parse(v, settings.locale);
            if (d.scale() <= 0) {
                new DecimalType(d.precision(), d.scale());
                return T.decimal(d.precision(), d.scale());
            }
        } catch (RuntimeException e) {
            // not a decimal
        }
        return tryDouble(v);
    }

    private T tryDouble(String v) {
        boolean isDouble;
        try {
            Double.parseDouble(v);
            isDouble = true;
        } catch (NumberFormatException e) {
            isDouble = false;
        }
        if (isDouble || v.equals(settings.nanValue) || v.equals(settings.negativeInf) || v.equals(settings.positiveInf)) {
            return T.DOUBLE;
        }
        return settings.preferDate ? tryDate(v) : tryTimestamp(v);
    }

    private T tryDate(String v) {
        return settings.temporal.isDateWithoutFallback(v, defaultDate) ? T.DATE : tryTimestamp(v);
    }

    private T tryTimestamp(String v) {
        return settings.temporal.isTimestampWithoutFallback(v) ? T.TIMESTAMP : tryBoolean(v);
    }

    private T tryBoolean(String v) {
        return v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false") ? T.BOOLEAN : T.STRING;
    }

    /** Spark's CSVInferSchema.compatibleType; null when there is none (the caller then uses string). */
    private T compatible(T a, T b, String dateFormatOption) {
        if ((a.kind == K.DATE && b.kind == K.TIMESTAMP) || (a.kind == K.TIMESTAMP && b.kind == K.DATE)) {
            String dateFormat = dateFormatOption != null ? dateFormatOption : "yyyy-MM-dd";
            boolean lenient = !settings.temporal.hasTimestampPattern() && LENIENT_DATE_FORMATS.contains(dateFormat);
            return lenient ? T.TIMESTAMP : T.STRING;
        }
        if (a.equals(b)) {
            return a;
        }
        if (a.kind == K.NULL) {
            return b;
        }
        if (b.kind == K.NULL) {
            return a;
        }
        if (integral(a) && b.kind == K.DECIMAL) {
            return widerThan(b, a) ? b : mergeDecimals(asDecimal(a), b);
        }
        if (a.kind == K.DECIMAL && integral(b)) {
            return widerThan(a, b) ? a : mergeDecimals(a, asDecimal(b));
        }
        if (numeric(a) && numeric(b)) {
            if (a.kind == K.DOUBLE || b.kind == K.DOUBLE) {
                return T.DOUBLE;
            }
            return a.kind == K.LONG || b.kind == K.LONG ? T.LONG : T.INT;
        }
        if (a.kind == K.STRING || b.kind == K.STRING) {
            return T.STRING;
        }
        if ((a.kind == K.DOUBLE && b.kind == K.DECIMAL) || (a.kind == K.DECIMAL && b.kind == K.DOUBLE)) {
            return T.DOUBLE;
        }
        if (a.kind == K.DECIMAL && b.kind == K.DECIMAL) {
            return mergeDecimals(a, b);
        }
        return null;
    }

    private static boolean integral(T t) {
        return t.kind == K.INT || t.kind == K.LONG;
    }

    private static boolean numeric(T t) {
        return t.kind == K.INT || t.kind == K.LONG || t.kind == K.DOUBLE;
    }

    private static T asDecimal(T integral) {
        return integral.kind == K.INT ? T.decimal(10, 0) : T.decimal(20, 0);
    }

    private static boolean widerThan(T decimal, T integral) {
        T d = asDecimal(integral);
        return decimal.precision - decimal.scale >= d.precision - d.scale && decimal.scale >= d.scale;
    }

    private static T mergeDecimals(T x, T y) {
        int scale = Math.max(x.scale, y.scale);
        int range = Math.max(x.precision - x.scale, y.precision - y.scale);
        return range + scale > DecimalType.MAX_PRECISION ? T.DOUBLE : T.decimal(range + scale, scale);
    }

    private static DataType toDataType(T t) {
        return switch (t.kind) {
            case NULL, STRING -> AtomicType.STRING_TYPE;
            case INT -> AtomicType.INT_TYPE;
            case LONG -> AtomicType.LONG_TYPE;
            case DECIMAL -> new DecimalType(t.precision, t.scale);
            case DOUBLE -> AtomicType.DOUBLE_TYPE;
            case DATE -> AtomicType.DATE_TYPE;
            case TIMESTAMP -> AtomicType.TIMESTAMP_TYPE;
            case BOOLEAN -> AtomicType.BOOLEAN_TYPE;
        };
    }
}
