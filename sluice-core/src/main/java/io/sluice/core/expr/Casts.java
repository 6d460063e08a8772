package io.sluice.core.expr;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;
import io.sluice.values.SparkDecimals;
import io.sluice.values.SparkTimestamps;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Spark's CAST with ANSI mode off: a value that cannot be converted becomes null rather than an error, integral
 * overflow wraps, fractional to integral truncates (saturating, NaN to 0), a decimal that does not fit its
 * precision becomes null.
 */
final class Casts {
    private Casts() {
    }

    /** Converts one non-null value. Implementations are stateless. */
    @FunctionalInterface
    interface Conv {
        Object apply(Object v);
    }

    /**
     * The conversion from one type to another, or null when Spark does not allow that cast; {@code zone} is the
     * session time zone (strings without a zone, date to timestamp and back, timestamps as strings).
     */
    static Conv converter(DataType from, DataType to, ZoneId zone) {
        if (Types.same(from, to)) {
            return v -> v;
        }
        if (to == AtomicType.STRING_TYPE) {
            return toStringConv(from, zone);
        }
        if (from == AtomicType.STRING_TYPE) {
            return fromString(to, zone);
        }
        if (to == AtomicType.BOOLEAN_TYPE) {
            if (Types.isIntegral(from)) {
                return v -> ((Number) v).longValue() != 0;
            } else if (Types.isFractional(from)) {
                return v -> ((Number) v).doubleValue() != 0;
            } else if (from instanceof DecimalType) {
                return v -> ((BigDecimal) v).signum() != 0;
            } else if (from == AtomicType.TIMESTAMP_TYPE) {
                return v -> micros((Instant) v) != 0;
            } else if (from == AtomicType.DATE_TYPE) {
                return v -> NULL_MARKER;
            }
            return null;
        }
        if (Types.isNumeric(to)) {
            return toNumber(from, to);
        }
        if (to == AtomicType.TIMESTAMP_TYPE) {
            if (from == AtomicType.DATE_TYPE) {
                return v -> ((LocalDate) v).atStartOfDay(zone).toInstant();
            } else if (Types.isIntegral(from)) {
                return v -> Instant.ofEpochSecond(((Number) v).longValue());
            } else if (Types.isFractional(from)) {
                return v -> {
                    double d = ((Number) v).doubleValue();
                    if (Double.isNaN(d) || Double.isInfinite(d)) {
                        return NULL_MARKER;
                    }
                    return ofMicros((long) (d * 1_000_000d));
                };
            } else if (from instanceof DecimalType) {
                return v -> ofMicros(((BigDecimal) v).movePointRight(6).longValue());
            }
            return null;
        }
        if (to == AtomicType.DATE_TYPE) {
            if (from == AtomicType.TIMESTAMP_TYPE) {
                return v -> LocalDate.ofInstant((Instant) v, zone);
            }
            return null;
        }
        if (to instanceof StructType ts && from instanceof StructType fs) {
            if (ts.size() != fs.size()) {
                return null;
            }
            Conv[] fields = new Conv[ts.size()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = converter(fs.field(i).dataType(), ts.field(i).dataType(), zone);
                if (fields[i] == null) {
                    return null;
                }
            }
            return v -> {
                Row r = (Row) v;
                Object[] out = new Object[fields.length];
                for (int i = 0; i < fields.length; i++) {
                    out[i] = applyNullable(fields[i], r.get(i));
                }
                return Row.wrap(out).attach(ts);
            };
        }
        if (to instanceof ArrayType ta && from instanceof ArrayType fa) {
            Conv element = converter(fa.elementType(), ta.elementType(), zone);
            if (element == null) {
                return null;
            }
            return v -> {
                List<?> in = (List<?>) v;
                List<Object> out = new ArrayList<>(in.size());
                for (Object o : in) {
                    out.add(applyNullable(element, o));
                }
                return out;
            };
        }
        if (to instanceof MapType tm && from instanceof MapType fm) {
            Conv key = converter(fm.keyType(), tm.keyType(), zone);
            Conv value = converter(fm.valueType(), tm.valueType(), zone);
            if (key == null || value == null) {
                return null;
            }
            return v -> {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    Object k = applyNullable(key, e.getKey());
                    if (k != null) {
                        out.put(k, applyNullable(value, e.getValue()));
                    }
                }
                return out;
            };
        }
        return null;
    }

    /**
     * Returned by a converter for a value that becomes SQL NULL. A marker rather than null so converters can be
     * told apart from "not castable" and so callers check one thing.
     */
    static final Object NULL_MARKER = new Object() {
        @Override
        public String toString() {
            return "NULL";
        }
    };

    /** Applies a converter to a value that may be null; the marker becomes null. */
    static Object applyNullable(Conv c, Object v) {
        if (v == null) {
            return null;
        }
        Object r = c.apply(v);
        return r == NULL_MARKER ? null : r;
    }

    // -------------------------------------------------------------------------------------------------------------
    // To string

    private static Conv toStringConv(DataType from, ZoneId zone) {
        if (from == AtomicType.BINARY_TYPE) {
            return v -> new String((byte[]) v, StandardCharsets.UTF_8);
        }
        if (Types.isAtomic(from)) {
            return v -> atomicToString(v, zone);
        }
        return v -> {
            StringBuilder sb = new StringBuilder();
            appendValue(sb, v, from, zone);
            return sb.toString();
        };
    }

    /** An atomic value as Spark casts it to string, a timestamp in the session zone {@code zone}. */
    static String atomicToString(Object v, ZoneId zone) {
        if (v instanceof String s) {
            return s;
        } else if (v instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (v instanceof Instant t) {
            return DateTimes.formatTimestamp(t, zone);
        } else if (v instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        return v.toString(); // numbers, booleans, LocalDate (yyyy-MM-dd)
    }

    /** Spark's string form of nested values: {@code {1, a}}, {@code [1, null]}, {@code {a -> 1}}. */
    private static void appendValue(StringBuilder sb, Object v, DataType t, ZoneId zone) {
        if (v == null) {
            sb.append("null");
        } else if (t instanceof StructType s) {
            Row r = (Row) v;
            sb.append('{');
            for (int i = 0; i < s.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                appendValue(sb, r.get(i), s.field(i).dataType(), zone);
            }
            sb.append('}');
        } else if (t instanceof ArrayType a) {
            sb.append('[');
            boolean first = true;
            for (Object o : (List<?>) v) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                appendValue(sb, o, a.elementType(), zone);
            }
            sb.append(']');
        } else if (t instanceof MapType m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                appendValue(sb, e.getKey(), m.keyType(), zone);
                sb.append(" -> ");
                appendValue(sb, e.getValue(), m.valueType(), zone);
            }
            sb.append('}');
        } else {
            sb.append(atomicToString(v, zone));
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // From string

    private static Conv fromString(DataType to, ZoneId zone) {
        if (to == AtomicType.BOOLEAN_TYPE) {
            return v -> stringToBoolean((String) v);
        } else if (to == AtomicType.LONG_TYPE) {
            return v -> orMarker(parseLong((String) v, Long.MIN_VALUE, Long.MAX_VALUE));
        } else if (to == AtomicType.INT_TYPE) {
            return v -> {
                Long l = parseLong((String) v, Integer.MIN_VALUE, Integer.MAX_VALUE);
                return l == null ? NULL_MARKER : (Object) l.intValue();
            };
        } else if (to == AtomicType.SHORT_TYPE) {
            return v -> {
                Long l = parseLong((String) v, Short.MIN_VALUE, Short.MAX_VALUE);
                return l == null ? NULL_MARKER : (Object) l.shortValue();
            };
        } else if (to == AtomicType.BYTE_TYPE) {
            return v -> {
                Long l = parseLong((String) v, Byte.MIN_VALUE, Byte.MAX_VALUE);
                return l == null ? NULL_MARKER : (Object) l.byteValue();
            };
        } else if (to == AtomicType.DOUBLE_TYPE) {
            return v -> orMarker(parseDouble((String) v));
        } else if (to == AtomicType.FLOAT_TYPE) {
            return v -> {
                Double d = parseDouble((String) v);
                return d == null ? NULL_MARKER : (Object) d.floatValue();
            };
        } else if (to instanceof DecimalType dt) {
            return v -> {
                BigDecimal d;
                try {
                    d = new BigDecimal(DateTimes.trim((String) v));
                } catch (NumberFormatException e) {
                    return NULL_MARKER;
                }
                return orMarker(fit(d, dt));
            };
        } else if (to == AtomicType.DATE_TYPE) {
            return v -> orMarker(DateTimes.parseDate((String) v));
        } else if (to == AtomicType.TIMESTAMP_TYPE) {
            return v -> orMarker(DateTimes.parseTimestamp((String) v, zone));
        } else if (to == AtomicType.BINARY_TYPE) {
            return v -> ((String) v).getBytes(StandardCharsets.UTF_8);
        }
        return null; // string to struct, array or map: Spark has no such cast
    }

    private static Object orMarker(Object v) {
        return v == null ? NULL_MARKER : v;
    }

    private static Object stringToBoolean(String s) {
        String t = DateTimes.trim(s).toLowerCase(Locale.ROOT);
        return switch (t) {
            case "t", "true", "y", "yes", "1" -> Boolean.TRUE;
            case "f", "false", "n", "no", "0" -> Boolean.FALSE;
            default -> NULL_MARKER;
        };
    }

    /**
     * Spark's {@code UTF8String.toLong}: optional sign, digits, and an optional fraction that is dropped
     * ({@code "1.9"} is 1). Null when not a number or out of [min, max].
     */
    static Long parseLong(String str, long min, long max) {
        String s = DateTimes.trim(str);
        int n = s.length();
        if (n == 0) {
            return null;
        }
        int i = 0;
        boolean negative = false;
        char c0 = s.charAt(0);
        if (c0 == '-' || c0 == '+') {
            negative = c0 == '-';
            i++;
            if (n == 1) {
                return null;
            }
        }
        // Accumulate negatively so that Long.MIN_VALUE parses.
        long result = 0;
        int digits = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                break;
            }
            if (c < '0' || c > '9') {
                return null;
            }
            digits++;
            if (result < Long.MIN_VALUE / 10) {
                return null;
            }
            result = result * 10;
            int d = c - '0';
            if (result < Long.MIN_VALUE + d) {
                return null;
            }
            result -= d;
        }
        if (i < n) { // a fraction: digits only, and dropped
            for (int j = i + 1; j < n; j++) {
                char c = s.charAt(j);
                if (c < '0' || c > '9') {
                    return null;
                }
                digits++;
            }
        }
        if (digits == 0) {
            return null;
        }
        if (!negative) {
            if (result == Long.MIN_VALUE) {
                return null;
            }
            result = -result;
        }
        if (result < min || result > max) {
            return null;
        }
        return result;
    }

    /** Spark's string to double: Java's syntax plus inf, infinity and nan in any case; null when not a number. */
    static Double parseDouble(String str) {
        String s = DateTimes.trim(str);
        switch (s.toLowerCase(Locale.ROOT)) {
            case "inf", "+inf", "infinity", "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf", "-infinity":
                return Double.NEGATIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                break;
        }
        if (s.isEmpty()) {
            return null;
        }
        char last = s.charAt(s.length() - 1);
        if (!Character.isDigit(last) && last != '.' && last != 'd' && last != 'D' && last != 'f' && last != 'F') {
            return null; // Java would accept "NaN"/"Infinity" forms handled above; reject other words fast
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // To numbers

    private static Conv toNumber(DataType from, DataType to) {
        if (from == AtomicType.BOOLEAN_TYPE) {
            return v -> fromLong((Boolean) v ? 1 : 0, to);
        }
        if (from == AtomicType.DATE_TYPE) {
            return v -> NULL_MARKER; // Spark (non-ANSI) casts a date to any number as null
        }
        if (from == AtomicType.TIMESTAMP_TYPE) {
            if (to == AtomicType.DOUBLE_TYPE) {
                return v -> micros((Instant) v) / 1_000_000d;
            } else if (to == AtomicType.FLOAT_TYPE) {
                return v -> (float) (micros((Instant) v) / 1_000_000d);
            } else if (to instanceof DecimalType dt) {
                return v -> orMarker(fit(BigDecimal.valueOf(micros((Instant) v), 6), dt));
            }
            return v -> fromLong(Math.floorDiv(micros((Instant) v), 1_000_000L), to);
        }
        if (Types.isIntegral(from)) {
            return v -> fromLong(((Number) v).longValue(), to);
        }
        if (Types.isFractional(from)) {
            return v -> fromDouble(((Number) v).doubleValue(), to);
        }
        if (from instanceof DecimalType) {
            if (to instanceof DecimalType dt) {
                return v -> orMarker(fit((BigDecimal) v, dt));
            } else if (to == AtomicType.DOUBLE_TYPE) {
                return v -> ((BigDecimal) v).doubleValue();
            } else if (to == AtomicType.FLOAT_TYPE) {
                return v -> ((BigDecimal) v).floatValue();
            }
            return v -> fromLong(((BigDecimal) v).longValue(), to);
        }
        return null;
    }

    /** An integral value in the target numeric type; narrowing wraps as in Java (Spark non-ANSI). */
    static Object fromLong(long l, DataType to) {
        if (to == AtomicType.LONG_TYPE) {
            return l;
        } else if (to == AtomicType.INT_TYPE) {
            return (int) l;
        } else if (to == AtomicType.SHORT_TYPE) {
            return (short) l;
        } else if (to == AtomicType.BYTE_TYPE) {
            return (byte) l;
        } else if (to == AtomicType.DOUBLE_TYPE) {
            return (double) l;
        } else if (to == AtomicType.FLOAT_TYPE) {
            return (float) l;
        }
        return orMarker(fit(BigDecimal.valueOf(l), (DecimalType) to));
    }

    private static Object fromDouble(double d, DataType to) {
        if (to == AtomicType.DOUBLE_TYPE) {
            return d;
        } else if (to == AtomicType.FLOAT_TYPE) {
            return (float) d;
        } else if (to == AtomicType.LONG_TYPE) {
            return (long) d;
        } else if (to == AtomicType.INT_TYPE) {
            return (int) d;
        } else if (to == AtomicType.SHORT_TYPE) {
            return (short) (int) d;
        } else if (to == AtomicType.BYTE_TYPE) {
            return (byte) (int) d;
        }
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return NULL_MARKER;
        }
        return orMarker(fit(BigDecimal.valueOf(d), (DecimalType) to));
    }

    /** The value rounded half-up to the type's scale, or null when it needs more digits than the precision. */
    static BigDecimal fit(BigDecimal d, DecimalType t) {
        return SparkDecimals.fitOrNull(d, t);
    }

    static long micros(Instant t) {
        return SparkTimestamps.micros(t);
    }

    static Instant ofMicros(long micros) {
        return SparkTimestamps.instant(micros);
    }
}
