package io.sluice.core;

import io.sluice.core.expr.Expr;

import java.util.ArrayList;
import java.util.List;

/**
 * A frame grouped by keys, waiting for its aggregates: what {@link StreamFrame#groupBy} returns, the twin of
 * Spark's {@code RelationalGroupedDataset}. Keys are columns, expressions and {@link Functions#window}; aggregates
 * are {@link Functions#count}, {@link Functions#sum}, {@link Functions#avg}, {@link Functions#min},
 * {@link Functions#max}, {@link Functions#first}, {@link Functions#last} (or the same in {@link Functions#expr}).
 * The result is a streaming frame of the keys followed by the aggregates; how its rows are emitted depends on the
 * query's output mode (docs/stateful.md).
 */
public final class GroupedFrame {
    private final StreamFrame frame;
    private final List<Expr> keys;

    GroupedFrame(StreamFrame frame, List<Expr> keys) {
        this.frame = frame;
        this.keys = List.copyOf(keys);
    }

    /**
     * The aggregates of each group, as Spark's {@code agg(Column, Column...)}; an aggregate without an alias is named
     * as Spark names it ({@code count(1)}, {@code sum(amount)}).
     *
     * @throws AnalysisException for an expression that is not an aggregate, a distinct aggregate, or a type an
     *                           aggregate does not take
     */
    public StreamFrame agg(Column aggregate, Column... more) {
        List<Expr> aggs = new ArrayList<>();
        aggs.add(aggregate.expr());
        for (Column c : more) {
            aggs.add(c.expr());
        }
        return frame.aggregate(keys, aggs);
    }

    /** The aggregates given as SQL text ({@code "count(*) AS n"}, {@code "avg(amount)"}). */
    public StreamFrame agg(String aggregate, String... more) {
        Column[] rest = new Column[more.length];
        for (int i = 0; i < more.length; i++) {
            rest[i] = Functions.expr(more[i]);
        }
        return agg(Functions.expr(aggregate), rest);
    }

    /** The number of rows of each group, in a column named {@code count}, as Spark's {@code count()}. */
    public StreamFrame count() {
        return agg(Functions.count("*").as("count"));
    }
}
