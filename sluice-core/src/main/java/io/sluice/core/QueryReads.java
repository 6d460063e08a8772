package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.source.SupportsPushDown;
import io.sluice.api.types.StructType;
import io.sluice.core.expr.Compiler;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a query reads of its source, worked out from its frame's steps: the source columns the steps and the sink
 * use (column pruning) and the simple filters the first conditions over source columns imply (filter pushdown),
 * handed to a source that {@link SupportsPushDown}. The engine still runs every step on every row the source
 * returns, whatever the source said of a filter ({@code EXACT} included): pushdown only lets a source read less,
 * never changes the rows. Offsets and partitions are the source's business and do not involve it.
 *
 * @param columns the source columns the query uses, in the source schema's order
 * @param filters filters on source columns every row the query keeps matches (their AND)
 */
record QueryReads(Set<String> columns, List<ColumnFilter> filters) {

    QueryReads {
        columns = Set.copyOf(columns);
        filters = List.copyOf(filters);
    }

    /** One transformation of a frame, as far as pushdown sees it. */
    sealed interface Step {
        /** Row by row, output column {@code i} computed from the input columns {@code uses[i]}. */
        record Project(int inputWidth, BitSet[] uses, int[] passThrough) implements Step {
        }

        /** Keeps or drops each row by a condition reading {@code uses}, implying {@code conjuncts}. */
        record Filter(BitSet uses, List<Compiler.Conjunct> conjuncts) implements Step {
        }

        /** Code the engine cannot see into (a Java predicate or map): every input column is used, and filters
         * after it are not pushed past it. */
        record Opaque(int inputWidth) implements Step {
        }

        static Step of(Compiler.Projection p, int inputWidth) {
            int n = p.schema().size();
            BitSet[] uses = new BitSet[n];
            int[] pass = new int[n];
            for (int i = 0; i < n; i++) {
                uses[i] = p.uses(i);
                pass[i] = p.passThrough(i);
            }
            return new Project(inputWidth, uses, pass);
        }

        /** A step that keeps every column where it is (a rename). */
        static Step identity(int width) {
            BitSet[] uses = new BitSet[width];
            int[] pass = new int[width];
            for (int i = 0; i < width; i++) {
                uses[i] = new BitSet();
                uses[i].set(i);
                pass[i] = i;
            }
            return new Project(width, uses, pass);
        }
    }

    /**
     * What a query of these steps over {@code source} reads, its sink taking every output column of
     * {@code outputWidth}.
     */
    static QueryReads of(StructType source, List<Step> steps, int outputWidth) {
        BitSet needed = new BitSet();
        needed.set(0, outputWidth);
        for (int s = steps.size() - 1; s >= 0; s--) {
            Step step = steps.get(s);
            if (step instanceof Step.Project p) {
                BitSet in = new BitSet();
                for (int o = needed.nextSetBit(0); o >= 0; o = needed.nextSetBit(o + 1)) {
                    in.or(p.uses()[o]);
                }
                needed = in;
            } else if (step instanceof Step.Filter f) {
                needed.or(f.uses());
            } else {
                needed = new BitSet();
                needed.set(0, ((Step.Opaque) step).inputWidth());
            }
        }
        Set<String> columns = new LinkedHashSet<>();
        for (int i = 0; i < source.size(); i++) {
            if (needed.get(i)) {
                columns.add(source.field(i).name());
            }
        }
        // Filters: the conditions' conjuncts on columns that are, unchanged, source columns, up to the first step
        // the engine cannot see into. Projections in between do not matter: they map rows one to one, and a row
        // the pushed filter drops is one the condition drops anyway.
        List<ColumnFilter> filters = new ArrayList<>();
        int[] toSource = new int[source.size()];
        for (int i = 0; i < toSource.length; i++) {
            toSource[i] = i;
        }
        for (Step step : steps) {
            if (step instanceof Step.Filter f) {
                for (Compiler.Conjunct c : f.conjuncts()) {
                    int src = toSource[c.column()];
                    if (src >= 0) {
                        filters.add(renamed(c.filter(), source.field(src).name()));
                    }
                }
            } else if (step instanceof Step.Project p) {
                int[] next = new int[p.passThrough().length];
                for (int o = 0; o < next.length; o++) {
                    next[o] = p.passThrough()[o] < 0 ? -1 : toSource[p.passThrough()[o]];
                }
                toSource = next;
            } else {
                break;
            }
        }
        return new QueryReads(columns, filters);
    }

    /** Whether the query reads every column and has no filter to push: nothing to tell the source. */
    boolean readsEverything(StructType source) {
        return filters.isEmpty() && columns.size() == source.size();
    }

    /**
     * The source's stream for this read: through {@link SupportsPushDown#createStream(StreamContext, PushDown)}
     * when the provider supports it and there is something to push (the filters it says it uses), else the
     * provider's plain {@code createStream}.
     */
    MicroBatchStream createStream(SourceProvider provider, StreamContext context) {
        if (!(provider instanceof SupportsPushDown p) || readsEverything(context.schema())) {
            return provider.createStream(context);
        }
        return p.createStream(context, pushDown(p, context.options(), context.schema()));
    }

    /** The push-down for this provider: the required columns, and the filters it uses. */
    PushDown pushDown(SupportsPushDown provider, Options options, StructType schema) {
        List<ColumnFilter> used = new ArrayList<>();
        for (ColumnFilter f : filters) {
            if (!used.contains(f) && provider.filterUse(options, schema, f) != SupportsPushDown.FilterUse.UNUSED) {
                used.add(f);
            }
        }
        return new PushDown(columns, used);
    }

    private static ColumnFilter renamed(ColumnFilter f, String column) {
        if (f instanceof ColumnFilter.Compare c) {
            return new ColumnFilter.Compare(column, c.op(), c.value());
        } else if (f instanceof ColumnFilter.In in) {
            return new ColumnFilter.In(column, in.values());
        } else if (f instanceof ColumnFilter.IsNull) {
            return new ColumnFilter.IsNull(column);
        } else if (f instanceof ColumnFilter.IsNotNull) {
            return new ColumnFilter.IsNotNull(column);
        }
        throw new IllegalArgumentException("Not a one-column filter: " + f);
    }
}
