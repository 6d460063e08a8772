package io.sluice.spark.jars;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.List;

/**
 * A Spark application that knows nothing of Sluice (it compiles against Spark alone, and runs in a JVM whose
 * classpath is Spark's): it reads through the Sluice sources it is asked for by their Spark short names and prints
 * one {@code PROBE} line per read, its sorted rows or its failure. {@code JarsIT} runs it with the packaged jars.
 *
 * <p>Arguments: {@code rate-micro-batch}, {@code json=<folder>}, {@code kafka=<bootstrap servers>|<topic>}.
 */
public final class JarsProbe {
    private JarsProbe() {
    }

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[2]").appName("sluice-jars-probe")
                .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC").getOrCreate();
        try {
            for (String arg : args) {
                String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "";
                try {
                    System.out.println("PROBE " + name + ": " + sorted(read(spark, name, value)));
                } catch (RuntimeException e) {
                    System.out.println("PROBE " + name + " failed: " + e.getClass().getName() + ": "
                            + e.getMessage());
                }
            }
        } finally {
            spark.stop();
        }
    }

    private static Dataset<Row> read(SparkSession spark, String name, String value) {
        switch (name) {
            case "rate-micro-batch":
                return spark.read().format("sluice-rate-micro-batch").option("rowsPerBatch", 3)
                        .option("startTimestamp", 0).load().selectExpr("value");
            case "json":
                return spark.read().format("sluice-json").schema("n int, s string").load(value);
            case "kafka":
                String[] parts = value.split("\\|");
                return spark.read().format("sluice-kafka").option("kafka.bootstrap.servers", parts[0])
                        .option("subscribe", parts[1]).load().selectExpr("CAST(value AS STRING)");
            default:
                throw new IllegalArgumentException("unknown probe " + name);
        }
    }

    private static List<String> sorted(Dataset<Row> df) {
        List<String> out = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            out.add(r.toString());
        }
        out.sort(null);
        return out;
    }
}
