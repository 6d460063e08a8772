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

    /**
     * The query's checkpoint folder: its {@code checkpointLocation}, or the temporary folder used when none was
     * given (deleted when the query stops). Empty for a handle that has no checkpoint.
     */
    default Optional<java.nio.file.Path> checkpointLocation() {
        return Optional.empty();
    }

    /** The failure that stopped the query, if it failed. */
    Optional<StreamingQueryException> exception();

    /**
     * Stops the query, and returns within twice the stop grace period ({@code Sluice.builder().stopGracePeriod},
     * 5 s by default, so 10 s), whatever its source or sink is doing:
     * <ol>
     *   <li>asks it to stop at the next batch boundary (a query waiting for its next trigger stops at once) and
     *       waits up to the grace period: a batch in flight completes (offsets, sink, commit) first;</li>
     *   <li>if it has not ended, interrupts the query thread and its readers and waits up to the grace period
     *       again: the batch in flight is aborted ({@code BatchWriter.abort}) and nothing more is committed, so
     *       the next start re-runs it; a failure the interrupt causes is not reported as the query's failure. The
     *       query thread waits for its interrupted readers only half the grace period, then leaves behind one that
     *       ignores interrupts (named in a warning): so such a reader alone never makes {@code stop()} give up,
     *       and the query has ended when {@code stop()} returns;</li>
     *   <li>if the thread still runs (a source that ignores interrupts), logs a warning with where it is stuck
     *       and returns. The thread is a daemon and commits nothing more; the query stays active, and its
     *       checkpoint locked, until that thread ends.</li>
     * </ol>
     * Does nothing on a stopped query. Never throws the query's failure. Called from the query's own thread
     * (a foreachBatch function) it only asks, and returns at once.
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
