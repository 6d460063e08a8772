package io.sluice.files.format;

import java.io.IOException;
import java.io.Reader;

/**
 * Splits decoded text into lines: by default at {@code \n}, {@code \r} or {@code \r\n}; with a separator, at each
 * occurrence of it. A separator at the very end does not start another (empty) line. The current line is
 * {@code buffer()[start(), end())}, valid until the next call. Not thread-safe.
 */
final class CharLineReader implements CharLines {
    private final Reader in;
    private final char[] sep;
    private char[] buf;
    private int pos;
    private int limit;
    private int start;
    private int end;
    private boolean eof;
    private long line;
    private boolean started;
    private final BufferPool pool;

    CharLineReader(Reader in, String separator) {
        this(in, separator, null);
    }

    /** With a pool: reads into a buffer from it, given back on {@link #close()}. */
    CharLineReader(Reader in, String separator, BufferPool pool) {
        this.in = in;
        this.sep = separator == null || separator.isEmpty() ? null : separator.toCharArray();
        this.pool = pool;
        this.buf = pool != null ? pool.chars() : new char[BufferPool.CHARS];
    }

    @Override
    public char[] buffer() {
        return buf;
    }

    @Override
    public int start() {
        return start;
    }

    @Override
    public int end() {
        return end;
    }

    @Override
    public long line() {
        return line;
    }

    @Override
    public boolean next() throws IOException {
        if (!started) {
            started = true;
            fill();
            if (limit > 0 && buf[0] == '\uFEFF') {
                pos = 1;
            }
        }
        int p = pos;
        while (true) {
            char[] b = buf;
            int lim = limit;
            if (sep == null) {
                while (p < lim) {
                    char c = b[p];
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
            } else {
                char first = sep[0];
                boolean needMore = false;
                while (p < lim) {
                    if (b[p] == first) {
                        if (sep.length == 1) {
                            break;
                        }
                        if (p + 1 >= lim) {
                            if (!eof) {
                                needMore = true;
                                break;
                            }
                        } else if (b[p + 1] == sep[1]) {
                            break;
                        }
                    }
                    p++;
                }
                if (needMore) {
                    p = refill(p);
                    continue;
                }
                if (p < lim) {
                    start = pos;
                    end = p;
                    pos = p + sep.length;
                    line++;
                    return true;
                }
            }
            if (eof) {
                if (pos < limit) {
                    start = pos;
                    end = limit;
                    pos = limit;
                    line++;
                    return true;
                }
                return false;
            }
            p = refill(p);
        }
    }

    private int refill(int p) throws IOException {
        int scanned = p - pos;
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        fill();
        return pos + scanned;
    }

    private void fill() throws IOException {
        if (eof) {
            return;
        }
        if (limit == buf.length) {
            char[] bigger = new char[buf.length * 2];
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
