package io.sluice.api.sink;

import io.sluice.api.Row;

/** Writes the rows of one partition of one batch. Used by one thread. */
public interface PartitionWriter {

    /** One row. Rows are immutable and may be kept. */
    void write(Row row) throws Exception;

    /**
     * All rows of the partition were written. The result (may be null) goes to
     * {@link BatchWriter#commit(java.util.List)}.
     */
    Object commit() throws Exception;

    /** Reading or writing the partition failed; discard what was written. */
    default void abort() {
    }
}
