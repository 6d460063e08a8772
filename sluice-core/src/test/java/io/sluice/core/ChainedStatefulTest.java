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

/**
 * Two stateful operators in one query, as Spark chains them: dropDuplicates then a windowed count in append mode,
 * each operator with its own state (Spark numbers them from the sink: the count is state/0, the deduplication
 * state/1), exactly once across a re-run batch and a restart, and the refusals.
 */
class ChainedStatefulTest {
    @TempDir
    Path tmp;
    private Sluice sluice;
    private final MemoryStream input = MemoryStream.create(StructType.fromDDL("id string, ts timestamp, amount long"));
    private final String table = "cs" + UUID.randomUUID().toString().replace("-", "");

    @AfterEach
    void tearDown() {
        input.unregister();
        if (sluice != null) {
            sluice.close();
        }
        MemorySink.clear(table);
    }

    private StreamFrame stream() {
        if (sluice == null) {
            sluice = Sluice.builder().parallelism(2).build();
        }
        return sluice.readStream().format("memory").option("name", input.name()).load()
                .withWatermark("ts", "10 seconds");
    }

    private StreamFrame dedupThenCount() {
        return stream().dropDuplicates("id", "ts").groupBy(window(col("ts"), "10 seconds")).count();
    }

    private StreamingQuery start(StreamFrame f) {
        return f.writeStream().format("memory").queryName(table).outputMode("append")
                .option("checkpointLocation", tmp.resolve("chk").toString()).start();
    }

    private void add(StreamingQuery q, Row... rows) throws Exception {
        input.addData(rows);
        q.processAllAvailable();
    }

    private Map<Long, List<Row>> batches() {
        Map<Long, List<Row>> out = new TreeMap<>();
        MemorySink.batches(table).forEach((k, v) -> out.put(k, sorted(v)));
        return out;
    }

    private String read(String file) throws Exception {
        return Files.readString(tmp.resolve("chk").resolve(file), StandardCharsets.UTF_8);
    }

    @Test
    void aDeduplicationThenAWindowedCountKeepsAStatePerOperatorAndCountsEachRowOnce() throws Exception {
        StreamingQuery q = start(dedupThenCount());
        add(q, ev("a", 3), ev("a", 3), ev("b", 7), ev("c", 14)); // batch 0: one a passes; wm -> 4 s, batch 1
        add(q, ev("b", 7), ev("d", 25));                         // batch 2: b again, a duplicate; a@3 evicted
        StreamingQueryProgress p = null;
        for (StreamingQueryProgress x : q.recentProgress()) {
            if (x.batchId() == 2) {
                p = x;
            }
        }
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(), 1L, List.of(), 2L, List.of(),
                3L, List.of(win(0, 10, 2L))));
        assertThat(read("state/0/_metadata/metadata")).contains("\"operatorId\":0,\"operatorName\":\"stateStoreSave\"");
        assertThat(read("state/1/_metadata/metadata")).contains("\"operatorId\":1,\"operatorName\":\"dedupe\"");
        assertThat(p.stateOperators()).extracting(StateOperatorProgress::operatorName)
                .containsExactly("stateStoreSave", "dedupe");
        assertThat(p.stateOperators().get(1).customMetrics()).containsEntry("numDroppedDuplicateRows", 1L);
        assertThat(p.stateOperators().get(1).numRowsTotal()).isEqualTo(3);  // b, c, d: a@3 is behind 4 s
        assertThat(p.stateOperators().get(0).numRowsTotal()).isEqualTo(3);  // [0,10), [10,20), [20,30)
    }

    @Test
    void aRestartContinuesEveryOperatorsStateExactlyOnce() throws Exception {
        StreamingQuery q = start(dedupThenCount());
        add(q, ev("a", 3), ev("a", 3), ev("b", 7), ev("c", 14)); // batches 0 and 1 (wm 4 s)
        add(q, ev("d", 25));                                     // batch 2; wm 15 s: batch 3 emits [0,10)
        q.stop();
        sluice.close();
        sluice = null;
        q = start(dedupThenCount());                             // a new session on the checkpoint
        add(q, ev("d", 25), ev("e", 26), ev("g", 16), ev("f", 40)); // batch 4: d a duplicate; wm 30 s: batch 5
        q.stop();
        assertThat(batches()).containsEntry(3L, List.of(win(0, 10, 2L)))
                .containsEntry(5L, List.of(win(10, 20, 2L), win(20, 30, 2L)));
        assertThat(batches().values().stream().flatMap(List::stream).toList())
                .containsExactlyInAnyOrder(win(0, 10, 2L), win(10, 20, 2L), win(20, 30, 2L));
    }

    @Test
    void aCheckpointOfTheChainRestartedWithOneOperatorIsRefusedNamingEveryOperator() throws Exception {
        StreamingQuery q = start(dedupThenCount());
        add(q, ev("a", 3));
        q.stop();
        StreamFrame countOnly = stream().groupBy(window(col("ts"), "10 seconds")).count();
        assertThatThrownBy(() -> start(countOnly))
                .hasMessageContaining("Stateful operators in the metadata: [(OperatorId: 0 -> OperatorName: "
                        + "stateStoreSave), (OperatorId: 1 -> OperatorName: dedupe)]; Stateful operators in current "
                        + "batch: [(OperatorId: 0 -> OperatorName: stateStoreSave)].");
    }

    @Test
    void twoDeduplicationsChainAndEachDropsItsOwnDuplicates() throws Exception {
        StreamingQuery q = start(stream().dropDuplicates("id", "ts").dropDuplicates("ts"));
        add(q, ev("a", 3), ev("a", 3), ev("b", 3), ev("c", 5));
        q.stop();
        assertThat(batches().get(0L)).extracting(r -> r.getString(0)).hasSize(2).contains("c");
    }

    @Test
    void anOperatorAfterAnAggregationIsRefused() {
        StreamFrame counted = stream().groupBy(window(col("ts"), "10 seconds")).count();
        assertThatThrownBy(() -> counted.dropDuplicates("count"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("dropDuplicates after stateStoreSave is not supported by Sluice yet: Sluice chains "
                        + "stateful operators after dropDuplicates only (dropDuplicates then groupBy, or "
                        + "dropDuplicates twice)");
        assertThatThrownBy(() -> counted.groupBy("count").count())
                .isInstanceOf(AnalysisException.class)
                .hasMessageStartingWith("groupBy after stateStoreSave is not supported by Sluice yet");
    }
}
