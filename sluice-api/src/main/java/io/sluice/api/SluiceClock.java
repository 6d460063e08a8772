package io.sluice.api;

/**
 * The engine's source of time, injectable so tests control it. Sources that need the time (rate, socket) take it
 * from their {@link io.sluice.api.source.StreamContext}, never from {@code System.currentTimeMillis()}.
 */
public interface SluiceClock {

    /** Wall-clock time in milliseconds since the epoch. */
    long millis();

    /** A monotonic reading in nanoseconds, for durations only. */
    long nanos();

    /**
     * Blocks until {@link #millis()} reaches {@code targetMillis}. A manual clock in tests returns when the test
     * advances it.
     *
     * @throws InterruptedException when the waiting thread is interrupted (the query is stopping)
     */
    void waitUntil(long targetMillis) throws InterruptedException;

    /** The real clock. */
    static SluiceClock system() {
        return SystemClock.INSTANCE;
    }
}
