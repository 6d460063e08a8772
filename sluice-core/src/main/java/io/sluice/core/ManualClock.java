package io.sluice.core;

import io.sluice.api.SluiceClock;

/**
 * A clock that moves only when told to, for tests (like Spark's StreamManualClock). Threads blocked in
 * {@link #waitUntil(long)} wake when {@link #advance(long)} or {@link #set(long)} reaches their target.
 */
public final class ManualClock implements SluiceClock {
    private long millis;
    private int waiters;

    public ManualClock(long startMillis) {
        this.millis = startMillis;
    }

    @Override
    public synchronized long millis() {
        return millis;
    }

    /** Nanoseconds derived from the manual time, so durations follow the manual clock too. */
    @Override
    public synchronized long nanos() {
        return millis * 1_000_000L;
    }

    @Override
    public synchronized void waitUntil(long targetMillis) throws InterruptedException {
        waiters++;
        notifyAll();
        try {
            while (millis < targetMillis) {
                wait();
            }
        } finally {
            waiters--;
        }
    }

    public synchronized void advance(long deltaMillis) {
        millis += deltaMillis;
        notifyAll();
    }

    public synchronized void set(long newMillis) {
        millis = newMillis;
        notifyAll();
    }

    /** True while some thread is blocked in {@link #waitUntil(long)}: the query is between triggers. */
    public synchronized boolean isWaiting() {
        return waiters > 0;
    }
}
