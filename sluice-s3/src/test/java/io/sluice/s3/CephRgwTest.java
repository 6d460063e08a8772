package io.sluice.s3;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.VersionChangedException;
import io.sluice.api.io.WholeObjectOutput;
import io.sluice.core.CheckpointLockedException;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the S3 tests check on S3Mock, again on a real Ceph RGW (Ceph 16, {@link SharedCephRgw}), a production S3
 * implementation that evaluates conditional writes itself: {@link S3Storage}'s contract (as in S3StorageTest), the
 * conditional-writes probe a checkpoint is opened with, and one query end to end (as in S3CheckpointAndSinkTest).
 * Without Ceph it is skipped, saying what is missing, except under the environment variable {@code CI=true}, where
 * it fails (.ci/run installs Ceph). {@code -Dsluice.ceph.path=DIRS} looks for Ceph's tools there instead of PATH.
 */
class CephRgwTest {

    /** Why there is no Ceph here, or null: set once by {@link #cluster}. */
    private static String noCeph;
    private static String bucket;
    private static Storage s;

    @BeforeAll
    static void cluster() throws IOException {
        noCeph = SharedCephRgw.missingCeph();
        if (noCeph != null) {
            return;
        }
        bucket = SharedCephRgw.newBucket("storage");
        s = Storages.of("s3a://" + bucket + "/", SharedCephRgw.conf());
    }

    @BeforeEach
    void needsCeph() {
        // Each test is aborted rather than the class in cluster(): surefire reports a class aborted in @BeforeAll
        // as "Tests run: 0", without the reason; aborted tests show as skipped, with it.
        Assumptions.assumeTrue(noCeph == null, () -> noCeph);
    }

    @AfterAll
    static void tearDown() throws IOException {
        if (s != null) {
            s.close();
        }
    }

    private static byte[] b(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String uri(String key) {
        return "s3a://" + bucket + "/" + key;
    }

    @Test
    void aSecondExclusiveCreateAndAStaleReplaceAreRefusedByTheGateway() throws IOException {
        assertThat(s.createExclusive(uri("cas/0"), b("one"))).isTrue();
        assertThat(s.createExclusive(uri("cas/0"), b("two"))).isFalse();
        assertThat(s.readAll(uri("cas/0"), 10)).isEqualTo(b("one"));
        String tag = s.status(uri("cas/0")).orElseThrow().versionTag();
        assertThat(s.replaceIfVersion(uri("cas/0"), b("three"), "\"wrong\"")).isEmpty();
        Optional<String> next = s.replaceIfVersion(uri("cas/0"), b("four"), tag);
        assertThat(next).isPresent().get().isNotEqualTo(tag);
        assertThat(s.readAll(uri("cas/0"), 10)).isEqualTo(b("four"));
        assertThat(s.replaceIfVersion(uri("cas/0"), b("five"), tag)).isEmpty(); // the tag seen before four
        assertThat(s.readAll(uri("cas/0"), 10)).isEqualTo(b("four"));
        assertThat(s.status(uri("cas/0")).orElseThrow().versionTag()).isEqualTo(next.get());
    }

    @Test
    void anExclusiveSinglePutOverAnObjectIsRefused() throws IOException {
        WholeObjectOutput small = s.create(uri("small/a"), false);
        small.write(b("hello"));
        assertThat(s.status(uri("small/a"))).isEmpty();
        small.close();
        WholeObjectOutput again = s.create(uri("small/a"), false);
        again.write(b("other"));
        assertThatThrownBy(again::close).isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
        assertThat(s.readAll(uri("small/a"), 10)).isEqualTo(b("hello"));
    }

    @Test
    void theConditionalWritesProbeOfACheckpointPassesAndLeavesNothing() throws IOException {
        assertThat(s.probeConditionalWrites(uri("probe/"))).isEmpty();
        assertThat(s.list(uri("probe/"))).isEmpty();
    }

    @Test
    void aMultipartOutputIsVisibleOnlyAtCloseAndAnAbortedOneNever() throws IOException {
        byte[] big = new byte[S3Storage.PART_SIZE + 1024 * 1024 + 7]; // two parts, the first of 8 MiB
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i % 251);
        }
        WholeObjectOutput multi = s.create(uri("out/big"), false);
        multi.write(big);
        assertThat(s.status(uri("out/big"))).isEmpty(); // a part uploaded, nothing visible
        assertThat(s.list(uri("out/"))).isEmpty();
        multi.close();
        assertThat(s.status(uri("out/big")).orElseThrow().size()).isEqualTo(big.length);
        assertThat(s.readAll(uri("out/big"), big.length)).isEqualTo(big);

        // Not checked here: an exclusive multipart output over an existing object. Ceph 16 ignores If-None-Match
        // on CompleteMultipartUpload and overwrites it (docs/object-stores.md says so); single PUTs it refuses.

        WholeObjectOutput aborted = s.create(uri("out/aborted"), false);
        aborted.write(big);
        aborted.abort();
        aborted.close();
        assertThat(s.status(uri("out/aborted"))).isEmpty();
    }

    @Test
    void aReadPinnedToAnETagFailsOnceTheObjectIsOverwritten() throws IOException {
        assertThat(s.createExclusive(uri("pin/a"), b("0123456789"))).isTrue();
        StoredObject seen = s.status(uri("pin/a")).orElseThrow();
        try (InputStream in = s.open(uri("pin/a"), 2, 3, seen.versionTag())) {
            assertThat(in.readAllBytes()).isEqualTo(b("234"));
        }
        try (S3Client c = SharedCephRgw.client()) { // overwritten by another writer, unconditionally
            c.putObject(p -> p.bucket(bucket).key("pin/a"), RequestBody.fromString("overwritten"));
        }
        assertThatThrownBy(() -> s.open(uri("pin/a"), seen.versionTag()))
                .isInstanceOf(VersionChangedException.class)
                .hasMessageContaining(uri("pin/a") + " was modified after it was listed");
        assertThatThrownBy(() -> s.open(uri("pin/a"), 2, 3, seen.versionTag()))
                .isInstanceOf(VersionChangedException.class);
    }

    @Test
    void listingsComeInTheGatewaysPagesOf1000AfterStartAfterWithoutDirectoryMarkers() throws Exception {
        int n = 2100;
        try (S3Client c = SharedCephRgw.client()) {
            ExecutorService pool = Executors.newFixedThreadPool(16);
            try {
                List<Future<?>> puts = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String key = String.format("many/%05d.json", i);
                    puts.add(pool.submit(() -> c.putObject(p -> p.bucket(bucket).key(key),
                            RequestBody.fromString("{}"))));
                }
                for (Future<?> f : puts) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            // One byte, not the usual none: Ceph 16 answers an empty PUT from this SDK and HTTP client with
            // 400 XAmzContentSHA256Mismatch. The key's trailing / is what makes it a marker to S3Storage.
            c.putObject(p -> p.bucket(bucket).key("many/dir/"), RequestBody.fromString("x"));
        }
        S3Storage raw = (S3Storage) s;
        long requests = raw.listRequests();
        long keys = raw.keysListed();
        long scanned = raw.pagesScanned();
        List<StoredObject> all = s.list(uri("many/"));
        // 2,101 keys, the marker included: fs.s3a.paging.maximum's default asks 5,000 a page, RGW answers 1,000.
        assertThat(raw.listRequests() - requests).isEqualTo(3);
        assertThat(raw.pagesScanned() - scanned).isEqualTo(3); // RGW's bodies read by S3ListingParser
        assertThat(raw.keysListed() - keys).isEqualTo(n + 1);
        assertThat(all).extracting(StoredObject::name)
                .containsExactlyElementsOf(IntStream.range(0, n).mapToObj(i -> String.format("%05d.json", i)).toList());
        assertThat(all).extracting(StoredObject::size).containsOnly(2L);

        List<String> after = new ArrayList<>();
        requests = raw.listRequests();
        s.list(uri("many/"), uri("many/01099.json"), o -> after.add(o.name()));
        assertThat(after).containsExactlyElementsOf(
                IntStream.range(1100, n).mapToObj(i -> String.format("%05d.json", i)).toList()); // not many/dir/
        assertThat(raw.listRequests() - requests).isEqualTo(2); // 1,001 keys after 01099.json
        List<String> tail = new ArrayList<>();
        s.list(uri("many/"), uri("many/02097.json"), o -> tail.add(o.name()));
        assertThat(tail).containsExactly("02098.json", "02099.json");
        assertThat(s.status(uri("many/dir/"))).isEmpty();
    }

    @Test
    void keysWithEscapedCharactersAreListedExactlyAsTheSdksOwnListingGivesThem() throws IOException {
        List<StoredObject> expected = new ArrayList<>();
        try (S3Client c = SharedCephRgw.client()) {
            for (String key : S3StorageTest.ODD_KEYS) {
                c.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString(key));
            }
            for (var o : c.listObjectsV2(l -> l.bucket(bucket).prefix("odd/")).contents()) {
                if (!o.key().endsWith("/")) {
                    expected.add(new StoredObject(uri(o.key()), o.size(), o.lastModified().toEpochMilli(), o.eTag()));
                }
            }
        }
        assertThat(expected).extracting(StoredObject::uri).containsExactlyInAnyOrderElementsOf(
                S3StorageTest.ODD_KEYS.stream().filter(k -> !k.endsWith("/")).map(CephRgwTest::uri).toList());
        S3Storage raw = (S3Storage) s;
        long scanned = raw.pagesScanned();
        assertThat(s.list(uri("odd/"))).isEqualTo(expected);
        assertThat(raw.pagesScanned() - scanned).isEqualTo(1);
    }

    /**
     * JSON objects on the gateway, read by the file source into a JSON file sink on the gateway with the checkpoint
     * there too (its conditional-writes probe, lease, logs and commits all on RGW): each row once across a restart,
     * then a second query on the running one's checkpoint is refused by the lease.
     */
    @Test
    void aQueryFromJsonOnRgwToFilesOnRgwResumesFromItsCheckpointThereAndHoldsItsLease() throws Exception {
        String e2e = SharedCephRgw.newBucket("e2e");
        ManualClock clock = new ManualClock(100_000);
        Sluice.Builder builder = Sluice.builder().clock(clock).parallelism(2);
        SharedCephRgw.conf().forEach((k, v) -> builder.config("spark.hadoop." + k, v)); // engine-wide, as --conf
        try (Sluice sluice = builder.build(); S3Client c = SharedCephRgw.client()) {
            S3TestSupport.put(c, e2e, "in/a.json", "{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b\"}\n");
            S3TestSupport.put(c, e2e, "in/b.json", "{\"id\":3,\"name\":\"c\"}\n");
            StreamingQuery first = start(sluice, e2e, Trigger.availableNow());
            assertThat(first.awaitTermination(60_000)).isTrue();
            assertThat(first.exception()).isEmpty();
            assertThat(committedRows(c, e2e)).containsExactly(
                    "{\"id\":1,\"name\":\"a\"}", "{\"id\":2,\"name\":\"b\"}", "{\"id\":3,\"name\":\"c\"}");

            S3TestSupport.put(c, e2e, "in/c.json", "{\"id\":4,\"name\":\"d\"}\n{\"id\":5,\"name\":\"e\"}\n");
            StreamingQuery second = start(sluice, e2e, Trigger.availableNow());
            assertThat(second.awaitTermination(60_000)).isTrue();
            assertThat(second.exception()).isEmpty();
            assertThat(second.recentProgress()).extracting(p -> p.numInputRows()).containsExactly(2L);
            assertThat(committedRows(c, e2e)).containsExactly(
                    "{\"id\":1,\"name\":\"a\"}", "{\"id\":2,\"name\":\"b\"}", "{\"id\":3,\"name\":\"c\"}",
                    "{\"id\":4,\"name\":\"d\"}", "{\"id\":5,\"name\":\"e\"}");
            List<String> keys = S3TestSupport.keys(c, e2e);
            assertThat(keys).contains("chk/metadata", "chk/offsets/0", "chk/commits/0", "chk/offsets/1",
                    "chk/commits/1", "chk/sources/0/0", "chk/.lease", "out/_spark_metadata/0",
                    "out/_spark_metadata/1");
            assertThat(keys).noneMatch(k -> k.contains(".sluice-probe-"));

            StreamingQuery running = start(sluice, e2e, Trigger.processingTime(1000)); // waits on the clock
            try {
                assertThatThrownBy(() -> start(sluice, e2e, Trigger.processingTime(1000)))
                        .isInstanceOf(CheckpointLockedException.class)
                        .hasMessageStartingWith("Checkpoint s3a://" + e2e + "/chk is in use by another running "
                                + "query (lease s3a://" + e2e + "/chk/.lease held by owner ");
            } finally {
                running.stop();
            }
            assertThat(running.exception()).isEmpty();
        }
    }

    private static StreamingQuery start(Sluice sluice, String bucket, Trigger trigger) {
        return sluice.readStream().format("json").schema("id long, name string").load("s3a://" + bucket + "/in")
                .writeStream().format("json").option("path", "s3a://" + bucket + "/out")
                .option("checkpointLocation", "s3a://" + bucket + "/chk").trigger(trigger).start();
    }

    /** The lines of the files the sink's manifest lists, sorted. */
    private static List<String> committedRows(S3Client c, String bucket) {
        List<String> rows = new ArrayList<>();
        Pattern path = Pattern.compile("\"path\":\"s3a?://" + Pattern.quote(bucket) + "/([^\"]+)\"");
        for (String key : S3TestSupport.keys(c, bucket, "out/_spark_metadata/")) {
            Matcher m = path.matcher(S3TestSupport.get(c, bucket, key));
            while (m.find()) {
                S3TestSupport.get(c, bucket, m.group(1)).lines().filter(l -> !l.isEmpty()).forEach(rows::add);
            }
        }
        rows.sort(null);
        return rows;
    }
}
