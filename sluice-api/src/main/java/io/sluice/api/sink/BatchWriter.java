package io.sluice.api.sink;

import io.sluice.api.Row;

import java.util.List;

/** Writes one micro-batch. See {@link Sink} for the order of calls. */
public interface BatchWriter {

    /**
     * A writer for the rows of one input partition. Called once per partition, on the thread that reads it;
     * different partitions' writers are used concurrently.
     */
    PartitionWriter partitionWriter(int partitionId);

    /**
     * Every partition writer committed: make the batch visible, atomically where the sink can. Receives each
     * partition's {@link PartitionWriter#commit()} result in partition order. Must be idempotent per batch id.
     */
    void commit(List<Object> partitionResults) throws Exception;

    /**
     * The batch failed; undo what can be undone. Called at most once: instead of {@link #commit} when a partition
     * failed, or after it when {@code commit} itself threw. Called only once every partition's reader has returned
     * (the engine cancels and waits for them first), so no partition writer is in use; the one exception is a
     * reader that ignored the engine's interrupt for longer than the stop grace period (warned about): a call it
     * was making may still be running, but it makes no further call.
     */
    default void abort(Throwable cause) {
    }

    /** Rows this batch wrote, for progress; -1 when unknown (as Spark reports for the file sink). */
    default long numOutputRows() {
        return -1;
    }

    /**
     * A writer for a batch the sink finds already written (a re-run after a crash that happened after the sink's
     * commit but before {@code commits/N}): it takes the batch's rows and drops them, and its commit does nothing.
     * {@code numOutputRows} is what progress reports for the batch (0, or -1 for unknown).
     */
    static BatchWriter discarding(long numOutputRows) {
        return new BatchWriter() {
            @Override
            public PartitionWriter partitionWriter(int partitionId) {
                return new PartitionWriter() {
                    @Override
                    public void write(Row row) {
                    }

                    @Override
                    public Object commit() {
                        return null;
                    }
                };
            }

            @Override
            public void commit(List<Object> partitionResults) {
            }

            @Override
            public long numOutputRows() {
                return numOutputRows;
            }
        };
    }
}
