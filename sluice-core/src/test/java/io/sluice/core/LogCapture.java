package io.sluice.core;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures what slf4j-simple (the tests' binding) logs while open: it writes to {@code System.err}, looked up on
 * every message, so the stream is swapped for a tee. Close it to restore {@code System.err}.
 */
final class LogCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    LogCapture() {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                original.write(b);
                synchronized (log) {
                    log.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                original.write(b, off, len);
                synchronized (log) {
                    log.write(b, off, len);
                }
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    /** Everything logged so far. */
    String text() {
        synchronized (log) {
            return log.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
