package io.sluice.files.fs;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.storage.MemoryStorage;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An object store's look-ups (a request each) are sent several at a time, and a query does not check files its
 * listing has just seen: an availableNow query over 100 objects used to wait for 100 status requests one after
 * another before its first batch (4.5 s of a 6.5 s batch on a local Ceph RGW).
 */
class ObjectFileStorageLookupsTest {

    private final MemoryStorage store = MemoryStorage.fresh();

    private void put(String key) {
        store.put(key, ("{\"k\":\"" + key + "\"}\n").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void existingLooksUpSixteenPathsAtOnceAndAnswersInTheirOrder() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            keys.add("in/f" + (100 + i) + ".json");
            if (i % 3 != 1) {
                put(keys.get(i));
            }
        }
        // Each look-up waits until 16 are under way: one after another, the first would wait forever (and fail).
        CyclicBarrier sixteen = new CyclicBarrier(ObjectFileStorage.LOOKUPS);
        store.beforeStatus(() -> {
            try {
                sixteen.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new IOException("the look-ups did not meet: " + e, e);
            }
        });
        FileStorage fs = ObjectFileStorage.forPath("path", store.uri("in/"), Map.of());
        try {
            List<Path> paths = keys.stream().map(k -> fs.path(store.uri(k))).toList();
            boolean[] exists = fs.existing(paths);
            for (int i = 0; i < keys.size(); i++) {
                assertThat(exists[i]).as(keys.get(i)).isEqualTo(i % 3 != 1);
            }
            assertThat(sixteen.isBroken()).isFalse();
            assertThat(keys).allSatisfy(k -> assertThat(store.statusCalls(k)).isEqualTo(1));
        } finally {
            ObjectFileStorage.closeQuietly(fs);
        }
        assertThatThrownBy(() -> fs.existing(List.of(fs.path(store.uri("in/a")), fs.path(store.uri("in/b")))))
                .isInstanceOf(IllegalStateException.class).hasMessageEndingWith(" is closed");
    }

    @Test
    void aLookUpThatFailsCountsAsExisting() {
        put("in/a.json");
        store.beforeStatus(() -> {
            throw new IOException("503 Slow Down");
        });
        FileStorage fs = ObjectFileStorage.forPath("path", store.uri("in/"), Map.of());
        try {
            boolean[] exists = fs.existing(List.of(fs.path(store.uri("in/a.json")), fs.path(store.uri("in/gone"))));
            assertThat(exists).containsExactly(true, true);
        } finally {
            ObjectFileStorage.closeQuietly(fs);
        }
    }

    @Test
    void anAvailableNowQueryChecksOnlyTheFilesOfItsLaterBatchesOnce() throws Exception {
        for (int i = 0; i < 50; i++) {
            put("in/f" + (100 + i) + ".json");
        }
        String table = "lookups_" + System.nanoTime();
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            StreamingQuery q = sluice.readStream().format("json").schema("k string").option("maxFilesPerTrigger", 20)
                    .load(store.uri("in")).writeStream().format("memory").queryName(table)
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            assertThat(q.exception()).isEmpty();
            assertThat(MemorySink.rows(table)).hasSize(50);
            assertThat(q.recentProgress()).extracting(p -> p.numInputRows()).containsExactly(20L, 20L, 10L);
        }
        // Batch 0 takes what the listing at start has just seen: no look-up. Batches 1 and 2 take files listed
        // batches ago, each checked once before it is logged.
        for (int i = 0; i < 50; i++) {
            String key = "in/f" + (100 + i) + ".json";
            assertThat(store.statusCalls(key)).as(key).isEqualTo(i < 20 ? 0 : 1);
        }
    }
}
