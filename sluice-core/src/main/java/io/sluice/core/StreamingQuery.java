package io.sluice.core;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A handle to a running query, as Spark's {@code StreamingQuery}. Thread-safe: any thread may call any method.
 */
public interface StreamingQuery extends AutoCloseable {

    /** The query's id, stored in the checkpoint's {@code metadata}: the same across restarts. */
    UUID id();

    /** Unique to this run: a new one at every start. */
    UUID runId();

    /** The name given with {@code queryName(..)}, or null. */
    String name();

    /** True from {@code start()} until the query stops, fails or finishes (availableNow, once). */
    boolean isActive();

    /** What the query is doing right now. */
    StreamingQueryStatus status();

    /** The progress of the last executed batch of this run, or null before the first. */
    StreamingQueryProgress lastProgress();

    /** Progress of the recent batches of this run, oldest first; at most 100 are kept. */
    List<StreamingQueryProgress> recentProgress();

    /** The failure that stopped the query, if it failed. */
    Optional<StreamingQueryException> exception();

    /**
     * Asks the query to stop at the next batch boundary and waits until it has: a batch in flight completes
     * (offsets, sink, commit) first. Does nothing on a stopped query. Never throws the query's failure.
     */
    void stop();

    /**
     * Waits until the query ends.
     *
     * @throws StreamingQueryException if it ended by failing
     */
    void awaitTermination() throws StreamingQueryException, InterruptedException;

    /**
     * Waits at most {@code timeoutMs} for the query to end.
     *
     * @return true when it ended within the time
     * @throws StreamingQueryException if it ended by failing
     */
    boolean awaitTermination(long timeoutMs) throws StreamingQueryException, InterruptedException;

    /**
     * Blocks until every source has no new data and all of it is committed, or the query ends. For tests. A
     * trigger that started after this call must have found nothing new.
     *
     * @throws StreamingQueryException if the query fails meanwhile
     */
    void processAllAvailable() throws StreamingQueryException, InterruptedException;

    /** Same as {@link #stop()}. */
    @Override
    default void close() {
        stop();
    }
}
