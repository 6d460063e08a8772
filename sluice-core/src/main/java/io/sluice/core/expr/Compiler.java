package io.sluice.core.expr;

import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.core.AnalysisException;

import java.time.ZoneId;
import java.util.ArrayList;
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
        for (Expr item : items) {
            if (item instanceof Expr.Star star) {
                expand(analyzer, star, evals, fields);
                continue;
            }
            Analyzer.Bound b = analyzer.resolve(item);
            // An untyped NULL column: Spark's void type, which Sluice does not have, becomes a string column.
            fields.add(new StructField(b.name(), b.nullType() ? AtomicType.STRING_TYPE : b.type(), b.nullable()));
            evals.add(b.eval());
        }
        return new Projection(evals.toArray(new Eval[0]), new StructType(fields), input);
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
        Analyzer.Bound b = new Analyzer(input, clock, zone, functions).resolve(condition);
        if (!b.nullType() && b.type() != AtomicType.BOOLEAN_TYPE) {
            throw Origin.error("Cannot resolve \"" + b.sql() + "\" due to data type mismatch: Filter expression \""
                    + b.sql() + "\" of type " + Types.quoted(b.type()) + " is not a boolean.", condition.origin());
        }
        return new Condition(b.eval());
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

        Projection(Eval[] evals, StructType schema, StructType input) {
            this.evals = evals;
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

        Condition(Eval eval) {
            this.eval = eval;
        }

        /** True when the condition is TRUE for the row; FALSE and NULL both drop it, as in SQL. */
        public boolean test(Row row) {
            return Eval.isTrue(eval.eval(row));
        }
    }
}
