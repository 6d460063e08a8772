package io.sluice.core;

import io.sluice.core.expr.Expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Aggregate functions inside expressions, as Spark's analyzer finds them: {@code sum(v) * 2} in {@code agg},
 * {@code count(*)} in {@code selectExpr} (a global aggregation), {@code max(v) - min(v) AS spread} in a SQL select
 * list. The aggregation computes each aggregate call; an expression over them (and over the grouping keys) runs on
 * the rows it emits.
 */
final class AggregateExprs {
    /** The aggregate functions, with the names Spark refuses on a stream (Aggregation says so). */
    private static final Set<String> NAMES = Set.of("count", "sum", "avg", "mean", "min", "max", "first",
            "first_value", "last", "last_value", "count_distinct", "countdistinct", "approx_count_distinct");

    private AggregateExprs() {
    }

    static boolean isAggregate(Expr e) {
        return e instanceof Expr.Call c && NAMES.contains(c.name().toLowerCase(Locale.ROOT));
    }

    /** Whether an aggregate call is anywhere in the expression. */
    static boolean contains(Expr e) {
        boolean[] found = {false};
        map(e, x -> {
            if (isAggregate(x)) {
                found[0] = true;
                return x;
            }
            return null;
        });
        return found[0];
    }

    /** The expression without its alias. */
    static Expr unaliased(Expr e) {
        return e instanceof Expr.Alias a ? a.child() : e;
    }

    /**
     * The expression with every node {@code f} answers for (non-null) replaced by the answer; the replaced node's
     * children are not visited.
     */
    static Expr map(Expr e, Function<Expr, Expr> f) {
        if (e == null) {
            return null;
        }
        Expr r = f.apply(e);
        if (r != null) {
            return r;
        }
        if (e instanceof Expr.Unary u) {
            return new Expr.Unary(u.op(), map(u.child(), f), u.origin());
        } else if (e instanceof Expr.Binary b) {
            return new Expr.Binary(b.op(), map(b.left(), f), map(b.right(), f), b.origin());
        } else if (e instanceof Expr.IsNull n) {
            return new Expr.IsNull(map(n.child(), f), n.negated(), n.origin());
        } else if (e instanceof Expr.In in) {
            return new Expr.In(map(in.value(), f), in.list().stream().map(x -> map(x, f)).toList(), in.negated(),
                    in.origin());
        } else if (e instanceof Expr.Between b) {
            return new Expr.Between(map(b.value(), f), map(b.low(), f), map(b.high(), f), b.negated(), b.origin());
        } else if (e instanceof Expr.Like l) {
            return new Expr.Like(map(l.value(), f), map(l.pattern(), f), l.escape(), l.negated(), l.origin());
        } else if (e instanceof Expr.Case c) {
            return new Expr.Case(map(c.operand(), f), c.whens().stream().map(x -> map(x, f)).toList(),
                    c.thens().stream().map(x -> map(x, f)).toList(), map(c.otherwise(), f), c.origin());
        } else if (e instanceof Expr.Cast c) {
            return new Expr.Cast(map(c.child(), f), c.type(), c.origin());
        } else if (e instanceof Expr.Call c) {
            return new Expr.Call(c.name(), c.args().stream().map(x -> map(x, f)).toList(), c.origin());
        } else if (e instanceof Expr.Alias a) {
            return new Expr.Alias(map(a.child(), f), a.name(), a.origin());
        } else if (e instanceof Expr.Field x) {
            return new Expr.Field(map(x.child(), f), x.name(), x.origin());
        } else if (e instanceof Expr.Subscript s) {
            return new Expr.Subscript(map(s.child(), f), map(s.index(), f), s.origin());
        }
        return e; // leaves: columns, literals, stars
    }

    /**
     * An aggregation whose aggregate items may be expressions over aggregates: {@code direct} holds the aggregate
     * calls the operator computes (after the keys in its output); {@code post}, null when every item is a bare
     * aggregate, holds per item the expression over the operator's output, where {@code InputColumn(i, "")} stands
     * for output column i (its name is filled in by {@link #post}, once the operator is built).
     */
    record Plan(List<Expr> direct, List<Expr> post, List<String> aliases) {
        /**
         * The select list over the aggregation's output: the keys, then each item, named as its alias or as
         * Spark names it ({@code (sum(v) * 2)}).
         */
        List<Expr> post(io.sluice.api.types.StructType output, int keyCount, Function<Expr, String> namer) {
            List<Expr> out = new ArrayList<>();
            for (int i = 0; i < keyCount; i++) {
                out.add(new Expr.InputColumn(i, output.field(i).name()));
            }
            for (int i = 0; i < post.size(); i++) {
                Expr named = map(post.get(i), x -> x instanceof Expr.InputColumn c
                        ? new Expr.InputColumn(c.index(), output.field(c.index()).name()) : null);
                if (named instanceof Expr.InputColumn c && aliases.get(i) == null) {
                    out.add(c);
                    continue;
                }
                String name = aliases.get(i);
                if (name == null) {
                    // Spark names (max(v) - min(v)) after the aggregates' own names, unquoted.
                    name = namer.apply(named);
                    for (int k = keyCount; k < output.size(); k++) {
                        String n = output.field(k).name();
                        name = name.replace("`" + n.replace("`", "``") + "`", n);
                    }
                }
                out.add(new Expr.Alias(named, name, null));
            }
            return out;
        }
    }

    /** Splits the aggregate items of an aggregation with {@code keyCount} keys. */
    static Plan plan(int keyCount, List<Expr> items) {
        if (items.stream().allMatch(i -> isAggregate(unaliased(i)))) {
            return new Plan(items, null, null);
        }
        List<Expr> direct = new ArrayList<>();
        List<Expr> post = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        for (Expr item : items) {
            Expr body = unaliased(item);
            if (!contains(body)) {
                throw new AnalysisException("The expression " + Expr.toText(body) + " given to agg is not an "
                        + "aggregate function: use count, sum, avg, min, max, first or last, or an expression over "
                        + "them", -1);
            }
            if (isAggregate(body)) {
                // A bare aggregate keeps its alias in the operator, so its state and name are as without the rest.
                post.add(new Expr.InputColumn(keyCount + direct.size(), ""));
                direct.add(item);
                aliases.add(null);
                continue;
            }
            post.add(map(body, x -> {
                if (isAggregate(x)) {
                    direct.add(x);
                    return new Expr.InputColumn(keyCount + direct.size() - 1, "");
                }
                return null;
            }));
            aliases.add(item instanceof Expr.Alias a ? a.name() : null);
        }
        return new Plan(direct, post, aliases);
    }
}
