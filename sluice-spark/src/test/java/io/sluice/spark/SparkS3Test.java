package io.sluice.spark;

import io.sluice.api.io.Storage;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.Storages;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.s3.server.SharedLocalS3Server;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Sluice and Spark 4.2 on one real S3-compatible server (the shared S3Mock of the test JVM, path style): Spark reads,
 * through hadoop-aws's S3A, the output the Sluice file sink wrote there (its {@code _spark_metadata} manifest and
 * data objects), with exactly the rows Sluice wrote; and a Sluice source bridged into a Spark query whose
 * checkpointLocation is {@code s3a://} keeps its private state beside Spark's checkpoint on the store, across a
 * restart, with each row once.
 */
class SparkS3Test {
    private static final long START = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
    /** What each bridged query's foreachBatch saw: tag -> batch id -> rows ({@code value timestamp-millis}). */
    private static final Map<String, Map<Long, List<long[]>>> SEEN = new ConcurrentHashMap<>();
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = SharedSpark.get();
    }

    // ------------------------------------------------------------------ helpers

    /** A new bucket, and S3A and Sluice told how to reach it (S3A's per-bucket settings: nothing global changes). */
    private static String newBucket(String hint) {
        String bucket = (hint + "-" + UUID.randomUUID()).substring(0, hint.length() + 13);
        String endpoint = SharedLocalS3Server.get().endpoint();
        try (S3Client c = S3Client.builder().endpointOverride(URI.create(endpoint)).forcePathStyle(true)
                .region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .build()) {
            c.createBucket(b -> b.bucket(bucket));
        }
        org.apache.hadoop.conf.Configuration hadoop = spark.sparkContext().hadoopConfiguration();
        s3Conf(bucket).forEach(hadoop::set);
        return bucket;
    }

    /** The settings of one bucket, as S3A and Sluice both read them. */
    private static Map<String, String> s3Conf(String bucket) {
        String b = "fs.s3a.bucket." + bucket + ".";
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put(b + "endpoint", SharedLocalS3Server.get().endpoint());
        conf.put(b + "endpoint.region", "us-east-1");
        conf.put(b + "path.style.access", "true");
        conf.put(b + "connection.ssl.enabled", "false");
        conf.put(b + "access.key", "test-access-key");
        conf.put(b + "secret.key", "test-secret-key");
        return conf;
    }

    private static Storage storage(String bucket) throws Exception {
        return Storages.of("s3a://" + bucket + "/", s3Conf(bucket));
    }

    /** Keys of the bucket under {@code prefix}, relative to the bucket. */
    private static List<String> keys(String bucket, String prefix) throws Exception {
        try (Storage s = storage(bucket)) {
            return s.list("s3a://" + bucket + "/" + prefix).stream().map(StoredObject::uri)
                    .map(u -> u.substring(("s3a://" + bucket + "/").length())).toList();
        }
    }

    /** Two availableNow runs of rate-micro-batch (2 x 1,000 rows) into the Sluice file sink at {@code out}. */
    private void sluiceWrites(String bucket, String format, String out) throws Exception {
        Sluice.Builder builder = Sluice.builder().parallelism(2);
        s3Conf(bucket).forEach((k, v) -> builder.config("spark.hadoop." + k, v)); // engine-wide, as --conf
        try (Sluice sluice = builder.build()) {
            for (int run = 0; run < 2; run++) {
                StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 1000)
                        .option("numPartitions", 2).option("startTimestamp", START).load()
                        .selectExpr("value AS id", "timestamp AS at", "concat('k', CAST(value % 7 AS STRING)) AS kind")
                        .writeStream().format(format).option("path", out)
                        .option("checkpointLocation", dir.resolve("chk-" + format).toString())
                        .trigger(Trigger.availableNow()).start();
                q.awaitTermination();
                assertThat(q.exception()).isEmpty();
            }
        }
    }

    /** The rows the Sluice query wrote, as Spark shows them: {@code id|at|kind}. */
    private static List<String> expectedRows() {
        return LongStream.range(0, 2000).mapToObj(v -> v + "|" + Instant.ofEpochMilli(START + (v / 1000) * 1000)
                + "|k" + (v % 7)).toList();
    }

    private static List<String> sorted(Dataset<org.apache.spark.sql.Row> df) {
        List<String> out = new ArrayList<>();
        for (org.apache.spark.sql.Row r : df.orderBy("id").collectAsList()) {
            out.add(r.getLong(0) + "|" + r.getAs(1) + "|" + r.getString(2));
        }
        return out;
    }

    // ------------------------------------------------------------------ Spark reads the sink's output on S3

    @Test
    void sparkReadsThroughS3ATheJsonAndParquetTheFileSinkWroteOnS3() throws Exception {
        String bucket = newBucket("sink-read");
        for (String format : List.of("json", "parquet")) {
            String out = "s3a://" + bucket + "/out-" + format;
            sluiceWrites(bucket, format, out);
            assertThat(keys(bucket, "out-" + format + "/_spark_metadata/")).containsExactly(
                    "out-" + format + "/_spark_metadata/0", "out-" + format + "/_spark_metadata/1");

            // A folder with _spark_metadata is read through the manifest (MetadataLogFileIndex), as Spark reads
            // its own sink's output: the batches' data objects, nothing else.
            Dataset<org.apache.spark.sql.Row> read = format.equals("json")
                    ? spark.read().schema("id bigint, at timestamp, kind string").json(out)
                    : spark.read().parquet(out);
            assertThat(read.schema().simpleString()).isEqualTo("struct<id:bigint,at:timestamp,kind:string>");
            assertThat(sorted(read)).as(format).containsExactlyElementsOf(expectedRows());
            assertThat(read.inputFiles()).allMatch(f -> f.startsWith("s3a://" + bucket + "/out-" + format + "/part-"));
        }
    }

    // ------------------------------------------------------------------ a bridged source's state on S3

    private static org.apache.spark.sql.streaming.StreamingQuery bridgedRate(String tag, String checkpoint)
            throws Exception {
        SEEN.putIfAbsent(tag, new ConcurrentHashMap<>());
        return spark.readStream().format("sluice").option(SluiceSparkSource.SOURCE_OPTION, "rate")
                .option("rowsPerSecond", 10).option("numPartitions", 2).load()
                .writeStream().option("checkpointLocation", checkpoint)
                .trigger(org.apache.spark.sql.streaming.Trigger.ProcessingTime(200))
                .foreachBatch((VoidFunction2<Dataset<org.apache.spark.sql.Row>, Long>) (batch, id) -> {
                    List<long[]> rows = new ArrayList<>();
                    for (org.apache.spark.sql.Row r : batch.collectAsList()) {
                        rows.add(new long[] {r.getLong(1), ((Instant) r.get(0)).toEpochMilli()});
                    }
                    SEEN.get(tag).put(id, rows); // a re-run batch replaces its first attempt: the sink is idempotent
                })
                .start();
    }

    private static List<long[]> seenRows(String tag) {
        List<long[]> all = new ArrayList<>();
        new TreeMap<>(SEEN.get(tag)).values().forEach(all::addAll);
        return all;
    }

    @Test
    void aBridgedSourceWithSparksCheckpointOnS3KeepsItsStateThereAcrossARestart() throws Exception {
        String bucket = newBucket("bridge-chk");
        String chk = "s3a://" + bucket + "/chk";
        String startTime = "chk/sources/0/" + "0"; // the rate source's start time (RateStream.CREATION_TIME_FILE)

        var first = bridgedRate("s3", chk);
        try {
            // Stopped after a batch is committed (commits/N on S3), so that the restart has a logged range to go on
            // from; one written but not committed would be re-run, which is fine too.
            await().atMost(java.time.Duration.ofSeconds(60)).until(() -> seenRows("s3").size() >= 10
                    && keys(bucket, "chk/commits/").contains("chk/commits/0")); // not Spark's temporary file
        } finally {
            first.stop();
        }
        assertThat(first.exception().isEmpty()).isTrue();
        assertThat(keys(bucket, "chk/")).contains("chk/metadata", "chk/offsets/0", "chk/commits/0", startTime);
        byte[] recorded;
        try (Storage s = storage(bucket)) {
            recorded = s.readAll("s3a://" + bucket + "/" + startTime, 1024);
        }
        String[] lines = new String(recorded, StandardCharsets.UTF_8).split("\n");
        assertThat(lines[0]).isEqualTo("v1");
        long created = Long.parseLong(lines[1]);
        int afterFirst = seenRows("s3").size();

        var second = bridgedRate("s3", chk);
        try {
            await().atMost(java.time.Duration.ofSeconds(60)).until(() -> seenRows("s3").size() >= afterFirst + 10);
        } finally {
            second.stop();
        }
        assertThat(second.exception().isEmpty()).isTrue();

        // Each value once, none missing, across the restart; and every row's time derives from the start time the
        // first run recorded on S3 (10 rows per second: value v at start + 100 v ms), read back by the second run
        // rather than taken again from the clock.
        List<long[]> rows = seenRows("s3");
        assertThat(rows.stream().map(r -> r[0]).sorted().toList())
                .containsExactlyElementsOf(LongStream.range(0, rows.size()).boxed().toList());
        assertThat(rows).allMatch(r -> r[1] == created + 100 * r[0]);
        try (Storage s = storage(bucket)) {
            assertThat(s.readAll("s3a://" + bucket + "/" + startTime, 1024)).isEqualTo(recorded);
        }
        assertThat(new TreeMap<>(SEEN.get("s3")).firstKey()).isZero();
    }

    @Test
    void aBridgedSourceThatKeepsItsStateInLocalFoldersOnlyIsRefusedOnAnS3Checkpoint() throws Exception {
        String bucket = newBucket("bridge-local");
        // all-types (a test source) keeps its state in local folders only; the file source can keep it on a store.
        var q = spark.readStream().format("sluice").option(SluiceSparkSource.SOURCE_OPTION, "all-types").load()
                .writeStream().format("noop").option("checkpointLocation", "s3a://" + bucket + "/chk").start();
        assertThatThrownBy(() -> q.awaitTermination(60_000)).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The Sluice source 'all-types' keeps its checkpoint state in a local folder only, and Spark's "
                        + "checkpointLocation is on an object store (its folder s3a://" + bucket + "/chk/sources/0): "
                        + "give a checkpointLocation on a local or mounted file system for a query reading it");
    }
}
