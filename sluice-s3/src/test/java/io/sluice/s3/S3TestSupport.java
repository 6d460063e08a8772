package io.sluice.s3;

import io.sluice.api.Row;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sinks.MemorySink;
import io.sluice.s3.server.LocalS3Server;
import io.sluice.s3.server.SharedLocalS3Server;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shared real server, a configuration that reaches it, a client to set up buckets, and what the S3 tests do
 * with them alike: objects written and read back, a bucket's keys, memory-sink table names and batches, triggers
 * driven by a manual clock.
 */
final class S3TestSupport {
    private S3TestSupport() {
    }

    static LocalS3Server server() {
        return SharedLocalS3Server.get();
    }

    static Map<String, String> conf() {
        return conf(server().endpoint());
    }

    static Map<String, String> conf(String endpoint) {
        Map<String, String> c = new HashMap<>();
        c.put(S3Options.ENDPOINT, endpoint);
        c.put(S3Options.PATH_STYLE, "true");
        c.put(S3Options.ACCESS_KEY, "test-access-key");
        c.put(S3Options.SECRET_KEY, "test-secret-do-not-show");
        return c;
    }

    /** A new bucket with a unique name. */
    static String newBucket(String hint) {
        String name = (hint + "-" + UUID.randomUUID()).toLowerCase().substring(0, Math.min(60, hint.length() + 37));
        try (S3Client c = client()) {
            c.createBucket(b -> b.bucket(name));
        }
        return name;
    }

    static S3Client client() {
        return S3Client.builder().endpointOverride(URI.create(server().endpoint())).forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .build();
    }

    /** The configuration engine-wide, as {@code --conf} gives it: each setting under Spark's {@code spark.hadoop.}. */
    static void sparkHadoopConf(Sluice.Builder builder) {
        conf().forEach((k, v) -> builder.config("spark.hadoop." + k, v));
    }

    /** A memory-sink table name unique to the test: {@code prefix} then a random UUID with underscores. */
    static String tableName(String prefix) {
        return prefix + UUID.randomUUID().toString().replace('-', '_');
    }

    static void put(S3Client client, String bucket, String key, String content) {
        client.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString(content));
    }

    /** The object's content as UTF-8. */
    static String get(S3Client client, String bucket, String key) {
        return client.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asUtf8String();
    }

    static byte[] bytes(S3Client client, String bucket, String key) {
        return client.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asByteArray();
    }

    /** Every key of the bucket, all pages, in listing (key) order. */
    static List<String> keys(S3Client client, String bucket) {
        return keys(client, ListObjectsV2Request.builder().bucket(bucket).build());
    }

    /** Every key under {@code prefix}, all pages, in listing (key) order. */
    static List<String> keys(S3Client client, String bucket, String prefix) {
        return keys(client, ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).build());
    }

    private static List<String> keys(S3Client client, ListObjectsV2Request request) {
        return client.listObjectsV2Paginator(request).contents().stream().map(S3Object::key).toList();
    }

    /** The memory sink's batches of {@code table}, by batch id: each batch's first column (a long), sorted. */
    static Map<Long, List<Long>> idsByBatch(String table) {
        Map<Long, List<Long>> out = new TreeMap<>();
        MemorySink.batches(table).forEach((id, rows) -> {
            List<Long> ids = new ArrayList<>();
            for (Row r : rows) {
                ids.add((Long) r.get(0));
            }
            ids.sort(null);
            out.put(id, ids);
        });
        return out;
    }

    /**
     * Waits until the query has made its {@code expected}-th progress and the engine waits on the clock again (or
     * it failed), then asserts that it did not fail.
     */
    static void awaitTrigger(StreamingQuery query, ManualClock clock, int expected) {
        await().until(() -> query.exception().isPresent()
                || (query.recentProgress().size() == expected && clock.isWaiting()));
        assertThat(query.exception()).isEmpty();
    }
}
