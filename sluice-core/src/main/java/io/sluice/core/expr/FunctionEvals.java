package io.sluice.core.expr;

import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The evaluators of the built-in functions other than JSON (see {@link Json}). All immutable. */
final class FunctionEvals {
    private FunctionEvals() {
    }

    /** A contributed function's call: the children's values, a new array per row, handed to its evaluator. */
    static final class Contributed extends Eval {
        final Eval[] children;
        final io.sluice.api.function.SqlFunction.Evaluator evaluator;

        Contributed(Eval[] children, io.sluice.api.function.SqlFunction.Evaluator evaluator) {
            this.children = children;
            this.evaluator = evaluator;
        }

        @Override
        Object eval(Row row) {
            Object[] values = new Object[children.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = children[i].eval(row);
            }
            return evaluator.evaluate(values);
        }
    }

    /** {@code LIKE} with {@code %} (any sequence) and {@code _} (one character), matched without allocating. */
    static final class LikePattern {
        private static final byte LIT = 0;
        private static final byte ONE = 1;
        private static final byte ANY = 2;
        private final byte[] kinds;
        private final char[] chars;

        private LikePattern(byte[] kinds, char[] chars) {
            this.kinds = kinds;
            this.chars = chars;
        }

        /**
         * Compiles a pattern; the escape character makes the next {@code %}, {@code _} or escape literal.
         *
         * @throws IllegalArgumentException as Spark, for an escape before another character or at the end
         */
        static LikePattern compile(String pattern, char escape) {
            byte[] kinds = new byte[pattern.length()];
            char[] chars = new char[pattern.length()];
            int n = 0;
            for (int i = 0; i < pattern.length(); i++) {
                char c = pattern.charAt(i);
                if (c == escape) {
                    if (i + 1 >= pattern.length()) {
                        throw new IllegalArgumentException("the pattern '" + pattern
                                + "' is invalid: it may not end with the escape character");
                    }
                    char next = pattern.charAt(++i);
                    if (next != '%' && next != '_' && next != escape) {
                        throw new IllegalArgumentException("the pattern '" + pattern
                                + "' is invalid: the escape character is not allowed to precede '" + next + "'");
                    }
                    kinds[n] = LIT;
                    chars[n++] = next;
                } else if (c == '%') {
                    if (n > 0 && kinds[n - 1] == ANY) {
                        continue; // %% is %
                    }
                    kinds[n++] = ANY;
                } else if (c == '_') {
                    kinds[n++] = ONE;
                } else {
                    kinds[n] = LIT;
                    chars[n++] = c;
                }
            }
            return new LikePattern(java.util.Arrays.copyOf(kinds, n), java.util.Arrays.copyOf(chars, n));
        }

        boolean matches(String s) {
            int n = kinds.length;
            int len = s.length();
            int si = 0;
            int pi = 0;
            int starPi = -1;
            int starSi = 0;
            while (si < len) {
                if (pi < n && kinds[pi] == ONE) {
                    si += Character.isHighSurrogate(s.charAt(si)) && si + 1 < len ? 2 : 1;
                    pi++;
                } else if (pi < n && kinds[pi] == LIT && chars[pi] == s.charAt(si)) {
                    si++;
                    pi++;
                } else if (pi < n && kinds[pi] == ANY) {
                    starPi = pi++;
                    starSi = si;
                } else if (starPi >= 0) {
                    pi = starPi + 1;
                    starSi++;
                    si = starSi;
                } else {
                    return false;
                }
            }
            while (pi < n && kinds[pi] == ANY) {
                pi++;
            }
            return pi == n;
        }
    }

    static final class Like extends Eval {
        final Eval value;
        final LikePattern fixed;
        final Eval pattern;
        final char escape;
        final boolean negated;

        Like(Eval value, LikePattern fixed, Eval pattern, char escape, boolean negated) {
            this.value = value;
            this.fixed = fixed;
            this.pattern = pattern;
            this.escape = escape;
            this.negated = negated;
        }

        @Override
        Object eval(Row row) {
            Object v = value.eval(row);
            if (v == null) {
                return null;
            }
            LikePattern p = fixed;
            if (p == null) {
                Object text = pattern.eval(row);
                if (text == null) {
                    return null;
                }
                p = LikePattern.compile((String) text, escape); // a pattern from a column: compiled per row
            }
            return p.matches((String) v) != negated;
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Strings

    static final int LOWER = 0;
    static final int UPPER = 1;
    static final int TRIM = 2;
    static final int LTRIM = 3;
    static final int RTRIM = 4;
    static final int LENGTH = 5;
    static final int BINARY_LENGTH = 6;

    static final class StringFn extends Eval {
        final Eval child;
        final int fn;

        StringFn(Eval child, int fn) {
            this.child = child;
            this.fn = fn;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            if (fn == BINARY_LENGTH) {
                return ((byte[]) v).length;
            }
            String s = (String) v;
            switch (fn) {
                case LOWER: return s.toLowerCase(Locale.ROOT);
                case UPPER: return s.toUpperCase(Locale.ROOT);
                case LENGTH: return s.codePointCount(0, s.length());
                default: return trim(s, fn);
            }
        }

        /** Spark's trim functions remove spaces (U+0020) only. */
        private static String trim(String s, int fn) {
            int start = 0;
            int end = s.length();
            if (fn != RTRIM) {
                while (start < end && s.charAt(start) == ' ') {
                    start++;
                }
            }
            if (fn != LTRIM) {
                while (end > start && s.charAt(end - 1) == ' ') {
                    end--;
                }
            }
            return s.substring(start, end);
        }
    }

    /** Spark's {@code substring(str, pos[, len])}: 1-based, 0 counts as 1, negative counts from the end. */
    static final class Substring extends Eval {
        final Eval str;
        final Eval pos;
        final Eval len;

        Substring(Eval str, Eval pos, Eval len) {
            this.str = str;
            this.pos = pos;
            this.len = len;
        }

        @Override
        Object eval(Row row) {
            Object v = str.eval(row);
            if (v == null) {
                return null;
            }
            Object p = pos.eval(row);
            if (p == null) {
                return null;
            }
            int length = Integer.MAX_VALUE;
            if (len != null) {
                Object l = len.eval(row);
                if (l == null) {
                    return null;
                }
                length = ((Number) l).intValue();
            }
            return substringSql((String) v, ((Number) p).intValue(), length);
        }
    }

    static String substringSql(String s, int pos, int length) {
        int chars = s.codePointCount(0, s.length());
        int start = pos > 0 ? pos - 1 : (pos < 0 ? chars + pos : 0);
        long endL = (long) start + length;
        int end = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, endL));
        start = Math.max(start, 0);
        end = Math.min(end, chars);
        if (start >= end) {
            return "";
        }
        int from = s.offsetByCodePoints(0, start);
        return s.substring(from, s.offsetByCodePoints(from, end - start));
    }

    /** {@code concat(...)}: null if any argument is null. */
    static final class Concat extends Eval {
        final Eval[] args;

        Concat(Eval[] args) {
            this.args = args;
        }

        @Override
        Object eval(Row row) {
            if (args.length == 1) {
                return args[0].eval(row);
            }
            StringBuilder sb = new StringBuilder();
            for (Eval a : args) {
                Object v = a.eval(row);
                if (v == null) {
                    return null;
                }
                sb.append((String) v);
            }
            return sb.toString();
        }
    }

    /** {@code concat_ws(sep, ...)}: skips null arguments; null only when the separator is. */
    static final class ConcatWs extends Eval {
        final Eval separator;
        final Eval[] args;

        ConcatWs(Eval separator, Eval[] args) {
            this.separator = separator;
            this.args = args;
        }

        @Override
        Object eval(Row row) {
            Object sep = separator.eval(row);
            if (sep == null) {
                return null;
            }
            StringBuilder sb = new StringBuilder();
            boolean first = true;
            for (Eval a : args) {
                Object v = a.eval(row);
                if (v != null) {
                    if (!first) {
                        sb.append((String) sep);
                    }
                    sb.append((String) v);
                    first = false;
                }
            }
            return sb.toString();
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Numbers

    static final class Abs extends Eval {
        final Eval child;
        final DataType type;

        Abs(Eval child, DataType type) {
            this.child = child;
            this.type = type;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            if (type == AtomicType.LONG_TYPE) {
                return Math.abs(((Number) v).longValue());
            } else if (type == AtomicType.INT_TYPE) {
                return Math.abs(((Number) v).intValue());
            } else if (type == AtomicType.SHORT_TYPE) {
                return (short) Math.abs(((Number) v).intValue());
            } else if (type == AtomicType.BYTE_TYPE) {
                return (byte) Math.abs(((Number) v).intValue());
            } else if (type == AtomicType.DOUBLE_TYPE) {
                return Math.abs(((Number) v).doubleValue());
            } else if (type == AtomicType.FLOAT_TYPE) {
                return Math.abs(((Number) v).floatValue());
            }
            return ((BigDecimal) v).abs();
        }
    }

    /** Spark's {@code round(x, scale)}: HALF_UP, into the type Spark gives. */
    static final class Round extends Eval {
        final Eval child;
        final int scale;
        final DataType type;

        Round(Eval child, int scale, DataType type) {
            this.child = child;
            this.scale = scale;
            this.type = type;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            if (type instanceof DecimalType dt) {
                BigDecimal r = ((BigDecimal) v).setScale(scale, RoundingMode.HALF_UP);
                return Casts.fit(r.scale() < 0 ? r.setScale(0) : r, dt);
            }
            if (type == AtomicType.DOUBLE_TYPE || type == AtomicType.FLOAT_TYPE) {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    return v;
                }
                double r = BigDecimal.valueOf(d).setScale(scale, RoundingMode.HALF_UP).doubleValue();
                return type == AtomicType.FLOAT_TYPE ? (Object) (float) r : (Object) r;
            }
            if (scale >= 0) {
                return v;
            }
            long r = BigDecimal.valueOf(((Number) v).longValue()).setScale(scale, RoundingMode.HALF_UP).longValue();
            return Casts.fromLong(r, type);
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Dates and times

    /**
     * {@code current_timestamp()}: the Sluice clock, read when the row is evaluated; {@code current_date()}: its
     * date in the session time zone, as Spark's.
     */
    static final class CurrentTimestamp extends Eval {
        final SluiceClock clock;
        final boolean date;
        final ZoneId zone;

        CurrentTimestamp(SluiceClock clock, boolean date, ZoneId zone) {
            this.clock = clock;
            this.date = date;
            this.zone = zone;
        }

        @Override
        Object eval(Row row) {
            Instant now = Instant.ofEpochMilli(clock.millis());
            return date ? LocalDate.ofInstant(now, zone) : now;
        }
    }

    /**
     * {@code to_timestamp(s, fmt)} and {@code to_date(s, fmt)} with a pattern, a timestamp without a zone in the
     * session time zone; no match is null.
     */
    static final class ParseWithPattern extends Eval {
        final Eval child;
        final DateTimeFormatter formatter;
        final boolean date;
        final ZoneId zone;

        ParseWithPattern(Eval child, DateTimeFormatter formatter, boolean date, ZoneId zone) {
            this.child = child;
            this.formatter = formatter;
            this.date = date;
            this.zone = zone;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            return date ? DateTimes.parseDateWith(formatter, (String) v) : DateTimes.parseWith(formatter, (String) v, zone);
        }
    }

    /** {@code map(k1, v1, ...)}; a null key fails the row, as in Spark. */
    static final class CreateMap extends Eval {
        final Eval[] keys;
        final Eval[] values;

        CreateMap(Eval[] keys, Eval[] values) {
            this.keys = keys;
            this.values = values;
        }

        @Override
        Object eval(Row row) {
            Map<Object, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < keys.length; i++) {
                Object k = keys[i].eval(row);
                if (k == null) {
                    throw new IllegalArgumentException("Cannot use NULL as map key");
                }
                m.put(k, values[i].eval(row));
            }
            return m;
        }
    }

    /** {@code struct(...)}: a row of the arguments' values, carrying the struct's schema. */
    static final class CreateStruct extends Eval {
        final Eval[] fields;
        final StructType schema;

        CreateStruct(Eval[] fields, StructType schema) {
            this.fields = fields;
            this.schema = schema;
        }

        @Override
        Object eval(Row row) {
            Object[] values = new Object[fields.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = fields[i].eval(row);
            }
            return Row.wrap(values).attach(schema);
        }
    }
}
