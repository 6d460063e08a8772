package io.sluice.files.format;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The lines of UTF-8 input as characters, as {@link CharLineReader} over a UTF-8 reader gives them (the same line
 * ends, a leading byte order mark dropped, malformed bytes replaced by U+FFFD) without decoding the input as a
 * stream: lines are split on bytes (a line end never occurs inside a UTF-8 sequence), an ASCII line is widened
 * byte by byte and any other line decoded on its own. Not thread-safe.
 */
final class Utf8CharLines implements CharLines {
    private final ByteLineReader bytes;
    private char[] chars = new char[256];
    private int end;

    Utf8CharLines(InputStream in, BufferPool pool) {
        this.bytes = new ByteLineReader(in, null, true, pool);
    }

    @Override
    public boolean next() throws IOException {
        if (!bytes.next()) {
            return false;
        }
        byte[] b = bytes.buffer();
        int s = bytes.start();
        int n = bytes.end() - s;
        if (chars.length < n) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        char[] c = chars;
        int i = 0;
        while (i < n) {
            byte x = b[s + i];
            if (x < 0) {
                break;
            }
            c[i++] = (char) x;
        }
        if (i == n) {
            end = n;
            return true;
        }
        String line = new String(b, s, n, StandardCharsets.UTF_8);
        if (chars.length < line.length()) {
            chars = new char[line.length()];
        }
        line.getChars(0, line.length(), chars, 0);
        end = line.length();
        return true;
    }

    @Override
    public char[] buffer() {
        return chars;
    }

    @Override
    public int start() {
        return 0;
    }

    @Override
    public int end() {
        return end;
    }

    @Override
    public long line() {
        return bytes.line();
    }

    @Override
    public void close() throws IOException {
        bytes.close();
    }
}
