package io.sluice.core;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures what a test writes to {@code System.err} (where slf4j-simple, the tests' binding, logs: it looks the
 * stream up on every message), still passing it through. Register with {@code @RegisterExtension}; {@link #text()}
 * is what was written since the test began.
 */
public final class StderrCapture implements BeforeEachCallback, AfterEachCallback {
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private PrintStream original;

    @Override
    public void beforeEach(ExtensionContext context) {
        original = System.err;
        log.reset();
        PrintStream passThrough = original;
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                passThrough.write(b);
                synchronized (log) {
                    log.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                passThrough.write(b, off, len);
                synchronized (log) {
                    log.write(b, off, len);
                }
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        System.setErr(original);
    }

    /** Everything written to {@code System.err} since the test began. */
    public String text() {
        synchronized (log) {
            return log.toString(StandardCharsets.UTF_8);
        }
    }
}
