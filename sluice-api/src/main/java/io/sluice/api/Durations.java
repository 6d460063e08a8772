package io.sluice.api;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spark's two duration strings, the one implementation every option parser uses.
 *
 * <ul>
 *   <li>Time strings ({@link #timeString}), Spark's {@code JavaUtils.timeStringAs*}: a whole number with an
 *   optional unit {@code us, ms, s, m, min, h, d} (case-insensitive, surrounding blanks ignored), such as
 *   {@code 7d}, {@code 15m}, {@code 500ms}; options such as {@code maxFileAge}, {@code maxTriggerDelay},
 *   {@code rampUpTime} and the {@link OptionDef.Type#DURATION} declarations. A bad one fails with Spark's message,
 *   {@link #TIME_STRING_ERROR} and a line saying why.</li>
 *   <li>Intervals ({@link #intervalMs}), as {@code Trigger.ProcessingTime("10 seconds")} takes them: a whole number,
 *   optional blanks and a unit ({@code ms}, {@code s}/{@code sec}/{@code second(s)}, {@code m}/{@code min}/
 *   {@code minute(s)}, {@code h}/{@code hour(s)}, {@code d}/{@code day(s)}; none means milliseconds), optionally
 *   after the word {@code interval}.</li>
 * </ul>
 */
public final class Durations {
    /** Spark's message for a time string it cannot read. */
    public static final String TIME_STRING_ERROR = "Time must be specified as seconds (s), milliseconds (ms), "
            + "microseconds (us), minutes (m or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.";
    private static final Pattern TIME_STRING = Pattern.compile("(-?[0-9]+)([a-z]+)?");
    private static final Pattern INTERVAL = Pattern.compile("(?i)\\s*(?:interval\\s+)?(\\d+)\\s*([a-z]*)\\s*");
    private static final Map<String, TimeUnit> SUFFIXES = Map.of(
            "us", TimeUnit.MICROSECONDS, "ms", TimeUnit.MILLISECONDS, "s", TimeUnit.SECONDS,
            "m", TimeUnit.MINUTES, "min", TimeUnit.MINUTES, "h", TimeUnit.HOURS, "d", TimeUnit.DAYS);

    private Durations() {
    }

    /**
     * A time string in {@code result} units (truncated, saturating at {@code Long.MAX_VALUE}); negative values are
     * read, as Spark reads them.
     *
     * @param noUnit the unit of a number without one (milliseconds for {@code timeStringAsMs}, seconds for
     *               {@code timeStringAsSec})
     * @throws InvalidOptionException naming {@code option}: {@link #TIME_STRING_ERROR}, a new line, and
     *                                {@code Invalid suffix: "x"} or {@code Failed to parse time string: <value>}
     */
    public static long timeString(String option, String value, TimeUnit noUnit, TimeUnit result) {
        Matcher m = TIME_STRING.matcher(value.toLowerCase(Locale.ROOT).trim());
        String problem;
        if (!m.matches()) {
            problem = "Failed to parse time string: " + value;
        } else {
            String suffix = m.group(2);
            TimeUnit unit = suffix == null ? noUnit : SUFFIXES.get(suffix);
            if (unit == null) {
                problem = "Invalid suffix: \"" + suffix + "\"";
            } else {
                try {
                    return result.convert(Long.parseLong(m.group(1)), unit);
                } catch (NumberFormatException e) {
                    problem = "Failed to parse time string: " + value;
                }
            }
        }
        throw new InvalidOptionException(option, value, TIME_STRING_ERROR + "\n" + problem, true);
    }

    /**
     * Spark's {@code timeStringAsMs} (no unit: milliseconds) for an option that cannot be negative.
     *
     * @throws InvalidOptionException as {@link #timeString}, or {@code Invalid value '-1d' for option 'x': a
     *                                non-negative duration is accepted}
     */
    public static long timeStringAsMs(String option, String value) {
        long ms = timeString(option, value, TimeUnit.MILLISECONDS, TimeUnit.MILLISECONDS);
        if (ms < 0) {
            throw new InvalidOptionException(option, value, "a non-negative duration is accepted");
        }
        return ms;
    }

    /** Spark's {@code timeStringAsSec} (no unit: seconds), truncated to whole seconds; may be negative. */
    public static long timeStringAsSec(String option, String value) {
        return timeString(option, value, TimeUnit.SECONDS, TimeUnit.SECONDS);
    }

    /**
     * An interval string in milliseconds ({@code "10 seconds"}, {@code "1 minute"}, {@code "500 ms"}, {@code "30s"},
     * {@code "0"}).
     *
     * @param what what the interval is, for the message ({@code trigger interval})
     * @throws IllegalArgumentException {@code Invalid <what> '<text>': } and the reason (not a number with a unit, an
     *                                  unknown unit, or more milliseconds than a long holds)
     */
    public static long intervalMs(String what, String text) {
        Matcher m = INTERVAL.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("Invalid " + what + " '" + text
                    + "': expected a whole number with an optional unit, e.g. '10 seconds', '500 ms', '1 minute'");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw tooLong(what, text); // only digits reach here: the number is above Long.MAX_VALUE
        }
        long factor = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "ms", "milli", "millis", "millisecond", "milliseconds" -> 1L;
            case "s", "sec", "secs", "second", "seconds" -> 1_000L;
            case "m", "min", "mins", "minute", "minutes" -> 60_000L;
            case "h", "hour", "hours" -> 3_600_000L;
            case "d", "day", "days" -> 86_400_000L;
            default -> throw new IllegalArgumentException("Invalid " + what + " '" + text + "': unknown unit '"
                    + m.group(2) + "'; accepted: ms, seconds, minutes, hours, days");
        };
        try {
            return Math.multiplyExact(n, factor);
        } catch (ArithmeticException e) {
            throw tooLong(what, text);
        }
    }

    private static IllegalArgumentException tooLong(String what, String text) {
        return new IllegalArgumentException("Invalid " + what + " '" + text + "': it is too long; at most "
                + Long.MAX_VALUE + " ms (about 292 million years) is accepted");
    }
}
