package io.sluice.api.source;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A simple filter on top-level columns with literal values: the part of Spark's {@code sources.Filter} that a
 * host (the Spark bridge) may hand a source that {@link SupportsPushDown}. Values are of the column's Sluice type
 * as rows hold them ({@code Integer} for int, {@code Long} for bigint, {@code String}, {@code Instant},
 * {@code LocalDate}, {@code BigDecimal}, {@code Boolean}, {@code Double}, ...), never null.
 *
 * <p>Semantics are SQL's, as Spark evaluates the same filter: a comparison or {@code IN} on a null column value
 * is not true, so the row does not match; {@link IsNull} matches it. Immutable and serializable (a host ships
 * filters to the processes that read).
 */
public sealed interface ColumnFilter extends Serializable {

    /** How a {@link Compare} compares the column's value with the literal; Spark's filters of the same names. */
    enum Op {
        /** {@code column = value}. */
        EQUAL_TO,
        /** {@code column > value}. */
        GREATER_THAN,
        /** {@code column >= value}. */
        GREATER_THAN_OR_EQUAL,
        /** {@code column < value}. */
        LESS_THAN,
        /** {@code column <= value}. */
        LESS_THAN_OR_EQUAL
    }

    /** {@code column <op> value}, e.g. {@code offset >= 5}. */
    record Compare(String column, Op op, Object value) implements ColumnFilter {
        public Compare {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(value, "value");
        }
    }

    /** {@code column IN (values...)}. */
    record In(String column, List<Object> values) implements ColumnFilter {
        public In {
            Objects.requireNonNull(column, "column");
            values = List.copyOf(values);
        }
    }

    /** {@code column IS NULL}. */
    record IsNull(String column) implements ColumnFilter {
        public IsNull {
            Objects.requireNonNull(column, "column");
        }
    }

    /** {@code column IS NOT NULL}. */
    record IsNotNull(String column) implements ColumnFilter {
        public IsNotNull {
            Objects.requireNonNull(column, "column");
        }
    }

    /** {@code left AND right}. */
    record And(ColumnFilter left, ColumnFilter right) implements ColumnFilter {
        public And {
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
        }
    }

    /** The names of the columns this filter reads. */
    default Set<String> columns() {
        Set<String> out = new LinkedHashSet<>();
        collect(this, out);
        return out;
    }

    /**
     * Whether a row matches, given its values by column name ({@code valueOf} is asked only for the columns of
     * {@link #columns()}), with Spark's semantics.
     */
    default boolean test(Function<String, Object> valueOf) {
        if (this instanceof And a) {
            return a.left().test(valueOf) && a.right().test(valueOf);
        }
        if (this instanceof IsNull n) {
            return valueOf.apply(n.column()) == null;
        }
        if (this instanceof IsNotNull n) {
            return valueOf.apply(n.column()) != null;
        }
        if (this instanceof In in) {
            Object v = valueOf.apply(in.column());
            return v != null && in.values().stream().anyMatch(x -> x != null && compare(v, x) == 0);
        }
        Compare f = (Compare) this;
        Object v = valueOf.apply(f.column());
        if (v == null) {
            return false;
        }
        int c = compare(v, f.value());
        return switch (f.op()) {
            case EQUAL_TO -> c == 0;
            case GREATER_THAN -> c > 0;
            case GREATER_THAN_OR_EQUAL -> c >= 0;
            case LESS_THAN -> c < 0;
            case LESS_THAN_OR_EQUAL -> c <= 0;
        };
    }

    private static void collect(ColumnFilter f, Set<String> out) {
        if (f instanceof And a) {
            collect(a.left(), out);
            collect(a.right(), out);
        } else if (f instanceof Compare x) {
            out.add(x.column());
        } else if (f instanceof In x) {
            out.add(x.column());
        } else if (f instanceof IsNull x) {
            out.add(x.column());
        } else {
            out.add(((IsNotNull) f).column());
        }
    }

    /**
     * Spark's string order: by code point, which is the order of the strings' UTF-8 bytes (Java's
     * {@link String#compareTo} orders UTF-16 units, which differs above U+FFFF). The one implementation: the
     * engine's expressions compare strings with it too, so a filter handed to a source agrees with the query.
     */
    public static int compareCodePoints(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (Character.isSurrogate(x) || Character.isSurrogate(y)) {
                    return Integer.compare(a.codePointAt(i), b.codePointAt(i));
                }
                return x - y;
            }
        }
        return a.length() - b.length();
    }

    /**
     * Values of one column's type compare as themselves, binary values as unsigned bytes and strings by code point
     * (their UTF-8 bytes' order, as Spark's do), numbers of different boxes by their decimal value.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return java.util.Arrays.compareUnsigned(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return compareCodePoints(x, y);
        }
        if (a instanceof Number x && b instanceof Number y && a.getClass() != b.getClass()) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
        }
        return ((Comparable) a).compareTo(b);
    }
}
