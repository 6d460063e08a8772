package io.sluice.core;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        return new ProcessingTime(parseInterval(interval));
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

    private static long parseInterval(String text) {
        Matcher m = Pattern.compile("(?i)\\s*(?:interval\\s+)?(\\d+)\\s*([a-z]*)\\s*").matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("Invalid trigger interval '" + text
                    + "': expected a whole number with an optional unit, e.g. '10 seconds', '500 ms', '1 minute'");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw tooLong(text); // only digits reach here: the number is above Long.MAX_VALUE
        }
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        long factor = switch (unit) {
            case "", "ms", "milli", "millis", "millisecond", "milliseconds" -> 1L;
            case "s", "sec", "secs", "second", "seconds" -> 1_000L;
            case "m", "min", "mins", "minute", "minutes" -> 60_000L;
            case "h", "hour", "hours" -> 3_600_000L;
            case "d", "day", "days" -> 86_400_000L;
            default -> throw new IllegalArgumentException("Invalid trigger interval '" + text + "': unknown unit '"
                    + m.group(2) + "'; accepted: ms, seconds, minutes, hours, days");
        };
        try {
            return Math.multiplyExact(n, factor);
        } catch (ArithmeticException e) {
            throw tooLong(text);
        }
    }

    private static IllegalArgumentException tooLong(String text) {
        return new IllegalArgumentException("Invalid trigger interval '" + text + "': it is too long; at most "
                + Long.MAX_VALUE + " ms (about 292 million years) is accepted");
    }
}
