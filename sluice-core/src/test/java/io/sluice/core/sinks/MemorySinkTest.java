package io.sluice.core.sinks;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemorySinkTest {
    private static final StructType SCHEMA = StructType.of(StructField.of("v", DataType.longType()));
    private final MemorySinkProvider provider = new MemorySinkProvider();
    private final String table = "t_" + UUID.randomUUID().toString().replace("-", "");

    @TempDir
    Path dir;

    private Sink sink(String queryId, String name) {
        return provider.createSink(new SinkContext(Options.empty(), SCHEMA, dir, queryId, name, SluiceClock.system()));
    }

    /** Writes each list as one partition, commits the partitions, and returns the batch writer (not committed). */
    private static BatchWriter write(Sink sink, long batchId, List<List<Long>> partitions) throws Exception {
        BatchWriter w = sink.beginBatch(batchId);
        List<Object> results = new ArrayList<>();
        for (int p = 0; p < partitions.size(); p++) {
            PartitionWriter pw = w.partitionWriter(p);
            for (long v : partitions.get(p)) {
                pw.write(Row.of(v));
            }
            results.add(pw.commit());
        }
        pending.put(w, results);
        return w;
    }

    private static final Map<BatchWriter, List<Object>> pending = new java.util.concurrent.ConcurrentHashMap<>();

    private static void commit(BatchWriter w) throws Exception {
        w.commit(pending.remove(w));
    }

    private static List<Row> rows(long... values) {
        List<Row> out = new ArrayList<>();
        for (long v : values) {
            out.add(Row.of(v));
        }
        return out;
    }

    @Test
    void rowsBecomeVisibleOnlyWhenTheBatchCommits() throws Exception {
        Sink sink = sink("q1", table);
        assertThat(sink.description()).isEqualTo("MemorySink");
        BatchWriter w = write(sink, 0, List.of(List.of(1L, 2L), List.of(3L)));
        assertThat(MemorySink.rows(table)).isEmpty();
        assertThat(MemorySink.latestBatchId(table)).isEmpty();
        commit(w);
        assertThat(MemorySink.rows(table)).isEqualTo(rows(1, 2, 3));
        assertThat(w.numOutputRows()).isEqualTo(3);

        commit(write(sink, 1, List.of(List.of(), List.of(5L, 6L), List.of(4L))));
        assertThat(MemorySink.rows(table)).isEqualTo(rows(1, 2, 3, 5, 6, 4));
        assertThat(MemorySink.batches(table)).containsExactly(
                Map.entry(0L, rows(1, 2, 3)), Map.entry(1L, rows(5, 6, 4)));
        assertThat(MemorySink.latestBatchId(table)).hasValue(1);
    }

    @Test
    void theTableKeepsRowsOfTheirOwnNotTheBlocksOfASourcesRowBuilder() throws Exception {
        Sink sink = sink("q1", table);
        io.sluice.api.RowBuilder builder = new io.sluice.api.RowBuilder(SCHEMA);
        builder.setLong(0, 7_000_000_000L); // outside the boxes Long.valueOf caches
        Row built = builder.build();
        assertThat(built.get(0)).isNotSameAs(built.get(0)); // a block's row makes its values on each call
        BatchWriter w = sink.beginBatch(0);
        PartitionWriter pw = w.partitionWriter(0);
        pw.write(built);
        w.commit(List.of(pw.commit()));

        Row kept = MemorySink.rows(table).get(0);
        assertThat(kept).isEqualTo(Row.of(7_000_000_000L));
        assertThat(kept.get(0)).isSameAs(kept.get(0)); // a copy holding its values
    }

    @Test
    void aReRunOfACommittedBatchIsIgnored() throws Exception {
        Sink sink = sink("q1", table);
        commit(write(sink, 0, List.of(List.of(1L))));
        commit(write(sink, 1, List.of(List.of(2L), List.of(3L))));
        // the engine re-runs batch 1 after a crash: same id, same rows
        BatchWriter again = write(sink, 1, List.of(List.of(2L), List.of(3L)));
        commit(again);
        assertThat(again.numOutputRows()).isEqualTo(2);
        assertThat(MemorySink.rows(table)).isEqualTo(rows(1, 2, 3));

        // a restart of the same query (same query id) keeps the table and ignores the re-run
        sink.close();
        Sink restarted = sink("q1", table);
        commit(write(restarted, 1, List.of(List.of(2L), List.of(3L))));
        commit(write(restarted, 2, List.of(List.of(4L))));
        assertThat(MemorySink.rows(table)).isEqualTo(rows(1, 2, 3, 4));
        assertThat(MemorySink.batches(table).keySet()).containsExactly(0L, 1L, 2L);
    }

    @Test
    void anotherQueryUnderTheSameNameStartsAfresh() throws Exception {
        commit(write(sink("q1", table), 0, List.of(List.of(1L))));
        Sink other = sink("q2", table);
        assertThat(MemorySink.rows(table)).isEmpty();
        commit(write(other, 0, List.of(List.of(9L))));
        assertThat(MemorySink.rows(table)).isEqualTo(rows(9));
    }

    @Test
    void anAbortedBatchLeavesNothing() throws Exception {
        Sink sink = sink("q1", table);
        BatchWriter w = sink.beginBatch(0);
        PartitionWriter pw = w.partitionWriter(0);
        pw.write(Row.of(1L));
        pw.abort();
        w.abort(new RuntimeException("boom"));
        assertThat(MemorySink.rows(table)).isEmpty();
        commit(write(sink, 0, List.of(List.of(7L))));
        assertThat(MemorySink.rows(table)).isEqualTo(rows(7));
    }

    @Test
    void clearDropsTheRows() throws Exception {
        Sink sink = sink("q1", table);
        commit(write(sink, 0, List.of(List.of(1L))));
        MemorySink.clear(table);
        assertThat(MemorySink.rows(table)).isEmpty();
        commit(write(sink, 1, List.of(List.of(2L))));
        assertThat(MemorySink.rows(table)).isEqualTo(rows(2));
        assertThat(MemorySink.rows("no-such-table")).isEmpty();
        assertThat(MemorySink.batches("no-such-table")).isEmpty();
    }

    @Test
    void snapshotsDoNotChangeAfterwards() throws Exception {
        Sink sink = sink("q1", table);
        commit(write(sink, 0, List.of(List.of(1L))));
        List<Row> snapshot = MemorySink.rows(table);
        commit(write(sink, 1, List.of(List.of(2L))));
        assertThat(snapshot).isEqualTo(rows(1));
        assertThatThrownBy(() -> snapshot.add(Row.of(3L))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void queryNameIsRequired() {
        assertThat(provider.shortName()).isEqualTo("memory");
        assertThatThrownBy(() -> sink("q1", null))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("queryName must be specified for memory sink");
                    assertThat(e.option()).isEqualTo("queryName");
                });
    }
}
