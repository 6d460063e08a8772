package io.sluice.s3;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file source with its seen-files state on an S3 checkpoint (the real server): the log, its snapshot and the
 * cleanSource marker go through the checkpoint's storage; a restart continues exactly once. The S3 settings are
 * given engine-wide ({@code Sluice.builder().config}), and reach the source and the sink.
 */
class S3FileSourceStateTest {

    @TempDir
    Path tmp;
    private S3Client client;
    private String bucket;
    private String table;

    @BeforeEach
    void setUp() {
        client = S3TestSupport.client();
        bucket = S3TestSupport.newBucket("state");
        table = S3TestSupport.tableName("s3state_");
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    /** An engine with the S3 settings engine-wide, some with Spark's {@code spark.hadoop.} prefix. */
    private static Sluice engine() {
        Sluice.Builder b = Sluice.builder().parallelism(2);
        S3TestSupport.conf().forEach((k, v) -> b.config(k.endsWith("key") ? "spark.hadoop." + k : k, v));
        return b.build();
    }

    private void put(String key, String content) {
        S3TestSupport.put(client, bucket, key, content);
    }

    private List<String> keys(String prefix) {
        return S3TestSupport.keys(client, bucket, prefix);
    }

    private String get(String key) {
        return S3TestSupport.get(client, bucket, key);
    }

    private void run(Sluice sluice, String... options) throws Exception {
        var reader = sluice.readStream().format("json").schema("id long");
        for (int i = 0; i < options.length; i += 2) {
            reader.option(options[i], options[i + 1]);
        }
        StreamingQuery q = reader.load("s3a://" + bucket + "/in").writeStream().format("memory").queryName(table)
                .option("checkpointLocation", "s3a://" + bucket + "/chk").trigger(Trigger.availableNow()).start();
        assertThat(q.awaitTermination(120_000)).isTrue();
        assertThat(q.exception()).isEmpty();
    }

    private List<Long> ids() {
        return MemorySink.rows(table).stream().map(r -> r.getLong(0)).sorted().toList();
    }

    private static List<Long> range(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> (long) i).toList();
    }

    @Test
    void theSeenFilesLogAndItsSnapshotLiveOnTheS3CheckpointAndARestartContinuesExactlyOnce() throws Exception {
        for (int i = 0; i < 12; i++) {
            put(String.format("in/%02d.json", i), "{\"id\":" + i + "}\n");
        }
        try (Sluice sluice = engine()) {
            run(sluice, "maxFilesPerTrigger", "1");
        }
        assertThat(ids()).containsExactlyElementsOf(range(0, 12));
        assertThat(MemorySink.batches(table)).hasSize(12);
        List<String> state = keys("chk/sources/0/");
        // Ten log offsets after the last snapshot (none): the hot set was snapshotted at a commit, and the log
        // files it covers were deleted, the newest kept.
        assertThat(state).anyMatch(k -> k.matches("chk/sources/0/\\d+\\.hot"));
        assertThat(state).doesNotContain("chk/sources/0/0").contains("chk/sources/0/11");
        assertThat(get("chk/sources/0/11")).startsWith("v1\n{\"path\":\"s3a://" + bucket + "/in/11.json\"");
        for (String k : keys("chk/")) {
            String bytes = new String(S3TestSupport.bytes(client, bucket, k),
                    java.nio.charset.StandardCharsets.ISO_8859_1); // a snapshot is binary
            assertThat(bytes).as(k).doesNotContain("test-secret-do-not-show");
        }

        put("in/12.json", "{\"id\":12}\n");
        put("in/13.json", "{\"id\":13}\n");
        // A new engine: the state comes back from the S3 snapshot and the log after it.
        try (Sluice sluice = engine()) {
            run(sluice);
        }
        assertThat(ids()).containsExactlyElementsOf(range(0, 14));
        assertThat(MemorySink.batches(table)).hasSize(13);
        assertThat(get("chk/sources/0/12")).contains("/in/12.json").contains("/in/13.json");
        assertThat(get("chk/offsets/12")).contains("{\"logOffset\":12}");
    }

    @Test
    void cleanSourceKeepsItsMarkerOnTheS3Checkpoint() throws Exception {
        put("in/a.json", "{\"id\":1}\n");
        put("in/b.json", "{\"id\":2}\n");
        try (Sluice sluice = engine()) {
            run(sluice, "cleanSource", "archive", "sourceArchiveDir", "s3a://" + bucket + "/archive",
                    "maxFilesPerTrigger", "1");
        }
        put("in/c.json", "{\"id\":3}\n");
        try (Sluice sluice = engine()) {
            run(sluice, "cleanSource", "archive", "sourceArchiveDir", "s3a://" + bucket + "/archive");
        }
        assertThat(ids()).containsExactly(1L, 2L, 3L);
        assertThat(keys("archive/")).contains("archive/a.json", "archive/b.json");
        assertThat(keys("in/")).doesNotContain("in/a.json", "in/b.json");
        assertThat(get("chk/sources/0/cleanSource")).isIn("{\"logOffset\":1}", "{\"logOffset\":2}");
    }

    @Test
    void engineWideSettingsReachTheFileSinkAndTheSourcesOptionsWin() throws Exception {
        put("in/a.json", "{\"id\":7}\n");
        // Engine-wide, an endpoint where nothing listens; the source's own option wins over it.
        Sluice.Builder b = Sluice.builder().parallelism(2);
        S3TestSupport.conf().forEach(b::config);
        b.config("fs.s3a.endpoint", "http://127.0.0.1:1");
        try (Sluice sluice = b.build()) {
            StreamingQuery q = sluice.readStream().format("json").schema("id long")
                    .option("fs.s3a.endpoint", S3TestSupport.server().endpoint()).load("s3a://" + bucket + "/in")
                    .writeStream().format("json").option("path", "s3a://" + bucket + "/out")
                    .option("spark.hadoop.fs.s3a.endpoint", S3TestSupport.server().endpoint())
                    .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.availableNow())
                    .start();
            assertThat(q.awaitTermination(60_000)).isTrue();
            assertThat(q.exception()).isEmpty();
        }
        // Engine-wide settings only: the sink writes and a read of its output (through the manifest) gets them.
        try (Sluice sluice = engine()) {
            StreamingQuery q = sluice.readStream().format("json").schema("id long").load("s3a://" + bucket + "/in")
                    .writeStream().format("json").option("path", "s3a://" + bucket + "/out2")
                    .option("checkpointLocation", tmp.resolve("chk2").toString()).trigger(Trigger.availableNow())
                    .start();
            assertThat(q.awaitTermination(60_000)).isTrue();
            assertThat(q.exception()).isEmpty();
            List<Row> back = sluice.read().format("json").schema("id long").load("s3a://" + bucket + "/out2")
                    .collectAsList();
            assertThat(back).extracting(r -> r.getLong(0)).containsExactly(7L);
        }
        assertThat(keys("out/")).anyMatch(k -> k.startsWith("out/part-"));
        assertThat(keys("out2/_spark_metadata/")).contains("out2/_spark_metadata/0");
    }
}
