package io.sluice.files.format;

import java.io.IOException;
import java.io.InputStream;

/**
 * Splits a byte stream into lines as Hadoop's LineRecordReader does: by default a line ends at {@code \n},
 * {@code \r} or {@code \r\n}; with a separator, at each occurrence of its bytes. A separator at the very end
 * does not start another (empty) line. The current line is {@code buffer()[start(), end())}, valid until the next
 * call; the buffer grows to hold the longest line. Not thread-safe.
 */
final class ByteLineReader implements AutoCloseable {
    private final InputStream in;
    private final byte[] sep;
    private byte[] buf;
    private int pos;
    private int limit;
    private int start;
    private int end;
    private boolean eof;
    private long line;
    private final boolean skipBom;
    private boolean started;
    private final BufferPool pool;

    ByteLineReader(InputStream in, byte[] separator, boolean skipBom) {
        this(in, separator, skipBom, BufferPool.BYTES);
    }

    ByteLineReader(InputStream in, byte[] separator, boolean skipBom, int bufferSize) {
        this(in, separator, skipBom, new byte[Math.max(16, bufferSize)], null);
    }

    /** Reads into a buffer from {@code pool}, given back on {@link #close()}. */
    ByteLineReader(InputStream in, byte[] separator, boolean skipBom, BufferPool pool) {
        this(in, separator, skipBom, pool.bytes(), pool);
    }

    private ByteLineReader(InputStream in, byte[] separator, boolean skipBom, byte[] buf, BufferPool pool) {
        this.in = in;
        this.sep = separator == null || separator.length == 0 ? null : separator.clone();
        this.skipBom = skipBom;
        this.buf = buf;
        this.pool = pool;
    }

    byte[] buffer() {
        return buf;
    }

    int start() {
        return start;
    }

    int end() {
        return end;
    }

    /** The 1-based number of the current line (with a custom separator: of the current record). */
    long line() {
        return line;
    }

    boolean next() throws IOException {
        if (!started) {
            started = true;
            fill();
            if (skipBom) {
                while (!eof && limit < 3) {
                    fill();
                }
                pos += FileInput.bomLength(buf, 0, limit);
            }
        }
        return sep == null ? nextDefault() : nextCustom();
    }

    private boolean nextDefault() throws IOException {
        int p = pos;
        while (true) {
            byte[] b = buf;
            int lim = limit;
            while (p < lim) {
                byte c = b[p];
                if (c <= '\r' && (c == '\n' || c == '\r')) {
                    break;
                }
                p++;
            }
            if (p < lim) {
                if (b[p] == '\r' && p + 1 >= lim && !eof) {
                    p = refill(p);
                    continue;
                }
                start = pos;
                end = p;
                pos = b[p] == '\r' && p + 1 < limit && b[p + 1] == '\n' ? p + 2 : p + 1;
                line++;
                return true;
            }
            if (eof) {
                return lastLine();
            }
            p = refill(p);
        }
    }

    private boolean nextCustom() throws IOException {
        int p = pos;
        byte first = sep[0];
        int n = sep.length;
        while (true) {
            byte[] b = buf;
            int lim = limit;
            boolean found = false;
            boolean needMore = false;
            while (p < lim) {
                if (b[p] == first) {
                    if (p + n > lim) {
                        needMore = !eof;
                        if (needMore) {
                            break;
                        }
                        p++;
                        continue;
                    }
                    int k = 1;
                    while (k < n && b[p + k] == sep[k]) {
                        k++;
                    }
                    if (k == n) {
                        found = true;
                        break;
                    }
                }
                p++;
            }
            if (found) {
                start = pos;
                end = p;
                pos = p + n;
                line++;
                return true;
            }
            if (eof && !needMore) {
                return lastLine();
            }
            p = refill(p);
        }
    }

    private boolean lastLine() {
        if (pos < limit) {
            start = pos;
            end = limit;
            pos = limit;
            line++;
            return true;
        }
        return false;
    }

    // Moves the unfinished line to the front (growing the buffer if it fills it) and reads more; returns where
    // the scan should resume.
    private int refill(int p) throws IOException {
        int scanned = p - pos;
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        fill(); // grows the buffer when a line fills it
        return pos + scanned;
    }

    private void fill() throws IOException {
        if (eof) {
            return;
        }
        if (limit == buf.length) {
            byte[] bigger = new byte[buf.length * 2];
            System.arraycopy(buf, 0, bigger, 0, limit);
            buf = bigger;
        }
        int r = in.read(buf, limit, buf.length - limit);
        if (r < 0) {
            eof = true;
        } else {
            limit += r;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            in.close();
        } finally {
            if (pool != null && buf != null) {
                pool.give(buf);
                buf = null; // a second close must not give it back twice
            }
        }
    }
}
