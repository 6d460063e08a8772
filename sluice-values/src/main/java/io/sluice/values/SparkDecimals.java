package io.sluice.values;

import io.sluice.api.types.DecimalType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.ParsePosition;
import java.util.Locale;

/**
 * Spark's decimal reading (ExprUtils.getDecimalParser and Decimal.set(value, precision, scale)), for the text
 * formats and JSON. Stateless and thread-safe.
 */
public final class SparkDecimals {
    private SparkDecimals() {
    }

    /** en-US: Java's BigDecimal syntax with grouping commas removed; other locales: that locale's format. */
    public static BigDecimal parse(String s, Locale locale) {
        if (locale.equals(Locale.US)) {
            return new BigDecimal(s.indexOf(',') >= 0 ? s.replace(",", "") : s);
        }
        DecimalFormat f = new DecimalFormat("", new DecimalFormatSymbols(locale));
        f.setParseBigDecimal(true);
        ParsePosition pos = new ParsePosition(0);
        Object r = f.parse(s, pos);
        if (r == null || pos.getIndex() != s.length() || pos.getErrorIndex() != -1) {
            throw new NumberFormatException("Cannot parse any decimal from '" + s + "'");
        }
        return (BigDecimal) r;
    }

    /**
     * Rounds half-up to the type's scale; fails when the result needs more digits than its precision.
     *
     * @throws ValueParseException with Spark's message when it does not fit
     */
    public static BigDecimal fit(BigDecimal v, DecimalType t) {
        BigDecimal r = fitOrNull(v, t);
        if (r == null) {
            BigDecimal scaled = v.setScale(t.scale(), RoundingMode.HALF_UP);
            throw new ValueParseException("Decimal precision " + scaled.precision() + " exceeds max precision "
                    + t.precision() + " of " + t.sql());
        }
        return r;
    }

    /** {@link #fit}, or null when the value does not fit ({@code CAST}'s rule, ANSI off). */
    public static BigDecimal fitOrNull(BigDecimal v, DecimalType t) {
        BigDecimal r = v.scale() == t.scale() ? v : v.setScale(t.scale(), RoundingMode.HALF_UP);
        return r.precision() - r.scale() > t.precision() - t.scale() && r.signum() != 0 ? null : r;
    }
}
