package io.sluice.files.format;

import io.sluice.api.Row;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes the rows of one data file of the file sink in one format (a format's own encoder,
 * {@link FileFormat.Writing#encoders}). Used by one thread; one instance per file. May buffer: {@link #finish()}
 * writes everything (a format's footer too) to the stream and flushes it; the stream is not closed.
 */
public interface FormatEncoder {

    /** One row of the sink's schema; only the data columns (not the partition columns) are written. */
    void write(Row row) throws IOException;

    /** Writes what is buffered (and any footer) to the stream and flushes it. The stream is not closed. */
    void finish() throws IOException;

    /**
     * The file is dropped without {@link #finish()} (its batch failed): release what the encoder holds (buffers,
     * its part of a memory budget). Nothing more is written. By default nothing to release.
     */
    default void discard() {
    }

    /** Makes encoders for one query: options and the per-column plan fixed once, shared by threads. */
    interface Factory {
        /** An encoder writing one new file to {@code out}, which is at position 0. */
        FormatEncoder open(OutputStream out) throws IOException;

        /**
         * Whether the sink may open one more file while this factory's other encoders are open (a format that
         * buffers much per file, such as Parquet's row groups, bounds their total). When false, a partition writer
         * under partitionBy first finishes its least recently used open file (if it has one), as it does beyond
         * its limit of open files. By default true.
         */
        default boolean mayOpenAnother() {
            return true;
        }
    }
}
