package io.sluice.bench;

import org.apache.spark.sql.SparkSession;

/**
 * The object-store workloads on Spark 4.2 (sluice-bench's S3Bench is Sluice's side): jsonread's and plan100k's
 * queries on objects of the bench's local S3 server, through hadoop-aws's S3A with its defaults, path style.
 */
final class SparkS3Bench {
    private SparkS3Bench() {
    }

    /** S3A pointed at the local server (any credentials: S3Mock checks no signature). */
    private static void configure(SparkSession spark, String endpoint) {
        org.apache.hadoop.conf.Configuration h = spark.sparkContext().hadoopConfiguration();
        h.set("fs.s3a.endpoint", endpoint);
        h.set("fs.s3a.endpoint.region", "us-east-1");
        h.set("fs.s3a.path.style.access", "true");
        h.set("fs.s3a.connection.ssl.enabled", "false");
        h.set("fs.s3a.access.key", "bench");
        h.set("fs.s3a.secret.key", "bench-secret");
    }

    static void read(SparkSession spark, String endpoint, String prefix) throws Exception {
        configure(spark, endpoint);
        SparkBench.availableNowToNoop(spark, "s3jsonread", "", () -> spark.readStream().format("json")
                .schema(SparkBench.EVENTS_DDL).load(prefix));
    }

    static void plan(SparkSession spark, String endpoint, String prefix, long maxFilesPerTrigger) throws Exception {
        configure(spark, endpoint);
        SparkBench.plan(spark, "s3plan100k", prefix, maxFilesPerTrigger);
    }
}
