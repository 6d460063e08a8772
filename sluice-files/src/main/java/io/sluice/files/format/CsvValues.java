package io.sluice.files.format;

import io.sluice.api.RowBuilder;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructField;
import io.sluice.values.ValueParseException;
import io.sluice.values.SparkDecimals;

import java.nio.charset.StandardCharsets;

/**
 * Converts CSV tokens to column values as Spark's UnivocityParser does: a null token or one equal to
 * {@code nullValue} is null (an error for a NOT NULL column); numbers follow Java's parsers (no surrounding
 * spaces for integers; floats and doubles also accept {@code nanValue}, {@code positiveInf}, {@code negativeInf});
 * booleans are {@code true}/{@code false} in any case; dates and timestamps follow {@link TemporalParsers}.
 */
final class CsvValues {
    private CsvValues() {
    }

    abstract static class Converter {
        final String name;
        final boolean nullable;
        final char[] nullValue;

        Converter(StructField f, CsvSettings s) {
            this.name = f.name();
            this.nullable = f.nullable();
            this.nullValue = s.nullValue.toCharArray();
        }

        final Object convert(char[] b, int off, int len) {
            if (len < 0 || isNullValue(b, off, len)) {
                if (!nullable) {
                    throw new ValueParseException("null value found but field " + name + " is not nullable.");
                }
                return null;
            }
            return value(b, off, len);
        }

        private boolean isNullValue(char[] b, int off, int len) {
            char[] n = nullValue;
            if (len != n.length) {
                return false;
            }
            for (int i = 0; i < len; i++) {
                if (b[off + i] != n[i]) {
                    return false;
                }
            }
            return true;
        }

        abstract Object value(char[] b, int off, int len);

        /** {@link #convert} straight into column {@code col} of the builder's current row. */
        final void convertInto(RowBuilder row, int col, char[] b, int off, int len) {
            if (len < 0 || isNullValue(b, off, len)) {
                if (!nullable) {
                    throw new ValueParseException("null value found but field " + name + " is not nullable.");
                }
                row.setNull(col);
                return;
            }
            put(row, col, b, off, len);
        }

        /** Sets the value; a type stored without an object (a string, a number, a timestamp) overrides it. */
        void put(RowBuilder row, int col, char[] b, int off, int len) {
            row.set(col, value(b, off, len));
        }
    }

    static Converter of(StructField f, CsvSettings s) {
        DataType t = f.dataType();
        if (t instanceof DecimalType d) {
            return new Converter(f, s) {
                @Override
                Object value(char[] b, int off, int len) {
                    String str = new String(b, off, len);
                    try {
                        return SparkDecimals.fit(SparkDecimals.parse(str, s.locale), d);
                    } catch (NumberFormatException e) {
                        throw new ValueParseException("Cannot parse '" + str + "' as " + d.sql(), e);
                    }
                }
            };
        }
        AtomicType a = (AtomicType) t;
        return switch (a) {
            case STRING_TYPE -> new Converter(f, s) {
                @Override
                Object value(char[] b, int off, int len) {
                    return new String(b, off, len);
                }

                @Override
                void put(RowBuilder row, int col, char[] b, int off, int len) {
                    row.setString(col, b, off, len);
                }
            };
            case BYTE_TYPE, SHORT_TYPE, INT_TYPE, LONG_TYPE -> new Converter(f, s) {
                private final long min = switch (a) {
                    case BYTE_TYPE -> Byte.MIN_VALUE;
                    case SHORT_TYPE -> Short.MIN_VALUE;
                    case INT_TYPE -> Integer.MIN_VALUE;
                    default -> Long.MIN_VALUE;
                };
                private final long max = switch (a) {
                    case BYTE_TYPE -> Byte.MAX_VALUE;
                    case SHORT_TYPE -> Short.MAX_VALUE;
                    case INT_TYPE -> Integer.MAX_VALUE;
                    default -> Long.MAX_VALUE;
                };

                @Override
                void put(RowBuilder row, int col, char[] b, int off, int len) {
                    row.setLong(col, parseLong(b, off, len, min, max));
                }

                @Override
                Object value(char[] b, int off, int len) {
                    long v = parseLong(b, off, len, min, max);
                    return switch (a) {
                        case BYTE_TYPE -> (byte) v;
                        case SHORT_TYPE -> (short) v;
                        case INT_TYPE -> (int) v;
                        default -> v;
                    };
                }
            };
            case FLOAT_TYPE, DOUBLE_TYPE -> new Converter(f, s) {
                @Override
                Object value(char[] b, int off, int len) {
                    String str = new String(b, off, len);
                    double d;
                    if (str.equals(s.nanValue)) {
                        d = Double.NaN;
                    } else if (str.equals(s.negativeInf)) {
                        d = Double.NEGATIVE_INFINITY;
                    } else if (str.equals(s.positiveInf)) {
                        d = Double.POSITIVE_INFINITY;
                    } else {
                        try {
                            return a == AtomicType.FLOAT_TYPE ? (Object) Float.parseFloat(str) : (Object) Double.parseDouble(str);
                        } catch (NumberFormatException e) {
                            throw new ValueParseException("Cannot parse '" + str + "' as " + a.sql(), e);
                        }
                    }
                    return a == AtomicType.FLOAT_TYPE ? (Object) (float) d : (Object) d;
                }
            };
            case BOOLEAN_TYPE -> new Converter(f, s) {
                @Override
                Object value(char[] b, int off, int len) {
                    String str = new String(b, off, len);
                    if (str.equalsIgnoreCase("true")) {
                        return Boolean.TRUE;
                    }
                    if (str.equalsIgnoreCase("false")) {
                        return Boolean.FALSE;
                    }
                    throw new ValueParseException("Cannot parse '" + str + "' as BOOLEAN");
                }
            };
            case TIMESTAMP_TYPE -> new Converter(f, s) {
                @Override
                Object value(char[] b, int off, int len) {
                    return s.temporal.timestamp(b, off, len);
                }

                @Override
                void put(RowBuilder row, int col, char[] b, int off, int len) {
                    row.setTimestampMicros(col, s.temporal.timestampMicros(b, off, len));
                }
            };
            case DATE_TYPE -> new Converter(f, s) {
                @Override
                Object value(char[] b, int off, int len) {
                    return s.temporal.date(b, off, len);
                }
            };
            case BINARY_TYPE -> new Converter(f, s) {
                @Override
                Object value(char[] b, int off, int len) {
                    return new String(b, off, len).getBytes(StandardCharsets.UTF_8);
                }
            };
        };
    }

    /** Long.parseLong's rules (sign, Unicode decimal digits) on a char range, with a range check. */
    static long parseLong(char[] b, int off, int len, long min, long max) {
        int i = off;
        int end = off + len;
        if (len == 0) {
            throw bad(b, off, len);
        }
        boolean negative = false;
        char first = b[i];
        if (first == '-' || first == '+') {
            negative = first == '-';
            i++;
            if (i == end) {
                throw bad(b, off, len);
            }
        }
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long multmin = limit / 10;
        long result = 0;
        while (i < end) {
            char c = b[i++];
            int digit = c >= '0' && c <= '9' ? c - '0' : c < 128 ? -1 : Character.digit(c, 10);
            if (digit < 0 || result < multmin) {
                throw bad(b, off, len);
            }
            result *= 10;
            if (result < limit + digit) {
                throw bad(b, off, len);
            }
            result -= digit;
        }
        long v = negative ? result : -result;
        if (v < min || v > max) {
            throw bad(b, off, len);
        }
        return v;
    }

    private static ValueParseException bad(char[] b, int off, int len) {
        return new ValueParseException("For input string: \"" + new String(b, off, len) + "\"");
    }
}
