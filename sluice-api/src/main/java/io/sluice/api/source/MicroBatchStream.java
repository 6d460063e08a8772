package io.sluice.api.source;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A source's stream for one run of a query: the Java twin of Spark's MicroBatchStream with
 * SupportsAdmissionControl and ReportsSourceMetrics folded in.
 *
 * <p>Calls come from the query's single batch thread, in this order per batch, never concurrently with each
 * other: {@link #latestOffset} (only for a new batch), {@link #reportLatestOffset}, {@link #planPartitions},
 * then readers (possibly on other threads, concurrently with each other), then {@link #commit} once the batch
 * is durable, and {@link #metrics} when progress is reported. {@link #stop()} is called once at the end.
 *
 * <p>Ranges are half-open: a batch covers the data after {@code start} up to and including {@code end}; the same
 * range must always yield the same rows (replayability), as long as {@link #commit} has not released it.
 */
public interface MicroBatchStream {

    /**
     * The position before any data this query should read: the start of batch 0. Called at most once per run, and
     * only while batch 0 has not been committed (a new query, or a re-run of batch 0 after a crash); starting
     * options (e.g. {@code startingOffsets}) apply here and only here. A source whose initial position depends on
     * time or on external state must persist it in its metadata path on the first call and return the same
     * position on later calls, so a re-run of batch 0 reads the same range.
     */
    Offset initialOffset();

    /** Reads back an offset this stream wrote (its {@link Offset#json()}) from the offset log. */
    Offset deserializeOffset(String json);

    /**
     * What went backwards when {@code end} lies before {@code previousEnd}, or empty. Both are offsets this stream
     * wrote, read back with {@link #deserializeOffset}. The engine calls it when a query resumes, with the
     * logged ends of the two newest batches ({@code offsets/N-1} and {@code offsets/N}): offsets never go
     * backwards, so an end before the previous one means an edited or mixed-up offsets file, and reading from it
     * would read data again. The engine then refuses to start, naming both files.
     *
     * <p>The default returns empty (no check): {@link Offset} has no ordering, only the stream knows one. A
     * stream that can order its offsets should implement it; a stream whose offsets hold several positions
     * (one per partition) names each position that went back.
     *
     * @return empty when {@code end} is at or after {@code previousEnd}, or when they cannot be ordered;
     *         otherwise a clause naming the position, as {@code logOffset 3 is before 7} or
     *         {@code partition events-2: 100 is before 1000}
     */
    default Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        return Optional.empty();
    }

    /** The read limit the options ask for (e.g. {@code maxFilesPerTrigger}); {@link ReadLimit#allAvailable()} by default. */
    default ReadLimit defaultReadLimit() {
        return ReadLimit.allAvailable();
    }

    /**
     * The end of the next batch: the furthest position at or after {@code start} that the limit admits.
     *
     * <p>Called once per trigger, for a new batch only (never when re-running a batch from the log).
     * {@code start} is the previous batch's end, or {@link #initialOffset()} for the first batch. Return null,
     * or an offset with the same JSON as {@code start}, when there is nothing new; the engine then runs no batch.
     */
    Offset latestOffset(Offset start, ReadLimit limit);

    /**
     * The partitions covering {@code (start, end]}, to be read in parallel. Called once per batch attempt, also
     * when a logged batch is re-run after a restart. An empty list means no rows. Partitions must not overlap.
     */
    List<InputPartition> planPartitions(Offset start, Offset end);

    /**
     * A reader for one partition of the current batch. Called on a reader thread (on the query thread when the
     * batch has a single partition); the engine closes it. It should depend only on the partition, the options and
     * the schema, so that a fresh stream can make it in another process (the Spark bridge does): a source that
     * cannot follow that rule says so with {@link DriverLocalReaders}.
     */
    PartitionReader createReader(InputPartition partition);

    /**
     * Everything up to and including {@code end} is durably processed and will never be asked for again: the
     * source may release it (delete or archive files, commit to a consumer group...). Called after
     * {@code commits/N} is written, at most once per batch of a run, in batch order. A run that resumes after a
     * committed batch calls it once more with that batch's end, in case the previous run stopped before it: it
     * must be idempotent.
     */
    default void commit(Offset end) {
    }

    /**
     * The run is over: release every resource. Called exactly once, also after a failure, and only after every
     * reader of the stream's last batch has returned, except one that ignored the engine's interrupt for longer than
     * the stop grace period (named in a warning): nothing such a reader returns afterwards is used.
     */
    void stop();

    /**
     * The latest position the source knows of regardless of limits, for progress ({@code latestOffset} in a
     * source's progress). Called once per trigger that plans a new batch, after {@link #latestOffset} (under
     * availableNow for a stream without {@link SupportsTriggerAvailableNow}, also on triggers where the fixed
     * target is reused); not called when a logged batch is re-run. Null when unknown or not cheap to know.
     */
    default Offset reportLatestOffset() {
        return null;
    }

    /**
     * Source-specific metrics for progress (e.g. {@code numFilesOutstanding}), as strings. Called after each
     * batch with the end of the batch just run. Empty by default.
     */
    default Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
        return Map.of();
    }

    /** How this stream appears in progress and logs, e.g. {@code RateStream[rowsPerSecond=1, ...]}. */
    default String description() {
        return getClass().getSimpleName();
    }
}
