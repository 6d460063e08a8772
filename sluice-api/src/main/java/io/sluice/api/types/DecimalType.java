package io.sluice.api.types;

/**
 * {@code decimal(precision, scale)}: 1 ≤ precision ≤ 38, 0 ≤ scale ≤ precision, as in Spark.
 * Plain {@code decimal} means {@code decimal(10,0)}.
 */
public record DecimalType(int precision, int scale) implements DataType {
    public static final int MAX_PRECISION = 38;

    public DecimalType {
        if (precision < 1 || precision > MAX_PRECISION) {
            throw new IllegalArgumentException(
                    "Decimal precision " + precision + " is out of range: it must be between 1 and " + MAX_PRECISION);
        }
        if (scale < 0 || scale > precision) {
            throw new IllegalArgumentException(
                    "Decimal scale " + scale + " is out of range: it must be between 0 and the precision " + precision);
        }
    }

    @Override
    public String simpleString() {
        return "decimal(" + precision + "," + scale + ")";
    }

    @Override
    public String sql() {
        return "DECIMAL(" + precision + "," + scale + ")";
    }

    @Override
    public String toString() {
        return simpleString();
    }
}
