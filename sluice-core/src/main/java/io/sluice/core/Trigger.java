package io.sluice.core;

import io.sluice.api.Durations;

import java.time.Duration;

/**
 * When a query runs its micro-batches, as Spark's {@code Trigger}.
 *
 * <ul>
 *   <li>{@link #processingTime(long)} with 0 (the default): batches back to back; when a trigger finds nothing new
 *       the query polls again after 10 ms.</li>
 *   <li>{@link #processingTime(long)} with an interval: a batch starts at each multiple of the interval; a batch
 *       that overruns makes the next start at once, and missed intervals are skipped, not queued.</li>
 *   <li>{@link #availableNow()}: everything available when the query starts, in as many batches as the read
 *       limits need, then the query stops by itself.</li>
 *   <li>{@link #once()}: deprecated (as in Spark 3.4+): one batch with every read limit lifted.</li>
 * </ul>
 */
public sealed interface Trigger {

    static Trigger processingTime(long intervalMs) {
        return new ProcessingTime(intervalMs);
    }

    static Trigger processingTime(Duration interval) {
        return new ProcessingTime(interval.toMillis());
    }

    /**
     * Parses an interval as Spark accepts it: {@code "10 seconds"}, {@code "1 minute"}, {@code "500 ms"},
     * {@code "30s"}, {@code "0"} (milliseconds when there is no unit).
     */
    static Trigger processingTime(String interval) {
        return new ProcessingTime(Durations.intervalMs("trigger interval", interval));
    }

    static Trigger availableNow() {
        return AvailableNow.INSTANCE;
    }

    /** @deprecated use {@link #availableNow()}, which honours read limits. */
    @Deprecated
    static Trigger once() {
        return Once.INSTANCE;
    }

    /** Back-to-back batches, the default. */
    static Trigger defaultTrigger() {
        return new ProcessingTime(0);
    }

    record ProcessingTime(long intervalMs) implements Trigger {
        public ProcessingTime {
            if (intervalMs < 0) {
                throw new IllegalArgumentException("Trigger interval must not be negative: " + intervalMs + " ms");
            }
        }
    }

    enum AvailableNow implements Trigger {
        INSTANCE;

        @Override
        public String toString() {
            return "AvailableNow";
        }
    }

    enum Once implements Trigger {
        INSTANCE;

        @Override
        public String toString() {
            return "Once";
        }
    }
}
