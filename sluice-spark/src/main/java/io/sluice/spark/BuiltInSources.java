package io.sluice.spark;

/**
 * Spark short names for every source shipped with Sluice, so {@code format("sluice-kafka")} works as well as
 * {@code format("sluice").option("sluice.source", "kafka")}. Spark's {@code DataSourceRegister} gives one short
 * name per class (Spark makes the class with its no-argument constructor), hence one tiny class per name, all
 * listed in the bridge jar's service file.
 *
 * <p>The classes name their source only by a string, never by a connector's class: Spark loads every registered
 * class on each {@code format(..)} lookup, and one that failed to load would break them all. So the names of the
 * connectors' sources ({@code sluice-json}, {@code sluice-kafka}, ...) are registered even when the connector's jar
 * is not on the classpath; {@code load()} then fails naming the jar to add ({@link SourceProviders}).
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

    /** {@code sluice-socket}: refused at {@code load()} with its reason (its rows live in the driver's stream). */
    public static final class Socket extends SluiceSparkSource {
        public Socket() {
            super("socket");
        }
    }

    /** {@code sluice-memory}: refused at {@code load()} with its reason (its rows live in the driver's JVM). */
    public static final class Memory extends SluiceSparkSource {
        public Memory() {
            super("memory");
        }
    }

    /** {@code sluice-json} (sluice-spark-files.jar). */
    public static final class Json extends SluiceSparkSource {
        public Json() {
            super("json");
        }
    }

    /** {@code sluice-csv} (sluice-spark-files.jar). */
    public static final class Csv extends SluiceSparkSource {
        public Csv() {
            super("csv");
        }
    }

    /** {@code sluice-text} (sluice-spark-files.jar). */
    public static final class Text extends SluiceSparkSource {
        public Text() {
            super("text");
        }
    }

    /** {@code sluice-kafka} (sluice-spark-kafka.jar). */
    public static final class Kafka extends SluiceSparkSource {
        public Kafka() {
            super("kafka");
        }
    }
}
