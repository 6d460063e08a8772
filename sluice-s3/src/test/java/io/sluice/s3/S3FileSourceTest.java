package io.sluice.s3;

import io.sluice.api.Row;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Sluice;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The file source reading s3a:// (and s3://) objects on the real server, through the whole engine. */
class S3FileSourceTest {

    @TempDir
    Path tmp;
    private Sluice sluice;
    private S3Client client;
    private String bucket;
    private String table;

    @BeforeEach
    void setUp() {
        sluice = Sluice.builder().parallelism(2).build();
        client = S3TestSupport.client();
        bucket = S3TestSupport.newBucket("source");
        table = S3TestSupport.tableName("s3_");
    }

    @AfterEach
    void tearDown() {
        sluice.close();
        client.close();
    }

    private void put(String key, String content) {
        S3TestSupport.put(client, bucket, key, content);
    }

    private void putGzip(String key, String content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(content.getBytes(StandardCharsets.UTF_8));
        }
        client.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromBytes(bytes.toByteArray()));
    }

    private StreamingQuery start(String path, Trigger trigger, String... options) {
        var reader = sluice.readStream().format("json").schema("id long, name string");
        S3TestSupport.conf().forEach(reader::option);
        for (int i = 0; i < options.length; i += 2) {
            reader.option(options[i], options[i + 1]);
        }
        return reader.load(path).writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(trigger).start();
    }

    private void runAvailableNow(String path, String... options) throws Exception {
        StreamingQuery q = start(path, Trigger.availableNow(), options);
        assertThat(q.awaitTermination(60_000)).isTrue();
        assertThat(q.exception()).isEmpty();
    }

    private List<String> rows() {
        return MemorySink.rows(table).stream().map(Row::toString).sorted().toList();
    }

    @Test
    void readsObjectsWithPartitionFoldersHiddenNamesGzipAndMarkersAsOnDisk() throws Exception {
        put("in/day=2026-11-30/a.json", "{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b\"}\n");
        put("in/day=2026-12-01/b.json", "{\"id\":3,\"name\":\"c\"}\n");
        putGzip("in/day=2026-12-02/c.json.gz", "{\"id\":4,\"name\":\"d\"}\n");
        put("in/_SUCCESS", "");
        put("in/.hidden.json", "{\"id\":99}\n");
        put("in/_tmp/d.json", "{\"id\":98}\n");
        put("in/day=2026-12-03/", ""); // a directory marker: not a file
        sluice.close();
        sluice = Sluice.builder().parallelism(2).build();
        var reader = sluice.readStream().format("json").schema("id long, name string, day date");
        S3TestSupport.conf().forEach(reader::option);
        StreamingQuery q = reader.load("s3a://" + bucket + "/in").writeStream().format("memory")
                .queryName(table).option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start();
        assertThat(q.awaitTermination(60_000)).isTrue();
        assertThat(q.exception()).isEmpty();
        assertThat(rows()).containsExactly("[1,a,2026-11-30]", "[2,b,2026-11-30]", "[3,c,2026-12-01]", "[4,d,2026-12-02]");
        SourceProgress s = q.lastProgress().sources().get(0);
        assertThat(s.description()).isEqualTo("FileStreamSource[s3a://" + bucket + "/in]");
        assertThat(s.endOffset()).isEqualTo("{\"logOffset\":0}");
        assertThat(s.metrics()).containsEntry("numFilesTaken", "3");
        // One listing of one request: 6 keys (the hidden ones included; the directory marker is not an object).
        assertThat(s.metrics()).containsEntry("numListCalls", "1").containsEntry("numListRequests", "1")
                .containsEntry("numKeysListed", "6");
        String log = Files.readString(tmp.resolve("chk/sources/0/0"));
        assertThat(log).contains("{\"path\":\"s3a://" + bucket + "/in/day=2026-11-30/a.json\"")
                .contains("\"path\":\"s3a://" + bucket + "/in/day=2026-12-02/c.json.gz\"")
                .doesNotContain("hidden").doesNotContain("test-secret-do-not-show");
        assertThat(Files.readString(tmp.resolve("chk/offsets/0"))).doesNotContain("test-secret-do-not-show");
    }

    @Test
    void aRestartReadsOnlyNewObjectsAndCapsAndGlobsWork() throws Exception {
        for (int i = 0; i < 5; i++) {
            put("land/2026/" + i + ".json", "{\"id\":" + i + ",\"name\":\"n" + i + "\"}\n");
        }
        put("land/other/x.json", "{\"id\":50}\n");
        String path = "s3://" + bucket + "/land/20*/*.json";
        runAvailableNow(path, "maxFilesPerTrigger", "2");
        assertThat(rows()).containsExactly("[0,n0]", "[1,n1]", "[2,n2]", "[3,n3]", "[4,n4]");
        assertThat(MemorySink.batches(table)).containsOnlyKeys(0L, 1L, 2L);
        put("land/2026/5.json", "{\"id\":5,\"name\":\"n5\"}\n");
        runAvailableNow(path, "maxFilesPerTrigger", "2");
        assertThat(rows()).hasSize(6).contains("[5,n5]");
        assertThat(MemorySink.batches(table)).containsOnlyKeys(0L, 1L, 2L, 3L);
    }

    @Test
    void anObjectOverwrittenAfterListingIsNotReadWithNewBytes() throws Exception {
        put("ow/a.json", "{\"id\":1,\"name\":\"a\"}\n");
        put("ow/b.json", "{\"id\":2,\"name\":\"b\"}\n");
        // One file a trigger: b.json is listed (its ETag kept) in the first trigger and read in the second.
        StreamingQuery q = start("s3a://" + bucket + "/ow", Trigger.processingTime(0), "maxFilesPerTrigger", "1",
                "maxFileAge", "7d");
        q.processAllAvailable();
        q.stop();
        assertThat(rows()).containsExactly("[1,a]", "[2,b]");

        // Overwritten in place after it was read: reported as on disk, not read again.
        put("ow/a.json", "{\"id\":10,\"name\":\"changed\"}\n{\"id\":11,\"name\":\"more\"}\n");
        put("ow/c.json", "{\"id\":3,\"name\":\"c\"}\n");
        StreamingQuery again = start("s3a://" + bucket + "/ow", Trigger.processingTime(0));
        again.processAllAvailable();
        assertThat(again.lastProgress().sources().get(0).metrics()).containsEntry("numFilesChangedAfterRead", "1");
        again.stop();
        assertThat(rows()).containsExactly("[1,a]", "[2,b]", "[3,c]");
    }

    @Test
    void aReadPinnedToTheListedEtagFailsOnAnObjectReplacedBeforeItIsRead() throws Exception {
        io.sluice.files.fs.FileStorage fs = io.sluice.files.fs.ObjectFileStorage.forPath("path",
                "s3a://" + bucket + "/pin", S3TestSupport.conf());
        try {
            put("pin/a.json", "{\"id\":1}\n");
            List<io.sluice.files.fs.FileStatus> listed = new java.util.ArrayList<>();
            fs.walk(fs.path("s3a://" + bucket + "/pin"), n -> true, listed::add);
            assertThat(listed).extracting(st -> fs.uri(st.path())).containsExactly("s3a://" + bucket + "/pin/a.json");
            put("pin/a.json", "{\"id\":2}\n");
            assertThatThrownBy(() -> fs.open(listed.get(0).path()).readAllBytes())
                    .isInstanceOf(io.sluice.api.io.VersionChangedException.class)
                    .hasMessageContaining("s3a://" + bucket + "/pin/a.json was modified after it was listed");
        } finally {
            io.sluice.files.fs.ObjectFileStorage.closeQuietly(fs);
        }
    }

    @Test
    void cleanSourceArchivesToS3AndToDiskAndDeletes() throws Exception {
        put("cl/a.json", "{\"id\":1,\"name\":\"a\"}\n");
        put("cl/sub/b.json", "{\"id\":2,\"name\":\"b\"}\n");
        runAvailableNow("s3a://" + bucket + "/cl", "cleanSource", "archive", "sourceArchiveDir",
                "s3a://" + bucket + "/archive");
        assertThat(rows()).containsExactly("[1,a]", "[2,b]");
        // Files are cleaned once their batch has committed: on the next batch's start, or at the next run.
        put("cl/c.json", "{\"id\":3,\"name\":\"c\"}\n");
        runAvailableNow("s3a://" + bucket + "/cl", "cleanSource", "archive", "sourceArchiveDir",
                "s3a://" + bucket + "/archive");
        // As on disk: the path relative to the source's folder, under the archive folder.
        assertThat(keys("archive/")).contains("archive/a.json", "archive/sub/b.json");
        assertThat(keys("cl/")).doesNotContain("cl/a.json", "cl/sub/b.json");

        Path disk = tmp.resolve("disk-archive");
        put("dl/a.json", "{\"id\":4,\"name\":\"d\"}\n");
        put("dl/b.json", "{\"id\":5,\"name\":\"e\"}\n");
        table = table + "_2";
        Files.createDirectories(tmp.resolve("chk2"));
        var reader = sluice.readStream().format("json").schema("id long, name string");
        S3TestSupport.conf().forEach(reader::option);
        for (int run = 0; run < 2; run++) {
            StreamingQuery q = reader.option("cleanSource", "archive").option("sourceArchiveDir", disk.toString())
                    .option("maxFilesPerTrigger", "1").load("s3a://" + bucket + "/dl").writeStream()
                    .format("memory").queryName(table).option("checkpointLocation", tmp.resolve("chk2").toString())
                    .trigger(Trigger.availableNow()).start();
            assertThat(q.awaitTermination(60_000)).isTrue();
            assertThat(q.exception()).isEmpty();
        }
        assertThat(disk.resolve("a.json")).hasContent("{\"id\":4,\"name\":\"d\"}");
        assertThat(keys("dl/")).doesNotContain("dl/a.json");
    }

    private List<String> keys(String prefix) {
        return S3TestSupport.keys(client, bucket, prefix);
    }

    @Test
    void aMissingBucketFailsBeforeTheQueryStartsNamingItWithoutSecrets() {
        assertThatThrownBy(() -> start("s3a://no-such-bucket-for-source/in", Trigger.availableNow()))
                .hasMessageContaining("the bucket 'no-such-bucket-for-source' does not exist")
                .hasMessageContaining("credentials from fs.s3a.access.key")
                .hasMessageNotContaining("test-secret-do-not-show");
    }

    @Test
    void badS3SettingsAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> start("s3a://" + bucket + "/in", Trigger.availableNow(),
                "fs.s3a.attempts.maximum", "0"))
                .hasMessageContaining("fs.s3a.attempts.maximum").hasMessageContaining("an integer of at least 1");
        Map<String, String> none = Map.of();
        assertThat(none).isEmpty();
    }
}
