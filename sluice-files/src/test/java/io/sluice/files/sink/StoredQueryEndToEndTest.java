package io.sluice.files.sink;

import io.sluice.core.CheckpointLockedException;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.storage.MemoryStorage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A query whose checkpoint and file sink are both on an object store (the in-memory one). */
class StoredQueryEndToEndTest {

    private final ManualClock clock = new ManualClock(100_000);
    private final Sluice sluice = Sluice.builder().clock(clock).parallelism(2).build();
    private final MemoryStorage store = MemoryStorage.fresh();

    @AfterEach
    void tearDown() {
        sluice.close();
    }

    private StreamingQuery start() {
        return sluice.readStream().format("rate").option("rowsPerSecond", 2).option("numPartitions", 2).load()
                .writeStream().format("json").option("path", store.uri("out"))
                .option("checkpointLocation", store.uri("chk")).trigger(Trigger.processingTime(1000)).start();
    }

    /** The {@code value}s of every row in the files the manifest lists, in file order. */
    private List<Long> committedValues() {
        List<Long> values = new ArrayList<>();
        Pattern path = Pattern.compile("\"path\":\"([^\"]+)\"");
        Pattern value = Pattern.compile("\"value\":(\\d+)");
        for (String key : store.keys()) {
            if (!key.startsWith("out/_spark_metadata/")) {
                continue;
            }
            for (String line : new String(store.get(key), StandardCharsets.UTF_8).lines().skip(1).toList()) {
                Matcher m = path.matcher(line);
                assertThat(m.find()).isTrue();
                String data = m.group(1).substring(store.uri("").length());
                Matcher v = value.matcher(new String(store.get(data), StandardCharsets.UTF_8));
                while (v.find()) {
                    values.add(Long.parseLong(v.group(1)));
                }
            }
        }
        return values;
    }

    @Test
    void checkpointAndSinkOnTheStoreGiveEachRowOnceAcrossARestart() {
        StreamingQuery q = start();
        clock.advance(2_000);
        await().until(() -> committedValues().size() == 4);
        q.stop();
        assertThatThrownBy(() -> {
            StreamingQuery a = start();
            try {
                start();
            } finally {
                a.stop();
            }
        }).isInstanceOf(CheckpointLockedException.class).hasMessageContaining("is in use by another running query");

        clock.advance(1_000);
        StreamingQuery again = start();
        await().until(() -> committedValues().size() == 6);
        again.stop();
        assertThat(committedValues().stream().sorted().toList()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(store.keys()).contains("chk/metadata", "chk/offsets/0", "chk/commits/0", "chk/sources/0/0",
                "out/_spark_metadata/0");
    }
}
