package io.sluice.api.sink;

/**
 * Receives each micro-batch of one query run. The twin of Spark's StreamingWrite.
 *
 * <p>For batch N the engine calls {@link #beginBatch(BatchInfo)} once, then (on the threads reading the partitions,
 * concurrently) {@link BatchWriter#partitionWriter(int)} and the partition writer's methods, then
 * {@link BatchWriter#commit(java.util.List)} on the batch thread. {@code commits/N} is written only after
 * {@code commit} returns.
 *
 * <p><b>Idempotence.</b> After a crash the engine re-runs the last logged batch with the same id and the same
 * rows. A sink must make the final result of running batch N twice the same as running it once, e.g. by
 * recording the last committed batch id with the data and ignoring a batch it has already committed.
 *
 * <p><b>Restores.</b> A batch id can also come back with a different range: the checkpoint was restored from a
 * copy older than the sink's output. Skipping it would lose rows, so a sink that skips known batch ids should also
 * record {@link BatchInfo#digest()} with the batch and fail with {@link BatchInfo#rangeConflict} when a known id
 * comes back with another digest (the file sink, the exactly-once Kafka sink do).
 */
public interface Sink extends AutoCloseable {

    /** Starts writing batch {@code batchId}. May be called again with the same id after a crash. */
    BatchWriter beginBatch(long batchId);

    /**
     * Starts writing a batch, knowing its identity (query id, batch id, the logged range). This is what the engine
     * calls; the default calls {@link #beginBatch(long)}, so sinks written before it existed keep working. Override
     * it to check a re-run batch against what the sink recorded (see Restores above).
     */
    default BatchWriter beginBatch(BatchInfo batch) {
        return beginBatch(batch.batchId());
    }

    /** How the sink appears in progress, e.g. {@code MemorySink}. */
    default String description() {
        return getClass().getSimpleName();
    }

    /**
     * Releases resources at the end of the run. Called once, after the last batch's readers have returned (see
     * {@link BatchWriter#abort} for a reader that ignored the engine's interrupt).
     */
    @Override
    default void close() throws Exception {
    }
}
