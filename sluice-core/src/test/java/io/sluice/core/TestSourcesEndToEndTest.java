package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The test sources through the whole engine into the memory sink: exact rows per batch. */
class TestSourcesEndToEndTest {
    @TempDir
    Path tmp;
    private final String table = "t_" + UUID.randomUUID().toString().replace('-', '_');
    private Sluice sluice = Sluice.builder().parallelism(2).build();

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(table);
    }

    @Test
    void rateMicroBatchGivesFixedValuesAndOneTimestampPerBatch() throws Exception {
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 4)
                .option("numPartitions", 2).option("startTimestamp", 1_000).option("advanceMillisPerBatch", 500)
                .load().writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.toString()).start();
        await().until(() -> MemorySink.batches(table).size() >= 3);
        q.stop();

        Map<Long, List<Row>> batches = MemorySink.batches(table);
        assertThat(sorted(batches.get(0L))).containsExactly(
                Row.of(Instant.ofEpochMilli(1_000), 0L), Row.of(Instant.ofEpochMilli(1_000), 1L),
                Row.of(Instant.ofEpochMilli(1_000), 2L), Row.of(Instant.ofEpochMilli(1_000), 3L));
        assertThat(sorted(batches.get(1L))).containsExactly(
                Row.of(Instant.ofEpochMilli(1_500), 4L), Row.of(Instant.ofEpochMilli(1_500), 5L),
                Row.of(Instant.ofEpochMilli(1_500), 6L), Row.of(Instant.ofEpochMilli(1_500), 7L));
        assertThat(sorted(batches.get(2L))).extracting(r -> r.getTimestamp(0)).containsOnly(Instant.ofEpochMilli(2_000));
        assertThat(q.recentProgress().get(1).sources().get(0).endOffset())
                .isEqualTo("{\"offset\":8,\"timestamp\":2000}");
    }

    @Test
    void rateFollowsTheInjectedClockAndReplaysAfterARestart() throws Exception {
        sluice.close();
        ManualClock clock = new ManualClock(100_000);
        sluice = Sluice.builder().clock(clock).parallelism(2).build();
        StreamingQuery q = rate().start();
        clock.advance(2_000);
        await().until(() -> !MemorySink.rows(table).isEmpty() && clock.isWaiting());
        q.stop();
        // Two whole seconds at 3 rows per second, timestamps spread over each second.
        assertThat(sorted(MemorySink.rows(table))).containsExactly(
                Row.of(Instant.ofEpochMilli(100_000), 0L), Row.of(Instant.ofEpochMilli(100_333), 1L),
                Row.of(Instant.ofEpochMilli(100_667), 2L), Row.of(Instant.ofEpochMilli(101_000), 3L),
                Row.of(Instant.ofEpochMilli(101_333), 4L), Row.of(Instant.ofEpochMilli(101_667), 5L));
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo("2");

        // A restart much later continues from second 2 of the stored creation time.
        clock.advance(1_000);
        StreamingQuery again = rate().start();
        await().until(() -> MemorySink.rows(table).size() == 9 && clock.isWaiting());
        again.stop();
        assertThat(sorted(MemorySink.rows(table)).subList(6, 9)).containsExactly(
                Row.of(Instant.ofEpochMilli(102_000), 6L), Row.of(Instant.ofEpochMilli(102_333), 7L),
                Row.of(Instant.ofEpochMilli(102_667), 8L));
    }

    private DataStreamWriter rate() {
        return sluice.readStream().format("rate").option("rowsPerSecond", 3).option("numPartitions", 1).load()
                .writeStream().format("memory").queryName(table).option("checkpointLocation", tmp.toString())
                .trigger(Trigger.processingTime(1000));
    }

    @Test
    void memoryStreamBlocksBecomeBatchesInOrder() throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("id long, name string"));
        try {
            input.addData(Row.of(1L, "a"), Row.of(2L, "b"));
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("memory").queryName(table).start();
            q.processAllAvailable();
            input.addData(Row.of(3L, null));
            q.processAllAvailable();
            q.stop();
            assertThat(MemorySink.batches(table)).isEqualTo(Map.of(
                    0L, List.of(Row.of(1L, "a"), Row.of(2L, "b")),
                    1L, List.of(Row.of(3L, null))));
        } finally {
            input.unregister();
        }
    }

    private static List<Row> sorted(List<Row> rows) {
        return rows.stream().sorted((a, b) -> Long.compare(a.getLong(1), b.getLong(1))).toList();
    }

    @Test
    void aRefusedDuplicateNameLeavesTheRunningQuerysMemoryTableAndNoTemporaryFolder() throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("id long"));
        try {
            input.addData(Row.of(1L));
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("memory").queryName(table).start();
            q.processAllAvailable();
            long tempFolders = countTemporaryCheckpoints();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> sluice.readStream().format("memory")
                    .option("name", input.name()).load().writeStream().format("memory").queryName(table).start())
                    .hasMessage("Cannot start query with name " + table + " as a query with that name is already "
                            + "active in this Sluice instance");
            assertThat(countTemporaryCheckpoints()).isEqualTo(tempFolders);
            input.addData(Row.of(2L));
            q.processAllAvailable();
            q.stop();
            assertThat(MemorySink.rows(table)).containsExactly(Row.of(1L), Row.of(2L));
        } finally {
            input.unregister();
        }
    }

    private static long countTemporaryCheckpoints() throws java.io.IOException {
        try (var s = java.nio.file.Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("sluice-temporary-checkpoint-")).count();
        }
    }
}
