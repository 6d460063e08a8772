package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.window;
import static io.sluice.core.StatefulQueryTest.sorted;
import static io.sluice.core.StatefulQueryTest.t;
import static io.sluice.core.StatefulQueryTest.win;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A union of frames that each carry their own withWatermark: one watermark per input, the global one their minimum
 * (or maximum with spark.sql.streaming.multipleWatermarkPolicy=max), logged as batchWatermarkMs; inputs advancing
 * at different speeds.
 */
class UnionWatermarkTest {
    @TempDir
    Path tmp;
    private Sluice sluice;
    private final MemoryStream fast = MemoryStream.create(StructType.fromDDL("id string, ts timestamp"));
    private final MemoryStream slow = MemoryStream.create(StructType.fromDDL("key string, at timestamp"));
    private final String table = "uw" + UUID.randomUUID().toString().replace("-", "");

    @AfterEach
    void tearDown() {
        fast.unregister();
        slow.unregister();
        if (sluice != null) {
            sluice.close();
        }
        MemorySink.clear(table);
    }

    /** fast: 10 s of delay; slow: 5 s; the union's columns are named as fast's (id, ts). */
    private StreamingQuery start(String policy) {
        Sluice.Builder b = Sluice.builder().parallelism(2);
        if (policy != null) {
            b.config(StatefulExecution.WATERMARK_POLICY, policy);
        }
        sluice = b.build();
        StreamFrame f = sluice.readStream().format("memory").option("name", fast.name()).load()
                .withWatermark("ts", "10 seconds");
        StreamFrame s = sluice.readStream().format("memory").option("name", slow.name()).load()
                .withWatermark("at", "5 seconds");
        return f.union(s).groupBy(window(col("ts"), "10 seconds")).count()
                .writeStream().format("memory").queryName(table).outputMode("append")
                .option("checkpointLocation", tmp.resolve("chk").toString()).start();
    }

    private static Row ev(String id, int second) {
        return Row.of(id, t(second));
    }

    private Map<Long, List<Row>> batches() {
        Map<Long, List<Row>> out = new TreeMap<>();
        MemorySink.batches(table).forEach((k, v) -> out.put(k, sorted(v)));
        return out;
    }

    /** batchWatermarkMs of each offsets/N, in batch order, as seconds after 10:00:00 (-1 for 0). */
    private List<Long> loggedWatermarks() throws Exception {
        List<Long> out = new ArrayList<>();
        for (long n = 0; Files.exists(tmp.resolve("chk/offsets/" + n)); n++) {
            String meta = Files.readString(tmp.resolve("chk/offsets/" + n), StandardCharsets.UTF_8).split("\n")[1];
            long ms = Long.parseLong(meta.replaceAll("^\\{\"batchWatermarkMs\":(\\d+),.*$", "$1"));
            out.add(ms == 0 ? -1 : (ms - t(0).toEpochMilli()) / 1000);
        }
        return out;
    }

    @Test
    void theGlobalWatermarkIsTheMinimumOfTheInputsWatermarks() throws Exception {
        StreamingQuery q = start(null);
        fast.addData(ev("a", 3), ev("b", 7), ev("c", 14));
        q.processAllAvailable();            // batch 0: fast's watermark 4 s, slow has none: global stays 0
        fast.addData(ev("d", 31));
        q.processAllAvailable();            // batch 1: fast 21 s; slow still 0: nothing moves, no no-data batch
        slow.addData(ev("x", 9));
        q.processAllAvailable();            // batch 2: slow 4 s: global min(21, 4) = 4 s -> no-data batch 3
        slow.addData(ev("y", 27));
        q.processAllAvailable();            // batch 4: slow 22 s: global 21 s -> no-data batch 5 closes [0,10), [10,20)
        fast.addData(ev("late", 2));
        q.processAllAvailable();            // batch 6: behind 21 s: dropped
        StreamingQueryProgress last = q.lastProgress();
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(), 1L, List.of(), 2L, List.of(), 3L, List.of(),
                4L, List.of(), 5L, List.of(win(0, 10, 3L), win(10, 20, 1L)), 6L, List.of()));
        assertThat(loggedWatermarks()).containsExactly(-1L, -1L, -1L, 4L, 4L, 21L, 21L);
        assertThat(last.stateOperators().get(0).numRowsDroppedByWatermark()).isEqualTo(1);
        assertThat(last.sources()).hasSize(2);
    }

    @Test
    void withTheMaxPolicyTheFastestInputDrivesTheWatermark() throws Exception {
        StreamingQuery q = start("max");
        fast.addData(ev("a", 3), ev("b", 7), ev("c", 14));
        q.processAllAvailable();            // batch 0: fast 4 s -> global 4 s, no-data batch 1
        slow.addData(ev("x", 9));
        q.processAllAvailable();            // batch 2: slow 4 s: max(4, 4), nothing moves
        fast.addData(ev("d", 31));
        q.processAllAvailable();            // batch 3: fast 21 s -> no-data batch 4 closes [0,10) and [10,20)
        slow.addData(ev("late", 12));
        q.processAllAvailable();            // batch 5: window [10,20) ends before 21 s: dropped
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(), 1L, List.of(), 2L, List.of(), 3L, List.of(),
                4L, List.of(win(0, 10, 3L), win(10, 20, 1L)), 5L, List.of()));
        assertThat(loggedWatermarks()).containsExactly(-1L, 4L, 4L, 4L, 21L, 21L);
        assertThat(Files.readString(tmp.resolve("chk/offsets/5"), StandardCharsets.UTF_8))
                .contains("\"spark.sql.streaming.multipleWatermarkPolicy\":\"max\"");
    }

    @Test
    void aRestartContinuesFromTheLoggedWatermarkAndEveryInputsOffset() throws Exception {
        // Both inputs' rows before start(): added while the query runs, a trigger between the two addData calls
        // would make batch 0 of the fast input's alone (seen under load: one more batch and watermark logged).
        fast.addData(ev("a", 3), ev("c", 14), ev("d", 31));
        slow.addData(ev("x", 27));
        StreamingQuery q = start(null);
        q.processAllAvailable();            // batch 0: fast 21 s, slow 22 s: global 21 s -> batch 1 closes both
        q.stop();
        sluice.close();

        q = start(null);                    // a new session on the same checkpoint
        slow.addData(ev("late", 15), ev("y", 29));
        q.processAllAvailable();            // batch 2: runs with 21 s: [10,20) is late; slow 24 s, fast none yet
        fast.addData(ev("e", 45));
        q.processAllAvailable();            // batch 3: fast 35 s; global min(35, 24) = 24 s: nothing closes
        q.stop();
        List<Row> emitted = batches().values().stream().flatMap(List::stream).toList();
        assertThat(emitted).containsExactly(win(0, 10, 1L), win(10, 20, 1L));
        assertThat(loggedWatermarks()).containsExactly(-1L, 21L, 21L, 21L, 24L);
    }
}
