package io.sluice.files.fs;

import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.storage.MemoryStorage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The version tags an object store's file source keeps (to pin each read to the listed ETag) are those of the
 * files of the last listing still to be read or just read, not of every object ever listed: a prefix of 1.2 M
 * objects must not hold 1.2 M tags.
 */
class ObjectFileStorageTagsTest {

    private final MemoryStorage store = MemoryStorage.fresh();
    private final String table = "tags_" + System.nanoTime();
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    private void put(String key, String text) {
        store.put(key, text.getBytes(StandardCharsets.UTF_8));
    }

    private long tags() {
        return ObjectFileStorage.tagsHeld(store.uri("in/"));
    }

    @Test
    void aSeenFileListedAgainHoldsNoVersionTag() {
        for (int i = 0; i < 50; i++) {
            put("in/f" + (100 + i) + ".json", "{\"id\":" + i + "}\n");
        }
        try (Sluice sluice = Sluice.builder().clock(clock).parallelism(2).build()) {
            // One listing per trigger, and a trigger only when the clock moves.
            StreamingQuery q = sluice.readStream().format("json").schema("id long").load(store.uri("in"))
                    .writeStream().format("memory").queryName(table).trigger(Trigger.processingTime(1000)).start();
            await().until(() -> MemorySink.rows(table).size() == 50);
            assertThat(tags()).isEqualTo(50); // batch 0's files, read; not listed again yet
            for (int n = 1; n <= 3; n++) {
                put("in/f" + (200 + n) + ".json", "{\"id\":" + (49 + n) + "}\n");
                clock.advance(1000);
                int rows = 50 + n;
                await().until(() -> MemorySink.rows(table).size() == rows);
                // The listing found the earlier files seen and dropped their tags (before: 50 + n, growing).
                assertThat(tags()).isEqualTo(1);
            }
            q.stop();
        }
    }
}
