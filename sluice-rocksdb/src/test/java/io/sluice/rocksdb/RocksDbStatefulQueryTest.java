package io.sluice.rocksdb;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.window;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stateful helper's queries (StatefulQueryTest's windowed count and dedup) run on the RocksDB store, chosen by
 * Spark's provider class name: the same rows per batch, its files in the checkpoint, and a restart.
 */
class RocksDbStatefulQueryTest {
    @TempDir
    Path tmp;
    private Sluice sluice = rocks();
    private final MemoryStream input = MemoryStream.create(StructType.fromDDL("id string, ts timestamp, amount long"));
    private final String table = "r" + UUID.randomUUID().toString().replace("-", "");

    private static Sluice rocks() {
        return Sluice.builder().parallelism(2)
                .config("spark.sql.streaming.stateStore.providerClass", RocksDbStateStoreProvider.SPARK_NAME)
                .build();
    }

    @AfterEach
    void tearDown() {
        input.unregister();
        sluice.close();
        MemorySink.clear(table);
    }

    private static Instant t(int seconds) {
        return Instant.parse("2026-01-01T10:00:00Z").plusSeconds(seconds);
    }

    private static Row ev(String id, int second) {
        return Row.of(id, t(second), 1L);
    }

    private static Row win(int start, int end, long count) {
        return Row.of(Row.of(t(start), t(end)), count);
    }

    private StreamFrame stream() {
        return sluice.readStream().format("memory").option("name", input.name()).load();
    }

    private StreamingQuery start(StreamFrame frame, String mode) {
        return frame.writeStream().format("memory").queryName(table).outputMode(mode)
                .option("checkpointLocation", tmp.resolve("chk").toString()).start();
    }

    private void add(StreamingQuery q, Row... rows) throws Exception {
        input.addData(rows);
        q.processAllAvailable();
    }

    private Map<Long, List<Row>> batches() {
        Map<Long, List<Row>> out = new TreeMap<>();
        MemorySink.batches(table).forEach((k, v) -> {
            List<Row> copy = new ArrayList<>(v);
            copy.sort(Comparator.comparing(Row::toString));
            out.put(k, copy);
        });
        return out;
    }

    private StreamFrame windowedCount() {
        return stream().withWatermark("ts", "10 seconds").groupBy(window(col("ts"), "10 seconds")).count();
    }

    @Test
    void appendWindowedCountGivesTheSameBatchesOnRocksDbAndWritesZipsAndSsts() throws Exception {
        StreamingQuery q = start(windowedCount(), "append");
        add(q, ev("a", 3), ev("b", 7), ev("c", 14));
        add(q, ev("d", 25));
        add(q, ev("late", 1), ev("e", 16));
        long dropped = q.lastProgress().stateOperators().get(0).numRowsDroppedByWatermark();
        long total = q.lastProgress().stateOperators().get(0).numRowsTotal();
        Map<String, Long> custom = q.lastProgress().stateOperators().get(0).customMetrics();
        q.stop();

        // As StatefulQueryTest on the in-memory store.
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(), 1L, List.of(), 2L, List.of(),
                3L, List.of(win(0, 10, 2L)), 4L, List.of()));
        assertThat(dropped).isEqualTo(1);
        assertThat(total).isEqualTo(2);
        assertThat(custom).containsKeys("rocksdbFilesCopied", "rocksdbSstFileSize");
        String offsets = Files.readString(tmp.resolve("chk/offsets/3"), StandardCharsets.UTF_8);
        assertThat(offsets).contains("\"spark.sql.streaming.stateStore.providerClass\":\""
                + RocksDbStateStoreProvider.SPARK_NAME + "\"");
        // Every partition commits each batch: versions 1..5 (batches 0..4), no delta files.
        for (int part = 0; part < 4; part++) {
            try (Stream<Path> files = Files.list(tmp.resolve("chk/state/0/" + part))) {
                assertThat(files.map(f -> f.getFileName().toString()).sorted().toList())
                        .containsExactly("1.zip", "2.zip", "3.zip", "4.zip", "5.zip", "SSTs");
            }
        }
    }

    @Test
    void aRestartOnRocksDbContinuesWithTheStateAndTheWatermark() throws Exception {
        StreamingQuery q = start(windowedCount(), "append");
        add(q, ev("a", 3), ev("b", 7), ev("c", 14));
        q.stop();
        sluice.close();
        sluice = rocks();
        q = start(windowedCount(), "append");
        add(q, ev("d", 8), ev("e", 25));
        q.stop();
        assertThat(batches().values().stream().flatMap(List::stream).toList()).containsExactly(win(0, 10, 3L));
    }

    @Test
    void dropDuplicatesOnRocksDbAcrossBatchesAndRestarts() throws Exception {
        StreamingQuery q = start(stream().dropDuplicates("id"), "append");
        add(q, ev("a", 1), ev("b", 2), ev("a", 3));
        add(q, ev("b", 4), ev("c", 5));
        q.stop();
        q = start(stream().dropDuplicates("id"), "append");
        add(q, ev("c", 6), ev("d", 7));
        long total = q.lastProgress().stateOperators().get(0).numRowsTotal();
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(ev("a", 1), ev("b", 2)), 1L, List.of(ev("c", 5)),
                2L, List.of(ev("d", 7))));
        assertThat(total).isEqualTo(4);
    }
}
