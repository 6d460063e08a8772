package io.sluice.api.datasource;

import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.source.InputPartition;

import java.util.Iterator;
import java.util.List;

/**
 * Reads a stream in ranges of offsets, the Java twin of PySpark's {@code DataSourceStreamReader}.
 *
 * <p>{@code O} is the offset: any JSON value such as a record {@code record SeqOffset(long seq)} or a
 * {@code Map<String, Object>}. A JSON value is {@code null}; a {@link String}; a {@link Boolean}; a finite
 * {@link Number}; an enum (written as its name); a {@link java.util.List}; a {@link java.util.Map} with String keys
 * (written with its keys sorted); or a record (an object of its components in declaration order, read back
 * through its canonical constructor), nested freely; anything else (an {@code Instant}, a Set, a NaN) is refused.
 * The engine writes its JSON to the offset log (sluice-core's {@code io.sluice.core.OffsetJson}), reads it back as
 * {@link #offsetType()}, and compares offsets only by that JSON. An offset must be a <em>durable, ordered
 * position</em>: the same range {@code (start, end]} must give the
 * same rows whenever it is read again, also by a new reader after a restart, until {@link #commit} released it.
 *
 * <p>Calls come from the query thread in this order per batch: {@link #initialOffset()} (only for a new query),
 * {@link #latestOffset(Object, ReadLimit)}, {@link #partitions}, then {@link #read} per partition (possibly on
 * several threads at once), then {@link #commit} once the batch is durable; {@link #stop()} once at the end. A batch
 * logged but not committed before a crash is re-run after the restart with exactly its logged range: only
 * {@link #partitions} and {@link #read} are called for it.
 *
 * @param <O> the offset type; override {@link #offsetType()} unless it is a plain Map/List/String/Number/Boolean
 */
public interface DataSourceStreamReader<O> {

    /** The class offsets are read back as from the offset log; {@code Object.class} gives Maps, Lists, Longs... */
    default Class<?> offsetType() {
        return Object.class;
    }

    /**
     * The position before any data the query should read: the start of its first batch. A position that depends
     * on time or outside state must be kept in {@link DataSourceContext#metadataPath()} so that a re-run of batch 0
     * gets the same answer.
     */
    O initialOffset();

    /** The latest position available now, regardless of limits. */
    O latestOffset();

    /**
     * The end of the next batch: the furthest position after {@code start} the limit admits. Return {@code start}
     * (or null) when there is nothing new. By default {@link #latestOffset()}, ignoring the limit. Must never be
     * before {@code start} or before a latest offset returned earlier.
     */
    default O latestOffset(O start, ReadLimit limit) {
        return latestOffset();
    }

    /** The read limit the options ask for (e.g. a maximum of rows per batch); everything available by default. */
    default ReadLimit defaultReadLimit() {
        return ReadLimit.allAvailable();
    }

    /** The latest position regardless of limits, for progress; null (the default) when unknown. */
    default O reportLatestOffset() {
        return null;
    }

    /**
     * Splits {@code (start, end]} into partitions read in parallel; they must cover the range without overlap and
     * be small {@link java.io.Serializable} values (a record of two offsets), never data.
     */
    List<? extends InputPartition> partitions(O start, O end);

    /**
     * The rows of one partition, in a stable order. Called on a reader thread, and possibly on a fresh reader in
     * another process, on which nothing else was called and whose metadata path is an empty scratch folder (the
     * Spark bridge reads on Spark's executors so): depend only on the partition and the options. If the iterator is also
     * {@link AutoCloseable}, the engine closes it, also on failure. Throwing fails the batch: nothing of it is
     * committed and a restart re-reads the same range.
     */
    Iterator<Row> read(InputPartition partition);

    /** Everything up to {@code end} is durably processed and may be released. Idempotent: it may come twice. */
    default void commit(O end) {
    }

    /** The run is over: release resources. Called once, also after a failure. */
    default void stop() {
    }
}
