package io.sluice.core.sources;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.Options;


/** Option checks worded as Spark words them for its built-in test sources. */
final class SparkOptions {
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
}
