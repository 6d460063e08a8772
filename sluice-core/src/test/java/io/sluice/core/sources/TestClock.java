package io.sluice.core.sources;

import io.sluice.api.SluiceClock;

/** A clock that moves only when a test moves it. */
public final class TestClock implements SluiceClock {
    private long millis;

    public TestClock(long startMillis) {
        this.millis = startMillis;
    }

    @Override
    public synchronized long millis() {
        return millis;
    }

    @Override
    public synchronized long nanos() {
        return millis * 1_000_000L;
    }

    @Override
    public synchronized void waitUntil(long targetMillis) throws InterruptedException {
        while (millis < targetMillis) {
            wait();
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
}
