package io.sluice.files.sink;

import io.sluice.api.Row;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes rows of one data file in one format. Used by one thread; one instance per file, made by
 * {@link Factory#open(OutputStream)}. Buffers internally: {@link #finish()} pushes everything to the stream.
 */
interface RowEncoder extends io.sluice.files.format.FormatEncoder {

    /** One row; only the data columns (not the partition columns) are written. */
    @Override
    void write(Row row) throws IOException;

    /** Writes what is buffered to the stream and flushes it. The stream is not closed. */
    @Override
    void finish() throws IOException;

    /** Makes encoders for one query: options and the per-column plan fixed once, shared by threads. */
    interface Factory extends io.sluice.files.format.FormatEncoder.Factory {
        /** An encoder writing to {@code out}; writes a header first where the format has one. */
        @Override
        RowEncoder open(OutputStream out) throws IOException;
    }
}
