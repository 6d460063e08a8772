package io.sluice.files.sink;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A buffered UTF-8 writer over a byte stream, without the charset encoder's per-call overhead: ASCII is copied
 * byte for byte, other characters encoded inline (an unpaired surrogate becomes {@code ?}, as the JDK's
 * encoder replaces it). Used by one thread.
 */
final class Utf8Writer {
    private final OutputStream out;
    private final byte[] buf;
    private int pos;

    Utf8Writer(OutputStream out, int bufferSize) {
        this.out = out;
        this.buf = new byte[bufferSize];
    }

    /** One character; a surrogate (half of a pair) must go through {@link #write(String)} instead. */
    void write(char c) throws IOException {
        if (c < 0x80) {
            if (pos == buf.length) {
                drain();
            }
            buf[pos++] = (byte) c;
        } else {
            writeSlow(c, null, 0, 0);
        }
    }

    void write(String s) throws IOException {
        write(s, 0, s.length());
    }

    void write(String s, int from, int to) throws IOException {
        int i = from;
        while (i < to) {
            if (pos == buf.length) {
                drain();
            }
            // Copy a run of ASCII characters up to the end of the buffer.
            int limit = Math.min(to, i + (buf.length - pos));
            while (i < limit) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                buf[pos++] = (byte) c;
                i++;
            }
            if (i < limit) {
                i = writeSlow(s.charAt(i), s, i, to);
            }
        }
    }

    void write(char[] chars, int off, int len) throws IOException {
        int end = off + len;
        for (int i = off; i < end; i++) {
            char c = chars[i];
            if (c >= 0x80) {
                write(new String(chars, i, end - i));
                return;
            }
            if (pos == buf.length) {
                drain();
            }
            buf[pos++] = (byte) c;
        }
    }

    /** Encodes the non-ASCII character at {@code i} (reading its pair from {@code s}); returns the next index. */
    private int writeSlow(char c, String s, int i, int to) throws IOException {
        if (buf.length - pos < 4) {
            drain();
        }
        if (c < 0x800) {
            buf[pos++] = (byte) (0xC0 | (c >> 6));
            buf[pos++] = (byte) (0x80 | (c & 0x3F));
            return i + 1;
        }
        if (Character.isHighSurrogate(c)) {
            if (s != null && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(i + 1));
                buf[pos++] = (byte) (0xF0 | (cp >> 18));
                buf[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buf[pos++] = (byte) (0x80 | (cp & 0x3F));
                return i + 2;
            }
            buf[pos++] = '?';
            return i + 1;
        }
        if (Character.isLowSurrogate(c)) {
            buf[pos++] = '?';
            return i + 1;
        }
        buf[pos++] = (byte) (0xE0 | (c >> 12));
        buf[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        buf[pos++] = (byte) (0x80 | (c & 0x3F));
        return i + 1;
    }

    private void drain() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
    }

    /** Writes the buffer out and flushes the stream. */
    void flush() throws IOException {
        drain();
        out.flush();
    }
}
