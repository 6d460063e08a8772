package io.sluice.core.expr;

import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import io.sluice.core.AnalysisException;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compiles resolved expressions into the row steps the engine runs: a {@link Projection} (select) or a
 * {@link Condition} (where). Internal to Sluice; the public entry points are {@code StreamFrame}'s methods.
 */
public final class Compiler {
    private Compiler() {
    }

    /**
     * A projection of {@code items} over rows of {@code input}: {@code *} and {@code a.*} expand to columns,
     * other items are resolved and named; {@code zone} is the session time zone ({@code Sluice.sessionTimeZone()}).
     *
     * @throws AnalysisException for anything that does not resolve
     */
    public static Projection projection(StructType input, List<Expr> items, SluiceClock clock, ZoneId zone) {
        return projection(input, items, clock, zone, Map.of());
    }

    /**
     * {@link #projection(StructType, List, SluiceClock, ZoneId)} with contributed SQL functions, keyed by lower-case
     * name (none of them a built-in one: {@link #isBuiltInFunction}).
     */
    public static Projection projection(StructType input, List<Expr> items, SluiceClock clock, ZoneId zone,
                                        Map<String, SqlFunction> functions) {
        Analyzer analyzer = new Analyzer(input, clock, zone, functions);
        List<Eval> evals = new ArrayList<>();
        List<StructField> fields = new ArrayList<>();
        List<BitSet> uses = new ArrayList<>();
        for (Expr item : items) {
            if (item instanceof Expr.Star star) {
                int from = evals.size();
                expand(analyzer, star, evals, fields);
                BitSet used = analyzer.takeUsed();
                for (int i = from; i < evals.size(); i++) {
                    uses.add(evals.get(i) instanceof Eval.Input in ? bit(in.index) : used);
                }
                continue;
            }
            Analyzer.Bound b = analyzer.resolve(item);
            // An untyped NULL column: Spark's void type, which Sluice does not have, becomes a string column.
            fields.add(new StructField(b.name(), b.nullType() ? AtomicType.STRING_TYPE : b.type(), b.nullable()));
            evals.add(b.eval());
            uses.add(analyzer.takeUsed());
        }
        return new Projection(evals.toArray(new Eval[0]), new StructType(fields), input, uses.toArray(new BitSet[0]));
    }

    private static BitSet bit(int i) {
        BitSet b = new BitSet();
        b.set(i);
        return b;
    }

    private static void expand(Analyzer analyzer, Expr.Star star, List<Eval> evals, List<StructField> fields) {
        if (star.qualifier().isEmpty()) { // the input's own fields, comments included
            for (int i = 0; i < analyzer.input().size(); i++) {
                evals.add(new Eval.Input(i));
                fields.add(analyzer.input().field(i));
            }
            return;
        }
        for (Analyzer.Bound b : analyzer.expand(star)) {
            evals.add(b.eval());
            fields.add(new StructField(b.name(), b.type(), b.nullable()));
        }
    }

    /**
     * A filter condition over rows of {@code input}; it must be boolean. {@code zone}: as for {@link #projection}.
     *
     * @throws AnalysisException for anything that does not resolve, or a condition that is not boolean
     */
    public static Condition condition(StructType input, Expr condition, SluiceClock clock, ZoneId zone) {
        return condition(input, condition, clock, zone, Map.of());
    }

    /** {@link #condition(StructType, Expr, SluiceClock, ZoneId)} with contributed SQL functions, as for projection. */
    public static Condition condition(StructType input, Expr condition, SluiceClock clock, ZoneId zone,
                                      Map<String, SqlFunction> functions) {
        Analyzer analyzer = new Analyzer(input, clock, zone, functions);
        Analyzer.Bound b = analyzer.resolve(condition);
        if (!b.nullType() && b.type() != AtomicType.BOOLEAN_TYPE) {
            throw Origin.error("Cannot resolve \"" + b.sql() + "\" due to data type mismatch: Filter expression \""
                    + b.sql() + "\" of type " + Types.quoted(b.type()) + " is not a boolean.", condition.origin());
        }
        List<Conjunct> conjuncts = new ArrayList<>();
        conjuncts(b.eval(), input, conjuncts);
        return new Condition(b.eval(), analyzer.takeUsed(), conjuncts);
    }

    /**
     * A part of a condition that must be TRUE for the whole to be TRUE, as a {@link ColumnFilter} on one input
     * column (named as the input names it): what a source may be handed to read less (filter pushdown).
     *
     * @param column the input column's index
     */
    public record Conjunct(int column, ColumnFilter filter) {
    }

    /**
     * Collects the conjuncts of {@code e} that are simple filters: a column compared with a constant ({@code =},
     * {@code <=>}, {@code <}, {@code <=}, {@code >}, {@code >=}, either side), {@code IN} constants,
     * {@code BETWEEN} constants, {@code IS [NOT] NULL}, under {@code AND}. Only where the column itself is compared
     * in its own type (no cast around it): the constant was then coerced to the column's type, and the filter's
     * {@link ColumnFilter#test} agrees with the condition. Left out: columns of other than atomic types, floats and
     * doubles compared with zero (Spark's {@code -0.0 = 0.0}, which {@code Double.compare} does not hold).
     */
    private static void conjuncts(Eval e, StructType input, List<Conjunct> out) {
        if (e instanceof Eval.And a) {
            conjuncts(a.left, input, out);
            conjuncts(a.right, input, out);
        } else if (e instanceof Eval.IsNull n && n.child instanceof Eval.Input in && pushable(input, in)) {
            String name = input.field(in.index).name();
            out.add(new Conjunct(in.index, n.negated ? new ColumnFilter.IsNotNull(name)
                    : new ColumnFilter.IsNull(name)));
        } else if (e instanceof Eval.Compare c && c.op != Eval.NE) {
            if (c.left instanceof Eval.Input in && c.right instanceof Eval.Const k) {
                compare(input, in, c.op, k.value, out);
            } else if (c.right instanceof Eval.Input in && c.left instanceof Eval.Const k) {
                int flipped = switch (c.op) {
                    case Eval.LT -> Eval.GT;
                    case Eval.LE -> Eval.GE;
                    case Eval.GT -> Eval.LT;
                    case Eval.GE -> Eval.LE;
                    default -> c.op;
                };
                compare(input, in, flipped, k.value, out);
            }
        } else if (e instanceof Eval.Between b && !b.negated && b.value instanceof Eval.Input in
                && b.low instanceof Eval.Const lo && b.high instanceof Eval.Const hi) {
            compare(input, in, Eval.GE, lo.value, out);
            compare(input, in, Eval.LE, hi.value, out);
        } else if (e instanceof Eval.In i && !i.negated && i.value instanceof Eval.Input in && pushable(input, in)) {
            List<Object> values = new ArrayList<>();
            for (Eval item : i.list) {
                if (!(item instanceof Eval.Const k)) {
                    return;
                }
                if (k.value != null) { // a NULL item never makes IN true
                    if (!pushable(k.value)) {
                        return;
                    }
                    values.add(k.value);
                }
            }
            out.add(new Conjunct(in.index, new ColumnFilter.In(input.field(in.index).name(), values)));
        }
    }

    private static void compare(StructType input, Eval.Input in, int op, Object value, List<Conjunct> out) {
        if (value == null || !pushable(input, in) || !pushable(value)) {
            return;
        }
        ColumnFilter.Op o = switch (op) {
            case Eval.EQ, Eval.EQ_NULL_SAFE -> ColumnFilter.Op.EQUAL_TO; // <=> a non-null value: = without NULL
            case Eval.LT -> ColumnFilter.Op.LESS_THAN;
            case Eval.LE -> ColumnFilter.Op.LESS_THAN_OR_EQUAL;
            case Eval.GT -> ColumnFilter.Op.GREATER_THAN;
            case Eval.GE -> ColumnFilter.Op.GREATER_THAN_OR_EQUAL;
            default -> null;
        };
        if (o != null) {
            out.add(new Conjunct(in.index, new ColumnFilter.Compare(input.field(in.index).name(), o, value)));
        }
    }

    private static boolean pushable(StructType input, Eval.Input in) {
        return input.field(in.index).dataType() instanceof AtomicType
                || input.field(in.index).dataType() instanceof DecimalType;
    }

    private static boolean pushable(Object value) {
        if (value instanceof Double d) {
            return d != 0.0;
        }
        if (value instanceof Float f) {
            return f != 0.0f;
        }
        return true;
    }

    /**
     * The type two columns are brought to when a union stacks them, as Spark's {@code findWiderTypeForTwo}
     * ({@code WidenSetOperationTypes}); null when there is none.
     */
    public static DataType widerType(DataType a, DataType b) {
        return Types.wider(a, b);
    }

    /**
     * The type both sides of an equality are cast to, as Spark's {@code findCommonTypeForBinaryComparison}
     * (a join key of INT against one of BIGINT compares as BIGINT); null when they cannot be compared.
     */
    public static DataType comparisonType(DataType a, DataType b) {
        return Types.comparison(a, b);
    }

    /** True when {@code name} (any case) is a built-in SQL function, which no contributed function may replace. */
    public static boolean isBuiltInFunction(String name) {
        return Analyzer.FUNCTIONS.contains(name.toLowerCase(Locale.ROOT));
    }

    /** A compiled select list. Immutable and thread-safe. */
    public static final class Projection {
        private final Eval[] evals;
        private final StructType schema;
        private final boolean identity;

        private final BitSet[] uses;

        Projection(Eval[] evals, StructType schema, StructType input, BitSet[] uses) {
            this.evals = evals;
            this.uses = uses;
            this.schema = schema;
            boolean same = evals.length == input.size() && schema.equals(input);
            for (int i = 0; same && i < evals.length; i++) {
                same = evals[i] instanceof Eval.Input in && in.index == i;
            }
            this.identity = same;
        }

        /** The schema of the rows {@link #apply} returns. */
        public StructType schema() {
            return schema;
        }

        /** The input columns output column {@code i} reads. */
        public BitSet uses(int i) {
            return (BitSet) uses[i].clone();
        }

        /** The input column output column {@code i} is, unchanged, or -1 when it is computed. */
        public int passThrough(int i) {
            return evals[i] instanceof Eval.Input in ? in.index : -1;
        }

        /** True when the projection returns its input unchanged (as {@code select("*")}). */
        public boolean isIdentity() {
            return identity;
        }

        /** The projected row, carrying {@link #schema()}. */
        public Row apply(Row row) {
            Object[] out = new Object[evals.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = evals[i].eval(row);
            }
            return Row.wrap(out).attach(schema);
        }
    }

    /** A compiled filter condition. Immutable and thread-safe. */
    public static final class Condition {
        private final Eval eval;
        private final BitSet uses;
        private final List<Conjunct> conjuncts;

        Condition(Eval eval, BitSet uses, List<Conjunct> conjuncts) {
            this.eval = eval;
            this.uses = uses;
            this.conjuncts = List.copyOf(conjuncts);
        }

        /** The input columns the condition reads. */
        public BitSet uses() {
            return (BitSet) uses.clone();
        }

        /** The simple filters the condition implies (each must hold for it to be TRUE), for filter pushdown. */
        public List<Conjunct> conjuncts() {
            return conjuncts;
        }

        /** True when the condition is TRUE for the row; FALSE and NULL both drop it, as in SQL. */
        public boolean test(Row row) {
            return Eval.isTrue(eval.eval(row));
        }
    }
}
