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
}
