package io.sluice.core.expr;

import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.util.ArrayList;
import java.util.List;

/** Spark's type coercion rules (non-ANSI), as far as Sluice's expressions need them. */
final class Types {
    private Types() {
    }

    static final int MAX_PRECISION = DecimalType.MAX_PRECISION;

    static boolean isIntegral(DataType t) {
        return t == AtomicType.BYTE_TYPE || t == AtomicType.SHORT_TYPE || t == AtomicType.INT_TYPE
                || t == AtomicType.LONG_TYPE;
    }

    static boolean isFractional(DataType t) {
        return t == AtomicType.FLOAT_TYPE || t == AtomicType.DOUBLE_TYPE;
    }

    static boolean isNumeric(DataType t) {
        return isIntegral(t) || isFractional(t) || t instanceof DecimalType;
    }

    static boolean isString(DataType t) {
        return t == AtomicType.STRING_TYPE;
    }

    static boolean isAtomic(DataType t) {
        return t instanceof AtomicType || t instanceof DecimalType;
    }

    /** Equal types, ignoring nullability flags, as Spark's {@code sameType}. */
    static boolean same(DataType a, DataType b) {
        return a.simpleString().equals(b.simpleString());
    }

    /** byte 1, short 2, int 3, long 4, float 5, double 6. */
    private static int rank(DataType t) {
        if (t == AtomicType.BYTE_TYPE) {
            return 1;
        } else if (t == AtomicType.SHORT_TYPE) {
            return 2;
        } else if (t == AtomicType.INT_TYPE) {
            return 3;
        } else if (t == AtomicType.LONG_TYPE) {
            return 4;
        } else if (t == AtomicType.FLOAT_TYPE) {
            return 5;
        } else if (t == AtomicType.DOUBLE_TYPE) {
            return 6;
        }
        return 0;
    }

    /** The decimal type that holds every value of an integral type, as Spark's {@code DecimalType.forType}. */
    static DecimalType decimalFor(DataType integral) {
        if (integral == AtomicType.BYTE_TYPE) {
            return new DecimalType(3, 0);
        } else if (integral == AtomicType.SHORT_TYPE) {
            return new DecimalType(5, 0);
        } else if (integral == AtomicType.INT_TYPE) {
            return new DecimalType(10, 0);
        }
        return new DecimalType(20, 0);
    }

    static DecimalType bounded(int precision, int scale) {
        return new DecimalType(Math.min(precision, MAX_PRECISION), Math.min(scale, MAX_PRECISION));
    }

    /** Spark's {@code adjustPrecisionScale} with precision loss allowed: keep the integral digits, scale ≥ 6. */
    static DecimalType adjust(int precision, int scale) {
        if (precision <= MAX_PRECISION) {
            return new DecimalType(precision, scale);
        }
        int intDigits = precision - scale;
        int minScale = Math.min(scale, 6);
        int adjustedScale = Math.max(MAX_PRECISION - intDigits, minScale);
        return new DecimalType(MAX_PRECISION, adjustedScale);
    }

    static DecimalType widerDecimal(DecimalType a, DecimalType b) {
        int scale = Math.max(a.scale(), b.scale());
        int range = Math.max(a.precision() - a.scale(), b.precision() - b.scale());
        return bounded(range + scale, scale);
    }

    /** The tightest numeric type holding both, or null. */
    static DataType widerNumeric(DataType a, DataType b) {
        if (same(a, b)) {
            return a;
        }
        if (a instanceof DecimalType da && b instanceof DecimalType db) {
            return widerDecimal(da, db);
        }
        if (a instanceof DecimalType da && isIntegral(b)) {
            return widerDecimal(da, decimalFor(b));
        }
        if (b instanceof DecimalType db && isIntegral(a)) {
            return widerDecimal(decimalFor(a), db);
        }
        if (a instanceof DecimalType || b instanceof DecimalType) {
            return AtomicType.DOUBLE_TYPE; // decimal with float or double
        }
        int ra = rank(a);
        int rb = rank(b);
        if (ra == 0 || rb == 0) {
            return null;
        }
        return ra >= rb ? a : b;
    }

    /**
     * Spark's {@code findTightestCommonType} plus its string promotion ({@code findWiderTypeForTwo}): the type
     * CASE branches, COALESCE arguments and IN lists are brought to. Null when there is none.
     */
    static DataType wider(DataType a, DataType b) {
        if (same(a, b)) {
            return a;
        }
        if (isNumeric(a) && isNumeric(b)) {
            return widerNumeric(a, b);
        }
        if ((a == AtomicType.DATE_TYPE && b == AtomicType.TIMESTAMP_TYPE)
                || (a == AtomicType.TIMESTAMP_TYPE && b == AtomicType.DATE_TYPE)) {
            return AtomicType.TIMESTAMP_TYPE;
        }
        if (isString(a) && isAtomic(b) && b != AtomicType.BINARY_TYPE && b != AtomicType.BOOLEAN_TYPE) {
            return a;
        }
        if (isString(b) && isAtomic(a) && a != AtomicType.BINARY_TYPE && a != AtomicType.BOOLEAN_TYPE) {
            return b;
        }
        if (a instanceof ArrayType x && b instanceof ArrayType y) {
            DataType e = wider(x.elementType(), y.elementType());
            return e == null ? null : ArrayType.of(e);
        }
        if (a instanceof MapType x && b instanceof MapType y) {
            DataType k = wider(x.keyType(), y.keyType());
            DataType v = wider(x.valueType(), y.valueType());
            return k == null || v == null ? null : MapType.of(k, v);
        }
        if (a instanceof StructType x && b instanceof StructType y && x.size() == y.size()) {
            List<StructField> fields = new ArrayList<>();
            for (int i = 0; i < x.size(); i++) {
                if (!x.field(i).name().equalsIgnoreCase(y.field(i).name())) {
                    return null;
                }
                DataType f = wider(x.field(i).dataType(), y.field(i).dataType());
                if (f == null) {
                    return null;
                }
                fields.add(StructField.of(x.field(i).name(), f));
            }
            return new StructType(fields);
        }
        return null;
    }

    /**
     * The type both sides of a comparison are cast to, as Spark's {@code findCommonTypeForBinaryComparison}
     * (non-ANSI): a string compared with a number, date, timestamp or boolean is cast to that type; a string with
     * a decimal compares as double. Null when they cannot be compared.
     */
    static DataType comparison(DataType a, DataType b) {
        if (same(a, b)) {
            return a;
        }
        if (isNumeric(a) && isNumeric(b)) {
            return widerNumeric(a, b);
        }
        if ((a == AtomicType.DATE_TYPE && b == AtomicType.TIMESTAMP_TYPE)
                || (a == AtomicType.TIMESTAMP_TYPE && b == AtomicType.DATE_TYPE)) {
            return AtomicType.TIMESTAMP_TYPE;
        }
        if ((isString(a) && b instanceof DecimalType) || (isString(b) && a instanceof DecimalType)) {
            return AtomicType.DOUBLE_TYPE;
        }
        if (isString(a) && isAtomic(b) && b != AtomicType.BINARY_TYPE) {
            return b;
        }
        if (isString(b) && isAtomic(a) && a != AtomicType.BINARY_TYPE) {
            return a;
        }
        return wider(a, b);
    }

    /** Whether values of the type can be ordered with {@code < <= > >=} (equality works on every type). */
    static boolean orderable(DataType t) {
        return isAtomic(t);
    }

    /** Spark's {@code asNullable}: every nested field, element and value nullable, as from_json returns. */
    static DataType asNullable(DataType t) {
        if (t instanceof StructType s) {
            List<StructField> fields = new ArrayList<>();
            for (StructField f : s.fields()) {
                fields.add(new StructField(f.name(), asNullable(f.dataType()), true));
            }
            return new StructType(fields);
        } else if (t instanceof ArrayType a) {
            return new ArrayType(asNullable(a.elementType()), true);
        } else if (t instanceof MapType m) {
            return new MapType(asNullable(m.keyType()), asNullable(m.valueType()), true);
        }
        return t;
    }

    /** The type as Spark quotes it in messages: {@code "BIGINT"}. */
    static String quoted(DataType t) {
        return "\"" + t.sql() + "\"";
    }
}
