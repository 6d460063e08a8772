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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.window;
import static io.sluice.core.StatefulQueryTest.ev;
import static io.sluice.core.StatefulQueryTest.sorted;
import static io.sluice.core.StatefulQueryTest.win;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A stateful operator over a union: every input's rows feed one watermark and one state, exactly once. */
class UnionStatefulTest {
    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private final MemoryStream left = MemoryStream.create(StructType.fromDDL("id string, ts timestamp, amount long"));
    private final MemoryStream right = MemoryStream.create(StructType.fromDDL("id string, ts timestamp, amount int"));
    private final String table = "us" + UUID.randomUUID().toString().replace("-", "");

    @AfterEach
    void tearDown() {
        left.unregister();
        right.unregister();
        sluice.close();
        MemorySink.clear(table);
    }

    private StreamFrame memory(MemoryStream s) {
        return sluice.readStream().format("memory").option("name", s.name()).load();
    }

    private StreamingQuery start(StreamFrame frame, String mode) {
        return frame.writeStream().format("memory").queryName(table).outputMode(mode)
                .option("checkpointLocation", tmp.resolve("chk").toString()).start();
    }

    private Map<Long, List<Row>> batches() {
        Map<Long, List<Row>> out = new TreeMap<>();
        MemorySink.batches(table).forEach((k, v) -> out.put(k, sorted(v)));
        return out;
    }

    private static Row evInt(String id, int second) {
        return Row.of(id, StatefulQueryTest.t(second), 1);
    }

    @Test
    void aWindowedCountOverAUnionTakesEveryInputsRowsAndEventTimes() throws Exception {
        StreamFrame counted = memory(left).union(memory(right)).withWatermark("ts", "10 seconds")
                .groupBy(window(col("ts"), "10 seconds")).count();
        StreamingQuery q = start(counted, "append");
        left.addData(ev("a", 3));
        right.addData(evInt("b", 7), evInt("c", 14)); // the right input's 14 s moves the watermark to 4 s
        q.processAllAvailable();
        right.addData(evInt("d", 25));                   // watermark 15 s: [0, 10) closes with a and b
        q.processAllAvailable();
        left.addData(ev("late", 1));                     // behind the watermark: dropped
        q.processAllAvailable();
        StreamingQueryProgress last = q.lastProgress();
        q.stop();

        List<Row> emitted = batches().values().stream().flatMap(List::stream).toList();
        assertThat(emitted).containsExactly(win(0, 10, 2L));
        assertThat(last.sources()).hasSize(2);
        assertThat(last.stateOperators().get(0).numRowsDroppedByWatermark()).isEqualTo(1);
        long newest = batches().keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
        String[] lines = Files.readString(tmp.resolve("chk/offsets/" + newest), StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(4); // v1, metadata, one line per source
    }

    @Test
    void dropDuplicatesOverAUnionSeesAKeyFromEitherInputOnce() throws Exception {
        StreamingQuery q = start(memory(left).union(memory(right)).dropDuplicates("id"), "append");
        left.addData(ev("a", 1), ev("b", 2));
        right.addData(evInt("a", 3), evInt("c", 4));
        q.processAllAvailable();
        right.addData(evInt("b", 5));
        left.addData(ev("d", 6));
        q.processAllAvailable();
        q.stop();
        assertThat(batches().values().stream().flatMap(List::stream).map(r -> r.getString(0)).sorted().toList())
                .containsExactly("a", "b", "c", "d");
    }

    @Test
    void aSqlGroupByOverTheUnionIsTheSameAggregation() throws Exception {
        StreamFrame counted = memory(left).union(memory(right)).withWatermark("ts", "10 seconds")
                .sql("SELECT count(*) AS n, window(ts, '10 seconds') AS w FROM source WHERE id <> 'skip' "
                        + "GROUP BY window(ts, '10 seconds')");
        assertThat(counted.columns()).containsExactly("n", "w");
        StreamingQuery q = start(counted, "update");
        left.addData(ev("a", 3), ev("skip", 4));
        right.addData(evInt("b", 7), evInt("c", 14));
        q.processAllAvailable();
        q.stop();
        List<Row> rows = batches().values().stream().flatMap(List::stream).toList();
        assertThat(rows).contains(Row.of(2L, win(0, 10).get(0)), Row.of(1L, win(10, 20).get(0)));
    }

    @Test
    void aUnionOfAFrameWithAStatefulOperatorIsRefused() {
        assertThatThrownBy(() -> memory(left).dropDuplicates("id").union(memory(right)))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("union of a frame with a stateful operator (dedupe) is not supported by Sluice yet: union "
                        + "the streams first, then apply groupBy or dropDuplicates to the union");
    }
}
