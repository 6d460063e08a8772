package io.sluice.files.format;

import java.io.IOException;

/**
 * Lines of text as characters: the current line is {@code buffer()[start(), end())}, valid until the next
 * {@link #next()}; {@link #line()} is its 1-based number. Not thread-safe.
 */
interface CharLines extends AutoCloseable {

    boolean next() throws IOException;

    char[] buffer();

    int start();

    int end();

    long line();

    @Override
    void close() throws IOException;
}
