package io.sluice.api.source;

import io.sluice.api.Row;

import java.io.IOException;

/**
 * Reads the rows of one {@link InputPartition}. Used by one thread at a time. The engine calls {@link #next()}
 * until it returns false, {@link #get()} after each true, and {@link #close()} exactly once, also on failure.
 */
public interface PartitionReader extends AutoCloseable {

    /** Advances to the next row; false when the partition is exhausted. */
    boolean next() throws IOException;

    /** The current row, after {@link #next()} returned true. Rows are immutable: sinks may keep them. */
    Row get();

    @Override
    void close() throws IOException;
}
