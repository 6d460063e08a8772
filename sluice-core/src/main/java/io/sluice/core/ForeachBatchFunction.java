package io.sluice.core;

/**
 * The function {@link DataStreamWriter#foreachBatch(ForeachBatchFunction)} calls with each micro-batch, as Spark's
 * {@code foreachBatch}: the place to write a batch anywhere (a database, several sinks) with an idempotent write
 * keyed by the batch id.
 *
 * <p><b>At least once.</b> After a crash, the batch that was running is delivered again with the same id and the
 * same rows, so the function must make a repeated delivery of a batch id leave the same result as one delivery:
 * e.g. record the last batch id written in the same transaction as the data, and ignore a batch id at or below it;
 * or replace the rows of that batch id. In a run without failures each batch id is delivered once, in increasing
 * order, on the query's thread.
 */
@FunctionalInterface
public interface ForeachBatchFunction {

    /**
     * Handles one batch. An exception fails the query; the batch was not committed, so the next start of the query
     * delivers it again.
     *
     * @param batch   the batch's rows, in batch order
     * @param batchId the batch id (0, 1, ...), the same on a re-delivery
     */
    void call(BatchData batch, long batchId) throws Exception;
}
