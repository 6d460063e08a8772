package io.sluice.core.sources;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.Options;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Option checks worded as Spark words them for its built-in test sources. */
final class SparkOptions {
    private static final Pattern TIME_STRING = Pattern.compile("(-?[0-9]+)([a-z]+)?");
    private static final Map<String, TimeUnit> TIME_SUFFIXES = Map.of(
            "us", TimeUnit.MICROSECONDS, "ms", TimeUnit.MILLISECONDS, "s", TimeUnit.SECONDS,
            "m", TimeUnit.MINUTES, "min", TimeUnit.MINUTES, "h", TimeUnit.HOURS, "d", TimeUnit.DAYS);
    private static final String TIME_ERROR = "Time must be specified as seconds (s), milliseconds (ms), "
            + "microseconds (us), minutes (m or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.";

    /** Spark's "must be positive" check of a declared int or long option (run after its type check). */
    static final OptionDef.Validator POSITIVE = (name, value) -> positive(name, Long.parseLong(value.trim()));

    /** The partition count option of the test sources; the default is computed ({@link #numPartitions}). */
    static final OptionDef NUM_PARTITIONS = OptionDef.of("numPartitions", OptionDef.Type.INT,
            "how many partitions each batch is split into").withDefaultText("the number of cores")
            .validatedBy(POSITIVE);

    private SparkOptions() {
    }

    /** Spark's non-negative check of a declared int or long option, with Spark's wording for that option. */
    static OptionDef.Validator nonNegative(String wording) {
        return (name, value) -> nonNegative(name, Long.parseLong(value.trim()), wording);
    }

    static long positive(String option, long value) {
        if (value <= 0) {
            throw invalid(option, value, "must be positive");
        }
        return value;
    }

    static long nonNegative(String option, long value, String wording) {
        if (value < 0) {
            throw invalid(option, value, wording);
        }
        return value;
    }

    /** Spark's "Invalid value '<v>'. The option '<name>' <rule>". */
    static InvalidOptionException invalid(String option, long value, String rule) {
        return new InvalidOptionException(option, Long.toString(value),
                "Invalid value '" + value + "'. The option '" + option + "' " + rule, true);
    }

    /** The partition count: the option, or the number of cores (Spark's default parallelism in local mode). */
    static int numPartitions(Options options) {
        int n = options.getInt("numPartitions", Runtime.getRuntime().availableProcessors());
        positive("numPartitions", n);
        return n;
    }

    /**
     * A duration in whole seconds, as Spark's {@code JavaUtils.timeStringAsSec} reads it: a whole number with an
     * optional unit ({@code us, ms, s, m, min, h, d}; none means seconds), truncated to whole seconds.
     */
    static long timeStringAsSeconds(String option, String value) {
        String lower = value.toLowerCase(Locale.ROOT).trim();
        Matcher m = TIME_STRING.matcher(lower);
        String problem;
        if (!m.matches()) {
            problem = "Failed to parse time string: " + value;
        } else {
            String suffix = m.group(2);
            TimeUnit unit = suffix == null ? TimeUnit.SECONDS : TIME_SUFFIXES.get(suffix);
            if (unit == null) {
                problem = "Invalid suffix: \"" + suffix + "\"";
            } else {
                try {
                    return TimeUnit.SECONDS.convert(Long.parseLong(m.group(1)), unit);
                } catch (NumberFormatException e) {
                    problem = "Failed to parse time string: " + value;
                }
            }
        }
        throw new InvalidOptionException(option, value, TIME_ERROR + "\n" + problem, true);
    }
}
