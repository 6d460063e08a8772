package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One partition of one source, read through the frame's transformations into one partition writer of a sink. Runs
 * on a reader thread; checks for cancellation every 1,024 rows.
 */
final class ReadTask {
    final int sourceIndex;
    final MicroBatchStream stream;
    final InputPartition partition;
    final int partitionId;
    /** The frame's transformations, or null when rows go to the sink as read. */
    final RowOperator operator;
    volatile long rows;

    ReadTask(int sourceIndex, MicroBatchStream stream, InputPartition partition, int partitionId,
             RowOperator operator) {
        this.sourceIndex = sourceIndex;
        this.stream = stream;
        this.partition = partition;
        this.partitionId = partitionId;
        this.operator = operator;
    }

    Object run(BatchWriter writer) throws Exception {
        PartitionWriter out = writer.partitionWriter(partitionId);
        long count = 0;
        try (PartitionReader in = stream.createReader(partition)) {
            RowOperator op = operator;
            while (in.next()) {
                Row row = in.get();
                if ((++count & 0x3FF) == 0 && Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException("Reading partition " + partitionId + " was cancelled");
                }
                if (op != null && (row = op.apply(row)) == null) {
                    continue; // filtered out
                }
                out.write(row);
            }
            Object result = out.commit();
            rows = count;
            return result;
        } catch (Exception | Error e) {
            try {
                out.abort();
            } catch (RuntimeException abortFailure) {
                e.addSuppressed(abortFailure);
            }
            throw e;
        }
    }

    /**
     * Runs every task into the writer and returns the partition writers' results in task order. One task runs on
     * the calling thread (no hand-off); more run on the pool. The first failure cancels the others and is thrown.
     */
    static List<Object> runAll(List<ReadTask> tasks, BatchWriter writer, ExecutorService pool) throws Exception {
        List<Object> results = new ArrayList<>(tasks.size());
        if (tasks.size() == 1) {
            results.add(tasks.get(0).run(writer));
            return results;
        }
        List<Future<Object>> futures = new ArrayList<>(tasks.size());
        for (ReadTask t : tasks) {
            futures.add(pool.submit(() -> t.run(writer)));
        }
        try {
            for (Future<Object> f : futures) {
                results.add(f.get());
            }
            return results;
        } catch (ExecutionException e) {
            futures.forEach(f -> f.cancel(true));
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            throw (Error) cause;
        } catch (InterruptedException e) {
            futures.forEach(f -> f.cancel(true));
            throw e;
        }
    }
}
