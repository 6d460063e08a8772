package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code StreamFrame.union}: a query with one source per input, in Spark's checkpoint layout, exact rows per batch
 * (memory offsets count blocks, so {@code 1} is "after the first block"). Re-runs: {@link UnionRecoveryTest}.
 */
class UnionTest {
    @TempDir
    Path tmp;
    private final String table = "u_" + UUID.randomUUID().toString().replace('-', '_');
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private final MemoryStream longs = MemoryStream.create(StructType.fromDDL("id bigint, name string"));
    private final MemoryStream ints = MemoryStream.create(StructType.fromDDL("key int, label string"));

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(table);
        longs.unregister();
        ints.unregister();
    }

    private StreamFrame memory(MemoryStream s) {
        return sluice.readStream().format("memory").option("name", s.name()).load();
    }

    private StreamFrame union() {
        return memory(longs).union(memory(ints).where("key > 0"));
    }

    private StreamingQuery runAvailable(StreamFrame frame) throws Exception {
        StreamingQuery q = frame.writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        return q;
    }

    private List<String> offsetLines(long batch) throws Exception {
        List<String> lines = new ArrayList<>(List.of(Files.readString(tmp.resolve("chk/offsets/" + batch))
                .split("\n", -1)));
        lines.remove(1); // the batch's metadata
        return lines;
    }

    @Test
    void theSchemaIsTheFirstInputsNamesWithTypesWidenedAsSpark() {
        StreamFrame u = union();
        assertThat(u.schema()).isEqualTo(StructType.fromDDL("id bigint, name string"));
        assertThat(u.isStreaming()).isTrue();
        // A number and a string widen to a string, as Spark's WidenSetOperationTypes.
        assertThat(memory(ints).select("key").union(memory(longs).select("name")).schema())
                .isEqualTo(StructType.fromDDL("key string"));
    }

    @Test
    void eachBatchHoldsTheRowsOfTheInputsThatMovedAndTheIdleOneRepeatsItsOffset() throws Exception {
        longs.addData(Row.of(1L, "a"), Row.of(2L, "b"));
        ints.addData(Row.of(7, "x"), Row.of(-1, "dropped by its own where"));

        StreamingQuery first = runAvailable(union());

        assertThat(sorted(MemorySink.batches(table).get(0L))).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"),
                Row.of(7L, "x"));
        assertThat(offsetLines(0)).containsExactly("v1", "1", "1");
        assertThat(Files.isDirectory(tmp.resolve("chk/sources/0"))).isTrue();
        assertThat(Files.isDirectory(tmp.resolve("chk/sources/1"))).isTrue();
        assertThat(first.lastProgress().sources()).extracting(SourceProgress::numInputRows).containsExactly(2L, 2L);

        // Only the first input moves: batch 1 reads it alone, the second's line repeats its offset.
        longs.addData(Row.of(3L, "c"));
        StreamingQuery second = runAvailable(union());

        assertThat(MemorySink.batches(table).get(1L)).containsExactly(Row.of(3L, "c"));
        assertThat(offsetLines(1)).containsExactly("v1", "2", "1");
        assertThat(second.lastProgress().sources()).extracting(SourceProgress::startOffset,
                SourceProgress::endOffset, SourceProgress::numInputRows).containsExactly(
                org.assertj.core.groups.Tuple.tuple("1", "2", 1L),
                org.assertj.core.groups.Tuple.tuple("1", "1", 0L));
    }

    @Test
    void anInputWithNoDataYetIsLoggedAsADash() throws Exception {
        longs.addData(Row.of(1L, "a"));

        runAvailable(union());

        assertThat(offsetLines(0)).containsExactly("v1", "1", "-");
        assertThat(MemorySink.batches(table).get(0L)).containsExactly(Row.of(1L, "a"));
        ints.addData(Row.of(5, "e"));
        runAvailable(union());
        assertThat(offsetLines(1)).containsExactly("v1", "1", "1");
        assertThat(MemorySink.batches(table).get(1L)).containsExactly(Row.of(5L, "e"));
    }

    @Test
    void aCheckpointOfOneSourceIsRefusedByAQueryOfTwoWithSparksMessage() throws Exception {
        longs.addData(Row.of(1L, "a"));
        runAvailable(memory(longs));

        assertThatThrownBy(() -> runAvailable(union())).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("There are [1] sources in the checkpoint offsets and now there are [2] "
                        + "sources requested by the query. Cannot continue.");
    }

    @Test
    void rateMicroBatchInputsAdvanceEachAtItsOwnPaceOneStepPerBatch() throws Exception {
        StreamFrame slow = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 1)
                .option("numPartitions", 1).option("startTimestamp", 1_000).option("advanceMillisPerBatch", 1_000)
                .load();
        StreamFrame fast = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3)
                .option("numPartitions", 2).option("startTimestamp", 50_000).option("advanceMillisPerBatch", 10)
                .load().selectExpr("timestamp", "value + 100 AS value");
        StreamingQuery q = slow.union(fast).writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).start();
        await().until(() -> MemorySink.batches(table).size() >= 2);
        q.stop();

        assertThat(sortedByValue(MemorySink.batches(table).get(0L))).containsExactly(
                Row.of(ts(1_000), 0L), Row.of(ts(50_000), 100L), Row.of(ts(50_000), 101L),
                Row.of(ts(50_000), 102L));
        assertThat(sortedByValue(MemorySink.batches(table).get(1L))).containsExactly(
                Row.of(ts(2_000), 1L), Row.of(ts(50_010), 103L), Row.of(ts(50_010), 104L),
                Row.of(ts(50_010), 105L));
        assertThat(q.recentProgress().get(0).sources()).extracting(SourceProgress::numInputRows)
                .containsExactly(1L, 3L);
        assertThat(offsetLines(1)).containsExactly("v1", "{\"offset\":2,\"timestamp\":3000}",
                "{\"offset\":6,\"timestamp\":50020}");
    }

    @Test
    void unionsOfThreeAndUnionByNameAndReadsFromRead() throws Exception {
        longs.addData(Row.of(1L, "a"));
        ints.addData(Row.of(2, "b"));
        StreamFrame byName = memory(longs).unionByName(memory(ints).selectExpr("label AS name", "key AS id"));
        assertThat(byName.schema()).isEqualTo(StructType.fromDDL("id bigint, name string"));
        runAvailable(byName.union(memory(longs).selectExpr("id * 10", "upper(name)")));
        assertThat(sorted(MemorySink.batches(table).get(0L))).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"),
                Row.of(10L, "A"));
        assertThat(offsetLines(0)).containsExactly("v1", "1", "1", "1");

        // Frames from read() union as well, into one bounded read.
        MemoryStream x = MemoryStream.create(StructType.fromDDL("id bigint, name string"));
        MemoryStream y = MemoryStream.create(StructType.fromDDL("n int, s string"));
        try {
            x.addData(Row.of(1L, "a"));
            y.addData(Row.of(2, "b"));
            StreamFrame a = sluice.read().format("memory").option("name", x.name()).load();
            StreamFrame b = sluice.read().format("memory").option("name", y.name()).load();
            assertThat(sorted(a.union(b).collectAsList())).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"));
            assertThat(a.union(b, a).count()).isEqualTo(3);
        } finally {
            x.unregister();
            y.unregister();
        }
    }

    @Test
    void refusedUnionsCarrySparksMessages() {
        assertThatThrownBy(() -> memory(longs).union(memory(ints).select("key")))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("[NUM_COLUMNS_MISMATCH] UNION can only be performed on inputs with the same number of "
                        + "columns, but the first input has 2 columns and the second input has 1 columns.");
        assertThatThrownBy(() -> memory(longs).union(memory(ints).selectExpr("key", "CAST(label AS BINARY)")))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("[INCOMPATIBLE_COLUMN_TYPE] UNION can only be performed on tables with compatible "
                        + "column types. The second column of the second table is \"BINARY\" type which is not "
                        + "compatible with \"STRING\" at the same column of the first table.");
        assertThatThrownBy(() -> memory(longs).union(sluice.read().format("memory").option("name", ints.name())
                .load())).isInstanceOf(AnalysisException.class)
                .hasMessage("Union between streaming and batch DataFrames/Datasets is not supported");
    }

    private static Instant ts(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static List<Row> sorted(List<Row> rows) {
        return rows.stream().sorted(Comparator.comparingLong((Row r) -> r.getLong(0))
                .thenComparing(r -> r.getString(1))).toList();
    }

    private static List<Row> sortedByValue(List<Row> rows) {
        return rows.stream().sorted(Comparator.comparingLong((Row r) -> r.getLong(1))).toList();
    }
}
