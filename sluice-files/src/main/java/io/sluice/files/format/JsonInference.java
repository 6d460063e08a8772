package io.sluice.files.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.values.SparkDecimals;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Spark's JsonInferSchema: each record's type, merged over all sampled records. Objects become structs with their
 * fields sorted by name; whole numbers {@code bigint}, other numbers {@code double} (decimals with
 * {@code prefersDecimal}, or when too large); {@code bigint} and {@code double} widen to {@code double};
 * conflicting types become {@code string}; strings stay strings unless {@code inferTimestamp} finds a timestamp;
 * fields only ever null (or empty string) become {@code string} (dropped with {@code dropFieldIfAllNull}); empty
 * structs are dropped. A malformed record adds the corrupt-record column in PERMISSIVE, is skipped in
 * DROPMALFORMED and fails in FAILFAST.
 */
final class JsonInference {
    private static final Comparator<F> BY_NAME = Comparator.comparing(f -> f.name);

    private final JsonSettings settings;

    private JsonInference(JsonSettings settings) {
        this.settings = settings;
    }

    /** An inferred type: Spark's types plus NullType (no value seen yet). */
    private abstract static class T {
    }

    private static final T NULL = new T() {
    };

    private static final class Atom extends T {
        final AtomicType type;

        Atom(AtomicType type) {
            this.type = type;
        }
    }

    private static final Atom BOOLEAN = new Atom(AtomicType.BOOLEAN_TYPE);
    private static final Atom LONG = new Atom(AtomicType.LONG_TYPE);
    private static final Atom DOUBLE = new Atom(AtomicType.DOUBLE_TYPE);
    private static final Atom STRING = new Atom(AtomicType.STRING_TYPE);
    private static final Atom TIMESTAMP = new Atom(AtomicType.TIMESTAMP_TYPE);

    private static final class Dec extends T {
        final int precision;
        final int scale;

        Dec(int precision, int scale) {
            this.precision = precision;
            this.scale = scale;
        }
    }

    private static final class Arr extends T {
        final T element;

        Arr(T element) {
            this.element = element;
        }
    }

    private record F(String name, T type) {
    }

    private static final class Struct extends T {
        final F[] fields;

        Struct(F[] fields) {
            this.fields = fields;
        }
    }

    static StructType infer(JsonSettings settings, List<Path> files) throws IOException {
        return new JsonInference(settings).run(files);
    }

    private StructType run(List<Path> files) throws IOException {
        SplittableRandom random = new SplittableRandom(1);
        T root = new Struct(new F[0]);
        for (Path file : files) {
            if (settings.multiLine) {
                root = record(root, FileInput.readAll(file), random, file);
                continue;
            }
            boolean utf8 = settings.charset == null || settings.charset.equals(StandardCharsets.UTF_8);
            try (ByteLineReader lines = new ByteLineReader(FileInput.open(file), settings.lineSep, utf8)) {
                while (lines.next()) {
                    root = record(root, Arrays.copyOfRange(lines.buffer(), lines.start(), lines.end()), random, file);
                }
            }
        }
        T canonical = canonical(root);
        return canonical instanceof Struct s ? (StructType) toDataType(s) : StructType.empty();
    }

    private String reason(Throwable e) {
        String limit = settings.limits.reason(e);
        return limit != null ? limit : firstLine(e.getMessage());
    }

    private T record(T root, byte[] record, SplittableRandom random, Path file) {
        if (settings.samplingRatio < 1 && random.nextDouble() >= settings.samplingRatio) {
            return root;
        }
        T t;
        try (JsonParser p = parser(record)) {
            p.nextToken();
            t = field(p);
        } catch (IOException | RuntimeException e) {
            switch (settings.mode) {
                case PERMISSIVE -> t = new Struct(new F[] {new F(settings.corruptColumn, STRING)});
                case DROPMALFORMED -> t = null;
                default -> throw new IllegalArgumentException("Malformed records are detected in schema inference. "
                        + "Parse Mode: FAILFAST. Reason: " + reason(e) + " (file " + file + ")", e);
            }
        }
        return t == null ? root : rootMerge(root, t);
    }

    private static String firstLine(String m) {
        if (m == null) {
            return "";
        }
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private JsonParser parser(byte[] record) throws IOException {
        if (settings.charset == null) {
            return settings.factory.createParser(record);
        }
        return settings.factory.createParser(new String(record, settings.charset));
    }

    private T field(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.FIELD_NAME) {
            p.nextToken();
            return field(p);
        }
        if (t == null || t == JsonToken.VALUE_NULL) {
            return NULL;
        }
        switch (t) {
            case VALUE_STRING -> {
                if (p.getTextLength() < 1) {
                    return NULL;
                }
                String s = p.getText();
                if (settings.prefersDecimal) {
                    try {
                        BigDecimal d = SparkDecimals.parse(s, settings.locale);
                        new DecimalType(d.precision(), d.scale());
                        return new Dec(d.precision(), d.scale());
                    } catch (RuntimeException e) {
                        // not a decimal
                    }
                }
                if (settings.inferTimestamp && settings.temporal.isTimestampWithoutFallback(s)) {
                    return TIMESTAMP;
                }
                return STRING;
            }
            case START_OBJECT -> {
                List<F> fields = new ArrayList<>();
                while (true) {
                    JsonToken n = p.nextToken();
                    if (n == null || n == JsonToken.END_OBJECT) {
                        break;
                    }
                    String name = p.currentName();
                    fields.add(new F(name, field(p)));
                }
                F[] arr = fields.toArray(new F[0]);
                Arrays.sort(arr, BY_NAME);
                return new Struct(arr);
            }
            case START_ARRAY -> {
                T element = NULL;
                while (true) {
                    JsonToken n = p.nextToken();
                    if (n == null || n == JsonToken.END_ARRAY) {
                        break;
                    }
                    element = compatible(element, field(p));
                }
                return new Arr(element);
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                if (settings.primitivesAsString) {
                    return STRING;
                }
                JsonParser.NumberType nt = p.getNumberType();
                switch (nt) {
                    case INT, LONG -> {
                        return LONG;
                    }
                    case BIG_INTEGER, BIG_DECIMAL -> {
                        return decimalOrDouble(p.getDecimalValue());
                    }
                    default -> {
                        return settings.prefersDecimal ? decimalOrDouble(p.getDecimalValue()) : DOUBLE;
                    }
                }
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return settings.primitivesAsString ? STRING : BOOLEAN;
            }
            default -> throw new IllegalStateException("Malformed JSON");
        }
    }

    private static T decimalOrDouble(BigDecimal v) {
        int precision = Math.max(v.precision(), v.scale());
        return precision <= DecimalType.MAX_PRECISION && v.scale() >= 0 ? new Dec(precision, v.scale()) : DOUBLE;
    }

    private T rootMerge(T a, T b) {
        if (a instanceof Arr x) {
            return rootMerge(x.element, b);
        }
        if (b instanceof Arr y) {
            return rootMerge(a, y.element);
        }
        if (a instanceof Struct && b == NULL) {
            return a;
        }
        if (a == NULL && b instanceof Struct) {
            return b;
        }
        if (a instanceof Struct s && !(b instanceof Struct)) {
            return withCorruptField(s, b);
        }
        if (b instanceof Struct s && !(a instanceof Struct)) {
            return withCorruptField(s, a);
        }
        return compatible(a, b);
    }

    private T withCorruptField(Struct s, T other) {
        switch (settings.mode) {
            case PERMISSIVE -> {
                for (F f : s.fields) {
                    if (f.name.equals(settings.corruptColumn)) {
                        return s;
                    }
                }
                F[] fields = Arrays.copyOf(s.fields, s.fields.length + 1);
                fields[s.fields.length] = new F(settings.corruptColumn, STRING);
                Arrays.sort(fields, BY_NAME);
                return new Struct(fields);
            }
            case DROPMALFORMED -> {
                return s;
            }
            default -> throw new IllegalArgumentException("Malformed records are detected in schema inference. "
                    + "Parse Mode: FAILFAST. Reason: Failed to infer a common schema. Struct types are expected, but `"
                    + describe(other) + "` was found.");
        }
    }

    private static String describe(T t) {
        return t == NULL ? "VOID" : toDataType(t).sql();
    }

    /** Spark's JsonInferSchema.compatibleType (with TypeCoercion.findTightestCommonType for these types). */
    private static T compatible(T a, T b) {
        if (a == b) {
            return a;
        }
        if (a == NULL) {
            return b;
        }
        if (b == NULL) {
            return a;
        }
        if (a instanceof Atom x && b instanceof Atom y) {
            if (x.type == y.type) {
                return a;
            }
            if (isNumeric(x) && isNumeric(y)) {
                return x.type == AtomicType.DOUBLE_TYPE || y.type == AtomicType.DOUBLE_TYPE ? DOUBLE : LONG;
            }
            return STRING;
        }
        if (a instanceof Dec x && b instanceof Dec y) {
            return mergeDecimals(x, y);
        }
        if (a instanceof Dec d && b instanceof Atom x) {
            return decimalWithAtom(d, x);
        }
        if (b instanceof Dec d && a instanceof Atom x) {
            return decimalWithAtom(d, x);
        }
        if (a instanceof Struct x && b instanceof Struct y) {
            return mergeStructs(x, y);
        }
        if (a instanceof Arr x && b instanceof Arr y) {
            return new Arr(compatible(x.element, y.element));
        }
        return STRING;
    }

    private static boolean isNumeric(Atom a) {
        return a.type == AtomicType.LONG_TYPE || a.type == AtomicType.DOUBLE_TYPE;
    }

    private static T decimalWithAtom(Dec d, Atom x) {
        if (x.type == AtomicType.DOUBLE_TYPE) {
            return DOUBLE;
        }
        if (x.type == AtomicType.LONG_TYPE) {
            // decimal(20,0) holds any bigint
            if (d.precision - d.scale >= 20) {
                return d;
            }
            return mergeDecimals(new Dec(20, 0), d);
        }
        return STRING;
    }

    private static T mergeDecimals(Dec x, Dec y) {
        int scale = Math.max(x.scale, y.scale);
        int range = Math.max(x.precision - x.scale, y.precision - y.scale);
        return range + scale > DecimalType.MAX_PRECISION ? DOUBLE : new Dec(range + scale, scale);
    }

    private static T mergeStructs(Struct x, Struct y) {
        List<F> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < x.fields.length && j < y.fields.length) {
            int c = x.fields[i].name.compareTo(y.fields[j].name);
            if (c == 0) {
                out.add(new F(x.fields[i].name, compatible(x.fields[i].type, y.fields[j].type)));
                i++;
                j++;
            } else if (c < 0) {
                out.add(x.fields[i++]);
            } else {
                out.add(y.fields[j++]);
            }
        }
        while (i < x.fields.length) {
            out.add(x.fields[i++]);
        }
        while (j < y.fields.length) {
            out.add(y.fields[j++]);
        }
        return new Struct(out.toArray(new F[0]));
    }

    /** Spark's canonicalizeType: null types become string (or go), empty structs and unnamed fields go. */
    private T canonical(T t) {
        if (t instanceof Arr a) {
            T e = canonical(a.element);
            return e == null ? null : new Arr(e);
        }
        if (t instanceof Struct s) {
            List<F> fields = new ArrayList<>();
            for (F f : s.fields) {
                if (f.name == null || f.name.isEmpty()) {
                    continue;
                }
                T c = canonical(f.type);
                if (c != null) {
                    fields.add(new F(f.name, c));
                }
            }
            return fields.isEmpty() ? null : new Struct(fields.toArray(new F[0]));
        }
        if (t == NULL) {
            return settings.dropFieldIfAllNull ? null : STRING;
        }
        return t;
    }

    private static DataType toDataType(T t) {
        if (t instanceof Atom a) {
            return a.type;
        }
        if (t instanceof Dec d) {
            return new DecimalType(d.precision, d.scale);
        }
        if (t instanceof Arr a) {
            return ArrayType.of(toDataType(a.element == NULL ? STRING : a.element));
        }
        if (t instanceof Struct s) {
            List<StructField> fields = new ArrayList<>();
            for (F f : s.fields) {
                fields.add(StructField.of(f.name, toDataType(f.type == NULL ? STRING : f.type)));
            }
            return new StructType(fields);
        }
        return AtomicType.STRING_TYPE;
    }
}
