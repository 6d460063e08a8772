package io.sluice.api;

enum SystemClock implements SluiceClock {
    INSTANCE;

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public long nanos() {
        return System.nanoTime();
    }

    @Override
    public void waitUntil(long targetMillis) throws InterruptedException {
        long now;
        while ((now = millis()) < targetMillis) {
            Thread.sleep(Math.max(1, targetMillis - now));
        }
    }
}
