package io.sluice.core.expr;

import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** Java values as literal expressions, for {@code Functions.lit}. Internal to Sluice. */
public final class Literals {
    private Literals() {
    }

    /**
     * The literal for a Java value of one of the types {@link DataType} lists for atomic types, or null.
     *
     * @throws IllegalArgumentException for a value of another class
     */
    public static Expr.Literal of(Object value) {
        if (value == null) {
            return new Expr.Literal(null, null, "NULL", null);
        }
        DataType type;
        String text = value.toString();
        if (value instanceof Integer) {
            type = DataType.intType();
        } else if (value instanceof Long) {
            type = DataType.longType();
        } else if (value instanceof Short) {
            type = DataType.shortType();
        } else if (value instanceof Byte) {
            type = DataType.byteType();
        } else if (value instanceof Double) {
            type = DataType.doubleType();
        } else if (value instanceof Float) {
            type = DataType.floatType();
        } else if (value instanceof BigDecimal d) {
            if (d.scale() < 0) {
                d = d.setScale(0);
            }
            int precision = Math.max(d.precision(), d.scale());
            if (precision > DecimalType.MAX_PRECISION) {
                throw new IllegalArgumentException("The decimal literal " + value + " needs " + precision
                        + " digits; at most " + DecimalType.MAX_PRECISION + " are allowed");
            }
            value = d;
            type = new DecimalType(precision, d.scale());
            text = d.toPlainString();
        } else if (value instanceof String) {
            type = DataType.stringType();
        } else if (value instanceof Boolean) {
            type = DataType.booleanType();
        } else if (value instanceof LocalDate d) {
            type = DataType.dateType();
            text = "DATE '" + d + "'";
        } else if (value instanceof Instant t) {
            type = DataType.timestampType();
            value = DateTimes.toMicros(t);
            // In UTC for Column.toString(); the analyzer names the column in the session time zone.
            text = "TIMESTAMP '" + DateTimes.formatTimestamp((Instant) value, ZoneOffset.UTC) + "'";
        } else if (value instanceof byte[] b) {
            type = DataType.binaryType();
            value = b.clone();
            StringBuilder hex = new StringBuilder("X'");
            for (byte x : b) {
                hex.append(Character.toUpperCase(Character.forDigit((x >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(x & 0xF, 16)));
            }
            text = hex.append('\'').toString();
        } else {
            throw new IllegalArgumentException("The feature is not supported: Literal for '" + value + "' of "
                    + value.getClass() + ". Supported: Integer, Long, Short, Byte, Float, Double, BigDecimal, String, "
                    + "Boolean, LocalDate, Instant, byte[] and null");
        }
        return new Expr.Literal(value, type, text, null);
    }
}
