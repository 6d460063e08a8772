package io.sluice.files.sink;

import io.sluice.api.InvalidOptionException;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as Spark's {@code JavaUtils.timeStringAsMs} reads them, with Spark's error wording. */
final class TimeStrings {
    private static final Pattern TIME_STRING = Pattern.compile("(-?[0-9]+)([a-z]+)?");
    private static final Map<String, TimeUnit> SUFFIXES = Map.of(
            "us", TimeUnit.MICROSECONDS, "ms", TimeUnit.MILLISECONDS, "s", TimeUnit.SECONDS,
            "m", TimeUnit.MINUTES, "min", TimeUnit.MINUTES, "h", TimeUnit.HOURS, "d", TimeUnit.DAYS);
    static final String TIME_ERROR = "Time must be specified as seconds (s), milliseconds (ms), "
            + "microseconds (us), minutes (m or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.";

    private TimeStrings() {
    }

    /** A whole number with an optional unit ({@code us, ms, s, m, min, h, d}); no unit means milliseconds. */
    static long asMillis(String option, String value) {
        String lower = value.toLowerCase(Locale.ROOT).trim();
        Matcher m = TIME_STRING.matcher(lower);
        String problem;
        if (!m.matches()) {
            problem = "Failed to parse time string: " + value;
        } else {
            String suffix = m.group(2);
            TimeUnit unit = suffix == null ? TimeUnit.MILLISECONDS : SUFFIXES.get(suffix);
            if (unit == null) {
                problem = "Invalid suffix: \"" + suffix + "\"";
            } else {
                try {
                    long ms = TimeUnit.MILLISECONDS.convert(Long.parseLong(m.group(1)), unit);
                    if (ms < 0) {
                        throw new InvalidOptionException(option, value, "a non-negative duration is accepted");
                    }
                    return ms;
                } catch (NumberFormatException e) {
                    problem = "Failed to parse time string: " + value;
                }
            }
        }
        throw new InvalidOptionException(option, value, TIME_ERROR + "\n" + problem, true);
    }
}
