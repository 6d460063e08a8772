package io.sluice.api.sink;

/**
 * Receives each micro-batch of one query run. The twin of Spark's StreamingWrite.
 *
 * <p>For batch N the engine calls {@link #beginBatch(long)} once, then (on the threads reading the partitions,
 * concurrently) {@link BatchWriter#partitionWriter(int)} and the partition writer's methods, then
 * {@link BatchWriter#commit(java.util.List)} on the batch thread. {@code commits/N} is written only after
 * {@code commit} returns.
 *
 * <p><b>Idempotence.</b> After a crash the engine re-runs the last logged batch with the same id and the same
 * rows. A sink must make the final result of running batch N twice the same as running it once, e.g. by
 * recording the last committed batch id with the data and ignoring a batch it has already committed.
 */
public interface Sink extends AutoCloseable {

    /** Starts writing batch {@code batchId}. May be called again with the same id after a crash. */
    BatchWriter beginBatch(long batchId);

    /** How the sink appears in progress, e.g. {@code MemorySink}. */
    default String description() {
        return getClass().getSimpleName();
    }

    /** Releases resources at the end of the run. Called once. */
    @Override
    default void close() throws Exception {
    }
}
