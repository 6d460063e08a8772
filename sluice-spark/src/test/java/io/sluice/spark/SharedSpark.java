package io.sluice.spark;

import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one Spark local session of the test JVM, shared by the test classes (its start is the slow part). Spark
 * stops it with its own shutdown hook when the JVM exits.
 */
final class SharedSpark {
    private static SparkSession spark;

    private SharedSpark() {
    }

    static synchronized SparkSession get() {
        if (spark == null) {
            Path warehouse;
            try {
                warehouse = Files.createTempDirectory("sluice-spark-warehouse-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            spark = SparkSession.builder().master("local[2]").appName("sluice-spark-test")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
                    .config("spark.sql.datetime.java8API.enabled", "true")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config("spark.sql.adaptive.enabled", "false")
                    .config("spark.sql.warehouse.dir", warehouse.toString())
                    .config("spark.sql.streaming.forceDeleteTempCheckpointLocation", "true")
                    .getOrCreate();
        }
        return spark;
    }

    /**
     * A session of its own on the shared Spark context, with these SQL settings (the session time zone, ANSI mode):
     * a test class that needs other settings uses one and never stops it, since stopping a session stops the
     * context every class shares.
     */
    static SparkSession session(java.util.Map<String, String> sqlConf) {
        SparkSession s = get().newSession();
        sqlConf.forEach((k, v) -> s.conf().set(k, v));
        return s;
    }
}
