package io.sluice.files.format;

import io.sluice.api.Row;

import java.io.IOException;

/**
 * The rows of one file, in file order. Used by one thread. {@link #next()} until false, {@link #get()} after each
 * true, {@link #close()} exactly once (also on failure).
 */
public interface RowIterator extends AutoCloseable {

    boolean next() throws IOException;

    Row get();

    @Override
    void close() throws IOException;
}
