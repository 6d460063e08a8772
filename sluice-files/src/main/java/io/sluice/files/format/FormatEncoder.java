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

    /** Makes encoders for one query: options and the per-column plan fixed once, shared by threads. */
    interface Factory {
        /** An encoder writing one new file to {@code out}, which is at position 0. */
        FormatEncoder open(OutputStream out) throws IOException;
    }
}
