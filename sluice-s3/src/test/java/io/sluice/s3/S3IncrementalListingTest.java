package io.sluice.s3;

import io.sluice.api.Row;
import io.sluice.core.ManualClock;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Sluice;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * useIncrementalListing on the real server: each trigger lists from the last key seen (ListObjectsV2 StartAfter),
 * a full listing comes every backfillInterval of the engine's clock, and a key that sorts before the position is
 * found only then. Triggers are driven by a manual clock, one at a time, so files per batch and listing counts
 * are exact.
 */
class S3IncrementalListingTest {
    private static final long T = 1_780_000_000_000L;
    private static final long HOUR = 3_600_000L;

    @TempDir
    Path tmp;
    private final ManualClock clock = new ManualClock(T);
    private Sluice sluice;
    private S3Client client;
    private String bucket;
    private String table;
    private StreamingQuery query;
    private int triggers;

    @BeforeEach
    void setUp() {
        sluice = Sluice.builder().clock(clock).parallelism(2).build();
        client = S3TestSupport.client();
        bucket = S3TestSupport.newBucket("incr");
        table = S3TestSupport.tableName("incr_");
    }

    @AfterEach
    void tearDown() {
        if (query != null) {
            query.stop();
        }
        sluice.close();
        client.close();
    }

    private void put(String key, int id) {
        S3TestSupport.put(client, bucket, key, "{\"id\":" + id + "}\n");
    }

    private void start(String path, String... options) {
        var reader = sluice.readStream().format("json").schema("id long");
        S3TestSupport.conf().forEach(reader::option);
        for (int i = 0; i < options.length; i += 2) {
            reader.option(options[i], options[i + 1]);
        }
        query = reader.load(path).writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.processingTime(1000))
                .start();
        awaitTrigger();
    }

    /** Runs the next trigger (the first one runs at start): advances the clock by {@code ms} and waits for it. */
    private SourceProgress next(long ms) {
        clock.advance(ms);
        awaitTrigger();
        return query.lastProgress().sources().get(0);
    }

    private void awaitTrigger() {
        S3TestSupport.awaitTrigger(query, clock, ++triggers);
    }

    /** The ids of each batch, by batch id. */
    private Map<Long, List<Long>> batches() {
        return S3TestSupport.idsByBatch(table);
    }

    private static Map<String, String> listing(SourceProgress s) {
        return Map.of("numListRequests", s.metrics().get("numListRequests"),
                "numKeysListed", s.metrics().get("numKeysListed"),
                "numFullListings", s.metrics().get("numFullListings"));
    }

    @Test
    void eachTriggerListsFromTheLastKeyAndAStragglerIsFoundAtTheNextFullListing() {
        put("in/2026-12-01/a.json", 1);
        put("in/2026-12-01/b.json", 2);
        start("s3a://" + bucket + "/in", "useIncrementalListing", "true", "backfillInterval", "1h");
        SourceProgress first = query.lastProgress().sources().get(0);
        assertThat(listing(first)).isEqualTo(Map.of("numListRequests", "1", "numKeysListed", "2",
                "numFullListings", "1"));

        put("in/2026-12-02/c.json", 3);
        // Only the key after b.json is listed.
        assertThat(listing(next(1000))).isEqualTo(Map.of("numListRequests", "1", "numKeysListed", "1",
                "numFullListings", "1"));

        put("in/2026-11-30/late.json", 4); // sorts before the position: a straggler
        put("in/2026-12-02/d.json", 5);
        assertThat(listing(next(1000))).isEqualTo(Map.of("numListRequests", "1", "numKeysListed", "1",
                "numFullListings", "1"));

        put("in/2026-12-03/e.json", 6);
        // backfillInterval after the first full listing: a full listing finds the straggler.
        assertThat(listing(next(HOUR))).isEqualTo(Map.of("numListRequests", "1", "numKeysListed", "6",
                "numFullListings", "2"));

        put("in/2026-12-03/f.json", 7);
        assertThat(listing(next(1000))).isEqualTo(Map.of("numListRequests", "1", "numKeysListed", "1",
                "numFullListings", "2"));
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(1L, 2L), 1L, List.of(3L), 2L, List.of(5L),
                3L, List.of(4L, 6L), 4L, List.of(7L)));
    }

    @Test
    void withoutTheOptionEveryTriggerListsThePrefixWhole() {
        put("in/a.json", 1);
        put("in/b.json", 2);
        start("s3a://" + bucket + "/in");
        put("in/c.json", 3);
        SourceProgress s = next(1000);
        assertThat(s.metrics()).containsEntry("numKeysListed", "3").doesNotContainKey("numFullListings");
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(1L, 2L), 1L, List.of(3L)));
    }

    /**
     * A capped query that lists at every trigger (maxCachedFiles=0): the position never passes a new file not yet
     * taken, so each listing starts after the last file taken and nothing is skipped.
     */
    @Test
    void thePositionNeverPassesAFileLeftForALaterBatch() {
        put("in/a.json", 1);
        put("in/b.json", 2);
        put("in/c.json", 3);
        start("s3a://" + bucket + "/in", "useIncrementalListing", "true", "maxFilesPerTrigger", "1",
                "maxCachedFiles", "0");
        assertThat(query.lastProgress().sources().get(0).metrics()).containsEntry("numKeysListed", "3");
        assertThat(next(1000).metrics()).containsEntry("numKeysListed", "2");
        assertThat(next(1000).metrics()).containsEntry("numKeysListed", "1");
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(1L), 1L, List.of(2L), 2L, List.of(3L)));
    }

    /**
     * A glob is listed as one flat listing of its fixed prefix, matched key by key: keys of folders the glob does
     * not match are listed (and counted) but not read, and partition values are read from the key.
     */
    @Test
    void aGlobWithPartitionFoldersListsItsPrefixFromTheLastKey() {
        put("ev/day=2026-12-01/a.json", 1);
        put("ev/other/x.json", 99);
        put("ev/day=2026-12-02/_tmp.json", 98);
        sluice.close();
        sluice = Sluice.builder().clock(clock).parallelism(2).build();
        var reader = sluice.readStream().format("json").schema("id long, day date");
        S3TestSupport.conf().forEach(reader::option);
        query = reader.option("useIncrementalListing", "true").load("s3a://" + bucket + "/ev/day=*")
                .writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.processingTime(1000))
                .start();
        awaitTrigger();
        assertThat(query.lastProgress().sources().get(0).metrics()).containsEntry("numKeysListed", "3");
        put("ev/day=2026-12-02/b.json", 2);
        SourceProgress s = next(1000);
        // After day=2026-12-01/a.json: _tmp.json (hidden), b.json and other/x.json (outside the glob).
        assertThat(s.metrics()).containsEntry("numKeysListed", "3").containsEntry("numFilesTaken", "2");
        assertThat(MemorySink.rows(table).stream().map(Row::toString).sorted().toList())
                .containsExactly("[1,2026-12-01]", "[2,2026-12-02]");
    }
}
