package io.sluice.core;

import io.sluice.api.Row;

/**
 * Writes rows one at a time, as Spark's {@code ForeachWriter}; given to {@link DataStreamWriter#foreach}.
 *
 * <p>For each partition of each batch: {@link #open(long, long)} with the partition id and the batch id (Spark's
 * epoch id); if it returns true, {@link #process(Row)} for each row of the partition; then
 * {@link #close(Throwable)}, with null when all went well or with the error that stopped the partition (an
 * exception from {@code process}, or a failure reading the partition). {@code close} is called whenever
 * {@code open} returned, whatever it returned; not when {@code open} threw. An exception from any method fails the
 * query.
 *
 * <p><b>At least once.</b> After a crash, the partitions of the batch that was running are delivered again with
 * the same batch id; {@code open} can return false for a (partition, batch) it has already written to skip it.
 *
 * <p><b>Threads.</b> Partitions of a batch are written concurrently, on several reader threads. Spark gives each
 * task its own deserialized copy of the writer; Sluice does not copy: a writer passed to
 * {@link DataStreamWriter#foreach(ForeachWriter)} is used by several threads at once and must be thread-safe. Pass
 * a supplier to {@link DataStreamWriter#foreach(java.util.function.Supplier)} to get a fresh writer per partition
 * instead, each used by one thread.
 */
public abstract class ForeachWriter {

    /**
     * Starts a partition of a batch.
     *
     * @param partitionId the partition (0, 1, ... within the batch)
     * @param epochId     the batch id
     * @return whether to process the partition's rows
     */
    public abstract boolean open(long partitionId, long epochId) throws Exception;

    /** One row, carrying the query's schema. Called only after {@code open} returned true. */
    public abstract void process(Row row) throws Exception;

    /**
     * Ends a partition.
     *
     * @param errorOrNull null when the partition was written completely; otherwise the error that stopped it
     */
    public abstract void close(Throwable errorOrNull) throws Exception;
}
