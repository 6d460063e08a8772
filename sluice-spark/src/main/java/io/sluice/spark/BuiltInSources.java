package io.sluice.spark;

/**
 * Spark short names for the sources shipped with Sluice, so {@code format("sluice-rate-micro-batch")} works as
 * well as {@code format("sluice").option("sluice.source", "rate-micro-batch")}. Each is a Spark
 * {@code DataSourceRegister} listed in this jar's service file; the file sources need sluice-files on Spark's
 * classpath too.
 */
public final class BuiltInSources {
    private BuiltInSources() {
    }

    /** {@code sluice-rate}. */
    public static final class Rate extends SluiceSparkSource {
        public Rate() {
            super("rate");
        }
    }

    /** {@code sluice-rate-micro-batch}. */
    public static final class RateMicroBatch extends SluiceSparkSource {
        public RateMicroBatch() {
            super("rate-micro-batch");
        }
    }

    /** {@code sluice-json} (sluice-files). */
    public static final class Json extends SluiceSparkSource {
        public Json() {
            super("json");
        }
    }

    /** {@code sluice-csv} (sluice-files). */
    public static final class Csv extends SluiceSparkSource {
        public Csv() {
            super("csv");
        }
    }

    /** {@code sluice-text} (sluice-files). */
    public static final class Text extends SluiceSparkSource {
        public Text() {
            super("text");
        }
    }
}
