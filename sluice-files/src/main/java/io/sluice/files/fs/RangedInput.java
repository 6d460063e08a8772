package io.sluice.files.fs;

import io.sluice.api.io.Storage;
import io.sluice.api.io.VersionChangedException;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Random access to one object of an object store, for formats that seek (Parquet's footer and column chunks,
 * Avro's sync markers): reads are ranged GETs ({@link Storage#open(String, long, long, String)}) pinned to the
 * version tag seen when the object was listed, so every byte comes from that version; one replaced in place fails
 * with {@link VersionChangedException}. A read opens a window of at least {@link #WINDOW} bytes from the position
 * and keeps reading it while reads stay sequential; a seek outside it opens another. Not thread-safe (one reader's).
 */
public final class RangedInput implements AutoCloseable {
    /** The least a ranged GET asks for: small reads (a footer's 8 bytes, then the footer) do not cost a GET each. */
    static final long WINDOW = 1 << 20;

    private final Storage storage;
    private final String uri;
    private final String versionTag;
    private final long length;
    private long pos;
    private InputStream window;
    private long windowEnd;

    RangedInput(Storage storage, String uri, String versionTag, long length) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.uri = Objects.requireNonNull(uri, "uri");
        this.versionTag = versionTag;
        this.length = length;
    }

    /** The object's URI, for messages. */
    public String uri() {
        return uri;
    }

    /** The object's size in bytes (of the listed version). */
    public long length() {
        return length;
    }

    /** The position of the next read. */
    public long position() {
        return pos;
    }

    /** Moves the next read to {@code position} (0 to {@link #length()}). */
    public void seek(long position) throws IOException {
        if (position < 0 || position > length) {
            throw new EOFException("Cannot seek to " + position + " in " + uri + " (" + length + " bytes)");
        }
        if (position != pos) {
            closeWindow();
            pos = position;
        }
    }

    /** Reads up to {@code len} bytes at the position; -1 at the end of the object. */
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (pos >= length) {
            return -1;
        }
        if (window == null || pos >= windowEnd) {
            closeWindow();
            long size = Math.min(length - pos, Math.max(WINDOW, len));
            window = storage.open(uri, pos, size, versionTag);
            windowEnd = pos + size;
        }
        int n = window.read(b, off, (int) Math.min(len, windowEnd - pos));
        if (n < 0) {
            throw new EOFException(uri + " ended at byte " + pos + " of " + length + " (was it truncated?)");
        }
        pos += n;
        return n;
    }

    /** Reads exactly {@code len} bytes, or fails with {@link EOFException}. */
    public void readFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = read(b, off, len);
            if (n < 0) {
                throw new EOFException("Reached the end of " + uri + " (" + length + " bytes) with " + len
                        + " bytes still to read");
            }
            off += n;
            len -= n;
        }
    }

    private void closeWindow() throws IOException {
        if (window != null) {
            InputStream w = window;
            window = null;
            w.close();
        }
    }

    @Override
    public void close() throws IOException {
        closeWindow();
    }
}
