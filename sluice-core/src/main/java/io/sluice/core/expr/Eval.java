package io.sluice.core.expr;

import io.sluice.api.Row;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A compiled, resolved expression: evaluates against one input row. Trees of these are built once per
 * transformation and shared by every reader thread, so every implementation is immutable. Evaluation reads input
 * values by index (no name look-ups) and allocates nothing but the values it returns; comparisons and logic
 * return the shared {@link Boolean} constants.
 */
abstract class Eval {

    /** The value for this row, or null for SQL NULL. */
    abstract Object eval(Row row);

    static boolean isTrue(Object v) {
        return v instanceof Boolean b && b;
    }

    // -------------------------------------------------------------------------------------------------------------
    // Leaves and access

    static final class Const extends Eval {
        final Object value;

        Const(Object value) {
            this.value = value;
        }

        @Override
        Object eval(Row row) {
            return value;
        }
    }

    static final class Input extends Eval {
        final int index;

        Input(int index) {
            this.index = index;
        }

        @Override
        Object eval(Row row) {
            return row.get(index);
        }
    }

    /** A field of a struct value, by index. */
    static final class GetField extends Eval {
        final Eval child;
        final int index;

        GetField(Eval child, int index) {
            this.child = child;
            this.index = index;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            return v == null ? null : ((Row) v).get(index);
        }
    }

    /** {@code arr[i]}: 0-based; out of range is null (Spark non-ANSI). */
    static final class ArrayItem extends Eval {
        final Eval array;
        final Eval index;

        ArrayItem(Eval array, Eval index) {
            this.array = array;
            this.index = index;
        }

        @Override
        Object eval(Row row) {
            Object a = array.eval(row);
            if (a == null) {
                return null;
            }
            Object i = index.eval(row);
            if (i == null) {
                return null;
            }
            List<?> list = (List<?>) a;
            long k = ((Number) i).longValue();
            return k < 0 || k >= list.size() ? null : list.get((int) k);
        }
    }

    /** {@code map[key]} or {@code map.key}. */
    static final class MapValue extends Eval {
        final Eval map;
        final Eval key;

        MapValue(Eval map, Eval key) {
            this.map = map;
            this.key = key;
        }

        @Override
        Object eval(Row row) {
            Object m = map.eval(row);
            if (m == null) {
                return null;
            }
            Object k = key.eval(row);
            return k == null ? null : ((Map<?, ?>) m).get(k);
        }
    }

    static final class Cast extends Eval {
        final Eval child;
        final Casts.Conv conv;

        Cast(Eval child, Casts.Conv conv) {
            this.child = child;
            this.conv = conv;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            if (v == null) {
                return null;
            }
            Object r = conv.apply(v);
            return r == Casts.NULL_MARKER ? null : r;
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Arithmetic

    static final int ADD = 0;
    static final int SUB = 1;
    static final int MUL = 2;
    static final int DIV = 3;
    static final int MOD = 4;
    static final int IDIV = 5;

    /** long and int arithmetic (byte and short too, narrowed), wrapping on overflow as Spark without ANSI. */
    static final class IntegralArith extends Eval {
        final Eval left;
        final Eval right;
        final int op;
        final DataType type;

        IntegralArith(Eval left, Eval right, int op, DataType type) {
            this.left = left;
            this.right = right;
            this.op = op;
            this.type = type;
        }

        @Override
        Object eval(Row row) {
            Object a = left.eval(row);
            if (a == null) {
                return null;
            }
            Object b = right.eval(row);
            if (b == null) {
                return null;
            }
            long x = ((Number) a).longValue();
            long y = ((Number) b).longValue();
            long r;
            switch (op) {
                case ADD -> r = x + y;
                case SUB -> r = x - y;
                case MUL -> r = x * y;
                case MOD -> {
                    if (y == 0) {
                        return null;
                    }
                    r = x % y;
                }
                case IDIV -> {
                    if (y == 0) {
                        return null;
                    }
                    return x / y; // DIV is always bigint
                }
                default -> throw new IllegalStateException("op " + op);
            }
            if (type == AtomicType.LONG_TYPE) {
                return r;
            } else if (type == AtomicType.INT_TYPE) {
                return (int) r;
            } else if (type == AtomicType.SHORT_TYPE) {
                return (short) r;
            }
            return (byte) r;
        }
    }

    /** double and float arithmetic; division and remainder by zero are null, as in Spark. */
    static final class FractionalArith extends Eval {
        final Eval left;
        final Eval right;
        final int op;
        final boolean isFloat;

        FractionalArith(Eval left, Eval right, int op, boolean isFloat) {
            this.left = left;
            this.right = right;
            this.op = op;
            this.isFloat = isFloat;
        }

        @Override
        Object eval(Row row) {
            Object a = left.eval(row);
            if (a == null) {
                return null;
            }
            Object b = right.eval(row);
            if (b == null) {
                return null;
            }
            if (isFloat) {
                float x = ((Number) a).floatValue();
                float y = ((Number) b).floatValue();
                switch (op) {
                    case ADD: return x + y;
                    case SUB: return x - y;
                    case MUL: return x * y;
                    case DIV: return y == 0 ? null : (Object) (x / y);
                    case MOD: return y == 0 ? null : (Object) (x % y);
                    default: throw new IllegalStateException("op " + op);
                }
            }
            double x = ((Number) a).doubleValue();
            double y = ((Number) b).doubleValue();
            switch (op) {
                case ADD: return x + y;
                case SUB: return x - y;
                case MUL: return x * y;
                case DIV: return y == 0 ? null : (Object) (x / y);
                case MOD: return y == 0 ? null : (Object) (x % y);
                default: throw new IllegalStateException("op " + op);
            }
        }
    }

    /** Decimal arithmetic into the result type Spark computes; a result that does not fit is null. */
    static final class DecimalArith extends Eval {
        final Eval left;
        final Eval right;
        final int op;
        final DecimalType type;

        DecimalArith(Eval left, Eval right, int op, DecimalType type) {
            this.left = left;
            this.right = right;
            this.op = op;
            this.type = type;
        }

        @Override
        Object eval(Row row) {
            Object a = left.eval(row);
            if (a == null) {
                return null;
            }
            Object b = right.eval(row);
            if (b == null) {
                return null;
            }
            BigDecimal x = (BigDecimal) a;
            BigDecimal y = (BigDecimal) b;
            BigDecimal r;
            switch (op) {
                case ADD -> r = x.add(y);
                case SUB -> r = x.subtract(y);
                case MUL -> r = x.multiply(y);
                case DIV -> {
                    if (y.signum() == 0) {
                        return null;
                    }
                    r = x.divide(y, type.scale(), RoundingMode.HALF_UP);
                }
                case MOD -> {
                    if (y.signum() == 0) {
                        return null;
                    }
                    r = x.remainder(y);
                }
                case IDIV -> {
                    if (y.signum() == 0) {
                        return null;
                    }
                    return x.divideToIntegralValue(y).longValue();
                }
                default -> throw new IllegalStateException("op " + op);
            }
            return Casts.fit(r, type);
        }
    }

    static final class Negate extends Eval {
        final Eval child;
        final DataType type;

        Negate(Eval child, DataType type) {
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
                return -((Number) v).longValue();
            } else if (type == AtomicType.INT_TYPE) {
                return -((Number) v).intValue();
            } else if (type == AtomicType.SHORT_TYPE) {
                return (short) -((Number) v).intValue();
            } else if (type == AtomicType.BYTE_TYPE) {
                return (byte) -((Number) v).intValue();
            } else if (type == AtomicType.DOUBLE_TYPE) {
                return -((Number) v).doubleValue();
            } else if (type == AtomicType.FLOAT_TYPE) {
                return -((Number) v).floatValue();
            }
            return ((BigDecimal) v).negate();
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Comparison

    /** Orders two non-null values of one type. Stateless. */
    @FunctionalInterface
    interface Cmp {
        int compare(Object a, Object b);
    }

    static Cmp comparator(DataType t) {
        if (Types.isIntegral(t)) {
            return (a, b) -> Long.compare(((Number) a).longValue(), ((Number) b).longValue());
        } else if (Types.isFractional(t)) {
            return (a, b) -> compareDoubles(((Number) a).doubleValue(), ((Number) b).doubleValue());
        } else if (t instanceof DecimalType) {
            return (a, b) -> ((BigDecimal) a).compareTo((BigDecimal) b);
        } else if (t == AtomicType.STRING_TYPE) {
            return (a, b) -> compareStrings((String) a, (String) b);
        } else if (t == AtomicType.BOOLEAN_TYPE) {
            return (a, b) -> Boolean.compare((Boolean) a, (Boolean) b);
        } else if (t == AtomicType.DATE_TYPE) {
            return (a, b) -> ((LocalDate) a).compareTo((LocalDate) b);
        } else if (t == AtomicType.TIMESTAMP_TYPE) {
            return (a, b) -> ((Instant) a).compareTo((Instant) b);
        } else if (t == AtomicType.BINARY_TYPE) {
            return (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
        }
        return (a, b) -> Objects.deepEquals(a, b) ? 0 : 1; // structs, arrays, maps: equality only
    }

    /** Spark's double order: NaN equals NaN and is above everything; -0.0 equals 0.0. */
    static int compareDoubles(double x, double y) {
        return x == y ? 0 : Double.compare(x, y);
    }

    /** Code point order, which is the UTF-8 byte order Spark compares strings in (the one implementation). */
    static int compareStrings(String a, String b) {
        return io.sluice.api.source.ColumnFilter.compareCodePoints(a, b);
    }

    static final int EQ = 0;
    static final int NE = 1;
    static final int LT = 2;
    static final int LE = 3;
    static final int GT = 4;
    static final int GE = 5;
    static final int EQ_NULL_SAFE = 6;

    static final class Compare extends Eval {
        final Eval left;
        final Eval right;
        final Cmp cmp;
        final int op;

        Compare(Eval left, Eval right, Cmp cmp, int op) {
            this.left = left;
            this.right = right;
            this.cmp = cmp;
            this.op = op;
        }

        @Override
        Object eval(Row row) {
            Object a = left.eval(row);
            Object b = right.eval(row);
            if (a == null || b == null) {
                if (op == EQ_NULL_SAFE) {
                    return a == null && b == null;
                }
                return null;
            }
            int c = cmp.compare(a, b);
            switch (op) {
                case EQ, EQ_NULL_SAFE: return c == 0;
                case NE: return c != 0;
                case LT: return c < 0;
                case LE: return c <= 0;
                case GT: return c > 0;
                default: return c >= 0;
            }
        }
    }

    /** {@code v [NOT] BETWEEN low AND high}: {@code v >= low AND v <= high} with v read once. */
    static final class Between extends Eval {
        final Eval value;
        final Eval low;
        final Eval high;
        final Cmp cmp;
        final boolean negated;

        Between(Eval value, Eval low, Eval high, Cmp cmp, boolean negated) {
            this.value = value;
            this.low = low;
            this.high = high;
            this.cmp = cmp;
            this.negated = negated;
        }

        @Override
        Object eval(Row row) {
            Object v = value.eval(row);
            Object lo = low.eval(row);
            Object hi = high.eval(row);
            Boolean ge = v == null || lo == null ? null : cmp.compare(v, lo) >= 0;
            Boolean le = v == null || hi == null ? null : cmp.compare(v, hi) <= 0;
            Boolean r;
            if (Boolean.FALSE.equals(ge) || Boolean.FALSE.equals(le)) {
                r = Boolean.FALSE;
            } else if (ge == null || le == null) {
                r = null;
            } else {
                r = Boolean.TRUE;
            }
            return r == null || !negated ? r : (Object) !r;
        }
    }

    static final class In extends Eval {
        final Eval value;
        final Eval[] list;
        final Cmp cmp;
        final boolean negated;

        In(Eval value, Eval[] list, Cmp cmp, boolean negated) {
            this.value = value;
            this.list = list;
            this.cmp = cmp;
            this.negated = negated;
        }

        @Override
        Object eval(Row row) {
            Object v = value.eval(row);
            if (v == null) {
                return null;
            }
            boolean sawNull = false;
            for (Eval e : list) {
                Object x = e.eval(row);
                if (x == null) {
                    sawNull = true;
                } else if (cmp.compare(v, x) == 0) {
                    return !negated;
                }
            }
            return sawNull ? null : (Object) negated;
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Logic (SQL three-valued)

    static final class And extends Eval {
        final Eval left;
        final Eval right;

        And(Eval left, Eval right) {
            this.left = left;
            this.right = right;
        }

        @Override
        Object eval(Row row) {
            Object a = left.eval(row);
            if (a != null && !(Boolean) a) {
                return Boolean.FALSE;
            }
            Object b = right.eval(row);
            if (a == null) {
                return b != null && !(Boolean) b ? Boolean.FALSE : null;
            }
            return b;
        }
    }

    static final class Or extends Eval {
        final Eval left;
        final Eval right;

        Or(Eval left, Eval right) {
            this.left = left;
            this.right = right;
        }

        @Override
        Object eval(Row row) {
            Object a = left.eval(row);
            if (a != null && (Boolean) a) {
                return Boolean.TRUE;
            }
            Object b = right.eval(row);
            if (a == null) {
                return b != null && (Boolean) b ? Boolean.TRUE : null;
            }
            return b;
        }
    }

    static final class Not extends Eval {
        final Eval child;

        Not(Eval child) {
            this.child = child;
        }

        @Override
        Object eval(Row row) {
            Object v = child.eval(row);
            return v == null ? null : (Object) !(Boolean) v;
        }
    }

    static final class IsNull extends Eval {
        final Eval child;
        final boolean negated;

        IsNull(Eval child, boolean negated) {
            this.child = child;
            this.negated = negated;
        }

        @Override
        Object eval(Row row) {
            return (child.eval(row) == null) != negated;
        }
    }

    /** CASE WHEN c1 THEN v1 ... ELSE e END; a null condition counts as false. */
    static final class CaseWhen extends Eval {
        final Eval[] conditions;
        final Eval[] values;
        final Eval otherwise;

        CaseWhen(Eval[] conditions, Eval[] values, Eval otherwise) {
            this.conditions = conditions;
            this.values = values;
            this.otherwise = otherwise;
        }

        @Override
        Object eval(Row row) {
            for (int i = 0; i < conditions.length; i++) {
                if (isTrue(conditions[i].eval(row))) {
                    return values[i].eval(row);
                }
            }
            return otherwise == null ? null : otherwise.eval(row);
        }
    }

    static final class Coalesce extends Eval {
        final Eval[] args;

        Coalesce(Eval[] args) {
            this.args = args;
        }

        @Override
        Object eval(Row row) {
            for (Eval a : args) {
                Object v = a.eval(row);
                if (v != null) {
                    return v;
                }
            }
            return null;
        }
    }

    /** {@code nullif(a, b)}: null when a equals b, else a. */
    static final class NullIf extends Eval {
        final Eval left;
        final Eval right;
        final Cmp cmp;

        NullIf(Eval left, Eval right, Cmp cmp) {
            this.left = left;
            this.right = right;
            this.cmp = cmp;
        }

        @Override
        Object eval(Row row) {
            Object a = left.eval(row);
            Object b = right.eval(row);
            return a != null && b != null && cmp.compare(a, b) == 0 ? null : a;
        }
    }
}
