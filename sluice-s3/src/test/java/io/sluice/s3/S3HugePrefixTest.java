package io.sluice.s3;

import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Sluice;
import io.sluice.core.Trigger;
import io.sluice.s3.server.BucketSeed;
import io.sluice.s3.server.LocalS3Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mission's "huge directories": a prefix of 100,000 objects on the real server. The first trigger plans
 * within a bounded time, logs every object exactly once, and lists the prefix with ceil(100,000 / 1,000) = 100
 * ListObjectsV2 requests; a second trigger with useIncrementalListing lists only the key written after it.
 * The objects are written straight into the folder of a server of this test's own, in S3Mock's layout, before it
 * starts ({@link BucketSeed}). Pages of 1,000 keys ({@code fs.s3a.paging.maximum} 1000): what AWS S3 returns, which
 * S3Mock would exceed with the default 5,000.
 *
 * <p>The default build runs it with 2,000 objects (2 requests): S3Mock makes 100,000 too slow for CI: its time per
 * page grows with the bucket's size (about 2 s a page at 10,000 objects on a loaded machine), so the whole listing
 * grows about with the square of the objects (100,000: 243 s measured, against 100 requests).
 * {@code -Dsluice.s3.hugePrefix.objects=100000} runs the mission's figure, with the bound
 * {@code -Dsluice.s3.hugePrefix.boundMs} (default 120 s).
 */
class S3HugePrefixTest {
    private static final int OBJECTS = Integer.getInteger("sluice.s3.hugePrefix.objects", 2_000);
    /** A generous bound for a loaded CI machine; the figure measured is printed. */
    private static final long FIRST_TRIGGER_BOUND_MS = Long.getLong("sluice.s3.hugePrefix.boundMs", 120_000);

    @TempDir
    Path tmp;

    @Test
    @org.junit.jupiter.api.Timeout(value = 60, unit = TimeUnit.MINUTES) // for the 100,000-object run
    void aHugePrefixIsPlannedInOneBoundedFirstTriggerWithOneListRequestPerThousandKeys() throws Exception {
        String bucket = "huge";
        long t0 = System.nanoTime();
        writeBucket(tmp.resolve("s3"), bucket, OBJECTS);
        long putMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        try (LocalS3Server server = LocalS3Server.builder(tmp.resolve("s3")).start();
             Sluice sluice = Sluice.builder().parallelism(2).build()) {
            var reader = sluice.readStream().format("text");
            S3TestSupport.conf(server.endpoint()).forEach(reader::option);
            reader.option(S3Options.PAGING_MAXIMUM, "1000");
            // maxFilesPerTrigger 1: the first trigger lists and logs the whole prefix's offsets but reads one
            // object, so its time is the listing's and the planning's (reading 100,000 objects is not the point).
            StreamingQuery q = reader.option("useIncrementalListing", "true").option("maxFilesPerTrigger", "1")
                    .option("maxCachedFiles", "0").load("s3a://" + bucket + "/landing")
                    .writeStream().format("noop").option("checkpointLocation", tmp.resolve("chk").toString())
                    .trigger(Trigger.processingTime(3_600_000)).start();
            try {
                long started = System.nanoTime();
                org.awaitility.Awaitility.await().atMost(FIRST_TRIGGER_BOUND_MS, TimeUnit.MILLISECONDS)
                        .until(() -> q.exception().isPresent() || !q.recentProgress().isEmpty());
                long firstMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertThat(q.exception()).isEmpty();
                SourceProgress s = q.lastProgress().sources().get(0);
                System.out.printf("S3HugePrefixTest: %d objects written in %d ms; first trigger %d ms (%s)%n",
                        OBJECTS, putMs, firstMs, s.metrics());
                assertThat(s.metrics()).containsEntry("numListCalls", "1")
                        .containsEntry("numListRequests", Long.toString((OBJECTS + 999) / 1000))
                        .containsEntry("numKeysListed", Integer.toString(OBJECTS))
                        .containsEntry("numFilesTaken", "1")
                        .containsEntry("numFilesOutstanding", Integer.toString(OBJECTS - 1));
                assertThat(firstMs).isLessThan(FIRST_TRIGGER_BOUND_MS);
            } finally {
                q.stop();
            }
            assertThat(Files.readString(tmp.resolve("chk/sources/0/0"))).contains("/landing/k000000000.txt");
        }
    }

    /** A bucket of {@code n} objects {@code landing/kNNNNNNNNN.txt}, each holding its key and a new line. */
    static void writeBucket(Path dataDir, String bucket, int n) throws Exception {
        Map<String, byte[]> objects = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String key = String.format("landing/k%09d.txt", i);
            objects.put(key, (key + "\n").getBytes(StandardCharsets.UTF_8));
        }
        BucketSeed.write(dataDir, bucket, objects);
    }
}
