package io.sluice.api.source;

import io.sluice.api.Options;
import io.sluice.api.types.StructType;

/**
 * A source that can use a read's required columns and simple filters (Spark's column pruning and filter
 * pushdown), implemented on its {@link SourceProvider}. Optional: a host that knows nothing of it calls
 * {@link #createStream(StreamContext)}, and a source that ignores what it is handed is still correct. Two hosts
 * use it: Sluice's engine, for every query ({@code readStream()...start()} and {@code read()}), and the Spark
 * bridge, for {@code spark.read()} (Spark pushes nothing down to streaming reads).
 *
 * <p>The host first asks, per filter, how the source uses it ({@link #filterUse}); then it makes every stream of
 * the read, on the driver and in each process that reads partitions, with the same {@link PushDown}:
 * {@link #createStream(StreamContext, PushDown)}.
 *
 * <p>Sluice's engine hands over the top-level columns the query's transformations and its sink use (every column
 * after a {@code map} or a Java {@code filter}, whose code it cannot see into), and the filters implied by the
 * conditions of its {@code where}s up to the first such step: a column compared with a constant, {@code IN},
 * {@code BETWEEN}, {@code IS [NOT] NULL}, each conjunct of an {@code AND} on its own; a column renamed or kept by a
 * projection counts as the source column. It evaluates every condition again on the rows the stream returns,
 * {@code EXACT} ones included, so a source's rows decide what the query reads, never what it outputs. When the
 * query uses every column and no filter applies, the engine calls {@link #createStream(StreamContext)}. A
 * stream's offsets must not depend on the push-down: a restarted query replays its logged batches with the
 * push-down of its own (the same, unless the query changed).
 */
public interface SupportsPushDown extends SourceProvider {

    /** How a source uses a filter; Spark's split of {@code SupportsPushDownFilters}. */
    enum FilterUse {
        /** The source returns only matching rows: the host does not evaluate the filter again. */
        EXACT,
        /** The source uses it to read less (e.g. whole files), but may return rows that do not match: the host
         * evaluates it again. */
        INEXACT,
        /** Not used: the source is not handed it. */
        UNUSED
    }

    /**
     * How streams of these options would use this filter. Called on the driver before any stream exists; must be
     * cheap and must not connect anywhere. The default uses none.
     */
    default FilterUse filterUse(Options options, StructType schema, ColumnFilter filter) {
        return FilterUse.UNUSED;
    }

    /**
     * {@link #createStream(StreamContext)} for a read that needs only {@code pushDown}'s columns and the rows
     * matching its filters (those for which {@link #filterUse} was {@code EXACT} or {@code INEXACT}). The stream's
     * rows keep {@code context.schema()}; its readers may leave columns the read does not require null, and must
     * return only matching rows for the {@code EXACT} filters. Offsets and partitions planned must not depend on
     * the filters in a way that breaks replay: the same range gives the same rows for the same push-down.
     */
    MicroBatchStream createStream(StreamContext context, PushDown pushDown);
}
