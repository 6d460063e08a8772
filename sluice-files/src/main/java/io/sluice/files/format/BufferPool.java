package io.sluice.files.format;

/**
 * Hands the line readers' standard-size buffers from one file to the next within one format reader. A fresh
 * 256 KB buffer per file is not free in a short read: it is allocated outside the thread's allocation buffer and
 * touches heap pages the JVM has not used yet (a page fault each), for every one of a batch's files. Only
 * standard-size buffers are kept (one that grew for a long line is dropped), and at most {@link #KEPT} of each
 * kind, so a pool holds at most a few MB. Thread-safe: reader threads open and close files concurrently.
 */
final class BufferPool {
    static final int BYTES = 256 * 1024;
    static final int CHARS = 128 * 1024;
    private static final int KEPT = 8;

    private final byte[][] bytes = new byte[KEPT][];
    private final char[][] chars = new char[KEPT][];
    private int byteCount;
    private int charCount;

    /** A byte buffer of {@link #BYTES}, reused or new; its content is arbitrary. */
    synchronized byte[] bytes() {
        if (byteCount == 0) {
            return new byte[BYTES];
        }
        byte[] b = bytes[--byteCount];
        bytes[byteCount] = null;
        return b;
    }

    /** A char buffer of {@link #CHARS}, reused or new; its content is arbitrary. */
    synchronized char[] chars() {
        if (charCount == 0) {
            return new char[CHARS];
        }
        char[] c = chars[--charCount];
        chars[charCount] = null;
        return c;
    }

    /** Takes back a buffer the caller will not touch again. */
    synchronized void give(byte[] b) {
        if (b != null && b.length == BYTES && byteCount < KEPT) {
            bytes[byteCount++] = b;
        }
    }

    /** Takes back a buffer the caller will not touch again. */
    synchronized void give(char[] c) {
        if (c != null && c.length == CHARS && charCount < KEPT) {
            chars[charCount++] = c;
        }
    }
}
