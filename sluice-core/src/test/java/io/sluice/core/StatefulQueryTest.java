package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import java.util.UUID;
import java.util.stream.Stream;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Stateful queries end to end on the memory source and sink: exact rows per batch. */
class StatefulQueryTest {
    @TempDir
    Path tmp;
    Sluice sluice;
    MemoryStream input;
    String table;

    @BeforeEach
    void setUp() {
        sluice = Sluice.builder().parallelism(2).build();
        input = MemoryStream.create(StructType.fromDDL("id string, ts timestamp, amount long"));
        table = "t" + UUID.randomUUID().toString().replace("-", "");
    }

    @AfterEach
    void tearDown() {
        input.unregister();
        sluice.close();
    }

    static Instant t(int seconds) {
        return Instant.parse("2026-01-01T10:00:00Z").plusSeconds(seconds);
    }

    static Row ev(String id, int second) {
        return Row.of(id, t(second), 1L);
    }

    static Row win(int start, int end, Object... values) {
        Object[] v = new Object[values.length + 1];
        v[0] = Row.of(t(start), t(end));
        System.arraycopy(values, 0, v, 1, values.length);
        return Row.of(v);
    }

    private StreamFrame stream() {
        return sluice.readStream().format("memory").option("name", input.name()).load();
    }

    private StreamingQuery start(StreamFrame frame, String mode, Path checkpoint) {
        return frame.writeStream().format("memory").queryName(table).outputMode(mode)
                .option("checkpointLocation", checkpoint.toString()).start();
    }

    private void add(StreamingQuery q, Row... rows) throws Exception {
        input.addData(rows);
        q.processAllAvailable();
    }

    private Map<Long, List<Row>> batches() {
        Map<Long, List<Row>> out = new java.util.TreeMap<>();
        MemorySink.batches(table).forEach((k, v) -> out.put(k, sorted(v)));
        return out;
    }

    static List<Row> sorted(List<Row> rows) {
        List<Row> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Row::toString));
        return copy;
    }

    private StreamFrame windowedCount() {
        return stream().withWatermark("ts", "10 seconds").groupBy(window(col("ts"), "10 seconds")).count();
    }

    @Test
    void appendEmitsEachWindowOnceWhenTheWatermarkPassesItsEndAndDropsLateRows() throws Exception {
        Path chk = tmp.resolve("chk");
        StreamingQuery q = start(windowedCount(), "append", chk);
        add(q, ev("a", 3), ev("b", 7), ev("c", 14));     // batch 0; then wm = 10:00:04 -> no-data batch 1
        add(q, ev("d", 25));                              // batch 2 (wm 04); then wm = 10:00:15 -> batch 3 emits [0,10)
        add(q, ev("late", 1), ev("e", 16));               // batch 4: 10:00:01 is late (window end 10 <= 15)
        StreamingQueryProgress last = q.lastProgress();
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(), 1L, List.of(), 2L, List.of(),
                3L, List.of(win(0, 10, 2L)), 4L, List.of()));
        assertThat(last.stateOperators()).hasSize(1);
        StateOperatorProgress op = last.stateOperators().get(0);
        assertThat(op.operatorName()).isEqualTo("stateStoreSave");
        assertThat(op.numRowsDroppedByWatermark()).isEqualTo(1);
        assertThat(op.numRowsTotal()).isEqualTo(2); // [10,20) and [20,30)
        assertThat(op.numShufflePartitions()).isEqualTo(StatefulExecution.DEFAULT_PARTITIONS);
        assertThat(last.eventTime()).isEqualTo(Map.of("min", "2026-01-01T10:00:01.000Z",
                "max", "2026-01-01T10:00:16.000Z", "avg", "2026-01-01T10:00:08.500Z",
                "watermark", "2026-01-01T10:00:15.000Z"));
        String offsets3 = Files.readString(chk.resolve("offsets/3"), StandardCharsets.UTF_8);
        assertThat(offsets3.split("\n")[1]).startsWith("{\"batchWatermarkMs\":" + t(15).toEpochMilli() + ",")
                .contains("\"spark.sql.shuffle.partitions\":\"4\"")
                .contains("\"spark.sql.streaming.stateStore.providerClass\":\"org.apache.spark.sql.execution."
                        + "streaming.state.HDFSBackedStateStoreProvider\"");
        assertThat(Files.readString(chk.resolve("commits/2"), StandardCharsets.UTF_8))
                .isEqualTo("v1\n{\"nextBatchWatermarkMs\":" + t(15).toEpochMilli() + "}");
        assertThat(Files.readString(chk.resolve("state/0/_metadata/metadata"), StandardCharsets.UTF_8))
                .isEqualTo("v1\n{\"operatorInfo\":{\"operatorId\":0,\"operatorName\":\"stateStoreSave\"},"
                        + "\"stateStoreInfo\":[{\"storeName\":\"default\",\"numColsPrefixKey\":0,"
                        + "\"numPartitions\":4}]}");
        try (Stream<Path> files = Files.list(chk.resolve("state/0/0"))) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList())
                    .containsExactly("1.delta", "2.delta", "3.delta", "4.delta", "5.delta");
        }
    }

    @Test
    void updateEmitsTheGroupsChangedInEachBatch() throws Exception {
        StreamingQuery q = start(windowedCount(), "update", tmp.resolve("chk"));
        add(q, ev("a", 3), ev("b", 7), ev("c", 14));   // batch 0, then no-data batch 1 (wm 04: nothing closes)
        add(q, ev("d", 8), ev("e", 25));               // batch 2; wm -> 15, no-data batch 3 evicts [0,10) silently
        add(q, ev("f", 9), ev("g", 19));               // batch 4: 10:00:09 is late (end 10 <= 15)
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(
                0L, List.of(win(0, 10, 2L), win(10, 20, 1L)),
                1L, List.of(),
                2L, List.of(win(0, 10, 3L), win(20, 30, 1L)),
                3L, List.of(),
                4L, List.of(win(10, 20, 2L))));
    }

    @Test
    void completeEmitsEveryGroupEachBatchAndTheMemoryTableHoldsTheLatest() throws Exception {
        StreamFrame counts = stream().groupBy("id").agg(Functions.count("*"), Functions.sum("amount").as("total"),
                Functions.min("ts"), Functions.max("ts"), Functions.avg("amount"), Functions.first("ts"),
                Functions.last("ts"));
        assertThat(counts.schema().simpleString()).isEqualTo("struct<id:string,count(1):bigint,total:bigint,"
                + "min(ts):timestamp,max(ts):timestamp,avg(amount):double,first(ts):timestamp,last(ts):timestamp>");
        StreamingQuery q = start(counts, "complete", tmp.resolve("chk"));
        add(q, Row.of("a", t(1), 5L), Row.of("b", t(2), 1L), Row.of("a", t(3), 7L));
        add(q, Row.of("b", t(0), null));
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(
                0L, List.of(Row.of("a", 2L, 12L, t(1), t(3), 6.0, t(1), t(3)),
                        Row.of("b", 1L, 1L, t(2), t(2), 1.0, t(2), t(2))),
                1L, List.of(Row.of("a", 2L, 12L, t(1), t(3), 6.0, t(1), t(3)),
                        Row.of("b", 2L, 1L, t(0), t(2), 1.0, t(2), t(0)))));
        assertThat(sorted(MemorySink.rows(table))).isEqualTo(batches().get(1L));
    }

    @Test
    void slidingWindowsAndExpressionAggregatesInSql() throws Exception {
        StreamFrame f = stream().withWatermark("ts", "0 seconds")
                .groupBy(window(col("ts"), "10 seconds", "5 seconds"))
                .agg("count(*) AS n", "sum(amount)");
        StreamingQuery q = start(f, "update", tmp.resolve("chk"));
        add(q, ev("a", 3), ev("b", 7));
        q.stop();
        assertThat(batches().get(0L)).isEqualTo(List.of(win(-5, 5, 1L, 1L), win(0, 10, 2L, 2L),
                win(5, 15, 1L, 1L)));
    }

    @Test
    void queriesSparkRefusesAreRefusedWithItsMessages() {
        assertThatThrownBy(() -> start(stream().groupBy("id").count(), "append", tmp.resolve("a")))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Invalid streaming output mode: append. This output mode is not supported for streaming "
                        + "aggregations without watermark on streaming DataFrames/DataSets.");
        assertThatThrownBy(() -> start(stream().dropDuplicates("id"), "complete", tmp.resolve("b")))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Invalid streaming output mode: complete. This output mode is not supported for no "
                        + "streaming aggregations on streaming DataFrames/DataSets.");
        assertThatThrownBy(() -> start(stream().dropDuplicatesWithinWatermark("id"), "append", tmp.resolve("c")))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("dropDuplicatesWithinWatermark is not supported on streaming DataFrames/DataSets without "
                        + "watermark");
        assertThatThrownBy(() -> stream().groupBy("id").agg(Functions.countDistinct(col("amount"))))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider using "
                        + "approx_count_distinct() instead.");
        assertThatThrownBy(() -> stream().groupBy("id").agg(Functions.sum("id")))
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("Cannot resolve \"sum(id)\" due to data type mismatch");
        assertThatThrownBy(() -> start(stream().withWatermark("ts", "1 minute")
                .groupBy(Functions.sessionWindow(col("ts"), "5 seconds"), col("id")).count(), "update",
                tmp.resolve("e")))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Invalid streaming output mode: update. This output mode is not supported for session "
                        + "window streaming aggregations on streaming DataFrames/DataSets.");
        assertThatThrownBy(() -> stream().groupBy(Functions.sessionWindow(col("ts"), "5 seconds")).count())
                .hasMessage("Global aggregation with session window in streaming query is not supported.");
        assertThatThrownBy(() -> stream().withWatermark("id", "1 minute"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Event time must be defined on a window or a timestamp, but id is of type string");
        assertThatThrownBy(() -> stream().groupBy("id").count().writeStream().outputMode("upsert"))
                .hasMessage("Unknown output mode upsert. Accepted output modes are 'append', 'complete', 'update'");
        sluice.registerSink(new RecordingSink());
        assertThatThrownBy(() -> stream().groupBy("id").count().writeStream().format("recording")
                .option("name", table).outputMode("update").option("checkpointLocation", tmp.resolve("d").toString()).start())
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Data source recording does not support Update output mode");
    }

    @Test
    void dropDuplicatesKeepsTheFirstRowOfEachKeyAcrossBatchesAndRestarts() throws Exception {
        Path chk = tmp.resolve("chk");
        StreamingQuery q = start(stream().dropDuplicates("id"), "append", chk);
        add(q, ev("a", 1), ev("b", 2), ev("a", 3));
        add(q, ev("b", 4), ev("c", 5));
        q.stop();
        q = start(stream().dropDuplicates("id"), "append", chk);
        add(q, ev("c", 6), ev("d", 7));
        StreamingQueryProgress last = q.lastProgress();
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(ev("a", 1), ev("b", 2)), 1L, List.of(ev("c", 5)),
                2L, List.of(ev("d", 7))));
        assertThat(last.stateOperators().get(0).operatorName()).isEqualTo("dedupe");
        assertThat(last.stateOperators().get(0).numRowsTotal()).isEqualTo(4);
        assertThat(last.stateOperators().get(0).customMetrics()).containsEntry("numDroppedDuplicateRows", 1L);
    }

    @Test
    void dropDuplicatesWithinWatermarkForgetsAKeyOnceTheWatermarkPassesItsFirstRowPlusTheDelay() throws Exception {
        StreamingQuery q = start(stream().withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark("id"),
                "append", tmp.resolve("chk"));
        add(q, ev("a", 1), ev("a", 5));   // batch 0: a@1 kept (expires 11); wm -> 09:59:55: no-data batch 1
        add(q, ev("a", 8), ev("x", 30));  // batch 2: a@8 a duplicate; wm -> 20: no-data batch 3 evicts a
        add(q, ev("a", 25));              // batch 4: a@25 is new again (25 > late wm 20)
        add(q, ev("x", 15));              // batch 5 (wm stays 20): x@15 is late
        StreamingQueryProgress last = q.lastProgress();
        q.stop();
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(ev("a", 1)), 1L, List.of(), 2L, List.of(ev("x", 30)),
                3L, List.of(), 4L, List.of(ev("a", 25)), 5L, List.of()));
        assertThat(last.stateOperators().get(0).operatorName()).isEqualTo("dedupeWithinWatermark");
        assertThat(last.stateOperators().get(0).numRowsDroppedByWatermark()).isEqualTo(1);
    }

    @Test
    void aRestartContinuesExactlyOnceWithTheLoggedWatermarkAndState() throws Exception {
        Path chk = tmp.resolve("chk");
        StreamingQuery q = start(windowedCount(), "append", chk);
        add(q, ev("a", 3), ev("b", 7), ev("c", 14));
        q.stop();
        q = start(windowedCount(), "append", chk);
        add(q, ev("d", 8), ev("e", 25));   // wm 04 restored: 8 is on time; after it, wm 15 closes [0,10) with 3
        q.stop();
        assertThat(batches().values().stream().flatMap(List::stream).toList()).containsExactly(win(0, 10, 3L));
    }

    /** rate-micro-batch: 3 rows a batch, batch b at 10:00:00 + 10 b seconds, values 3b .. 3b + 2. */
    private StreamFrame rate() {
        return sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3)
                .option("startTimestamp", t(0).toEpochMilli()).option("advanceMillisPerBatch", 10_000).load();
    }

    private StreamingQuery once(StreamFrame frame, Path chk) throws Exception {
        StreamingQuery q = frame.writeStream().format("memory").queryName(table).outputMode("update")
                .trigger(Trigger.once()).option("checkpointLocation", chk.toString()).start();
        q.awaitTermination();
        return q;
    }

    @Test
    void aBatchReRunAfterACrashUsesTheLoggedWatermarkAndThePreviousState() throws Exception {
        Path chk = tmp.resolve("chk");
        java.util.function.Supplier<StreamFrame> query = () -> rate().withWatermark("timestamp", "5 seconds")
                .groupBy(window(col("timestamp"), "30 seconds")).agg(Functions.count("*"), Functions.sum("value"));
        once(query.get(), chk);   // batch 0: [0,30) = 3 rows, sum 3; wm -> 09:59:55
        once(query.get(), chk);   // batch 1: [0,30) = 6 rows, sum 15; wm -> 10:00:05
        assertThat(batches().get(1L)).isEqualTo(List.of(win(0, 30, 6L, 15L)));
        // As if the process died after the state and the sink committed batch 1 but before commits/1.
        Files.delete(chk.resolve("commits/1"));
        table = table + "rerun";
        once(query.get(), chk);
        // Batch 1 again from version 1 of the state (version 2 holds its rows already): the same row, not 9 / 27.
        assertThat(batches()).isEqualTo(Map.of(1L, List.of(win(0, 30, 6L, 15L))));
        assertThat(Files.readString(chk.resolve("offsets/1"), StandardCharsets.UTF_8).split("\n")[1])
                .startsWith("{\"batchWatermarkMs\":" + t(-5).toEpochMilli() + ",");
        assertThat(Files.readString(chk.resolve("commits/1"), StandardCharsets.UTF_8))
                .isEqualTo("v1\n{\"nextBatchWatermarkMs\":" + t(5).toEpochMilli() + "}");
        table = table + "next";
        once(query.get(), chk);   // batch 2 continues from version 2: [0,30) = 9 rows
        assertThat(batches()).isEqualTo(Map.of(2L, List.of(win(0, 30, 9L, 36L))));
    }

    @Test
    void aQueryWhoseStatefulOperatorChangedIsRefused() throws Exception {
        Path chk = tmp.resolve("chk");
        StreamingQuery q = start(stream().dropDuplicates("id"), "append", chk);
        add(q, ev("a", 1));
        q.stop();
        assertThatThrownBy(() -> start(stream().groupBy("id").count(), "update", chk))
                .hasMessage("Streaming stateful operator name does not match with the operator in state metadata. "
                        + "This likely to happen when user adds/removes/changes stateful operator of existing "
                        + "streaming query. Stateful operators in the metadata: [(OperatorId: 0 -> OperatorName: "
                        + "dedupe)]; Stateful operators in current batch: [(OperatorId: 0 -> OperatorName: "
                        + "stateStoreSave)].");
        assertThatThrownBy(() -> start(stream(), "append", chk))
                .hasMessageEndingWith("Stateful operators in current batch: [].");
        assertThatThrownBy(() -> start(stream().dropDuplicates("id", "ts"), "append", chk))
                .hasMessageStartingWith("Provided key schema does not match existing state key schema.");
    }

    @Test
    void aCorruptStateFileFailsTheQueryNamingTheFile() throws Exception {
        Path chk = tmp.resolve("chk");
        StreamingQuery q = start(stream().groupBy("id").count(), "update", chk);
        add(q, ev("a", 1), ev("b", 1), ev("c", 1), ev("d", 1), ev("e", 1));
        q.stop();
        Path delta;
        try (Stream<Path> files = Files.walk(chk.resolve("state/0"))) {
            delta = files.filter(f -> f.getFileName().toString().equals("1.delta")).filter(f -> {
                try {
                    return Files.size(f) > 20;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).findFirst().orElseThrow();
        }
        Files.write(delta, new byte[]{'S', 'L', 'S', 'T', 'D', 1, 1, 0});
        // start() loads the state the first batch starts from: it fails itself, as for a bad log file.
        assertThatThrownBy(() -> start(stream().groupBy("id").count(), "update", chk))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + delta + " is corrupt or incomplete (it is truncated). The state of a "
                        + "stateful operator cannot be read back, so the query cannot continue exactly once. Restore "
                        + "the file from a copy of the checkpoint, or start the query again on a new "
                        + "checkpointLocation.");
        // Nothing was started.
        assertThat(sluice.activeQueries()).isEmpty();
    }
}
