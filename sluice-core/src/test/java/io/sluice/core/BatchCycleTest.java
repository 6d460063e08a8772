package io.sluice.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BatchCycleTest extends EngineTestBase {

    @Test
    void runsOneBatchPerTriggerWithNewDataAndWritesTheLogsInSparksFormat() throws Exception {
        source.add(10);
        StreamingQuery q = recording(scripted().load()).start();
        q.processAllAvailable();
        source.add(5);
        q.processAllAvailable();
        q.stop();

        assertThat(sink.committed).containsOnlyKeys(0L, 1L);
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(rows(1, 10));
        assertThat(sink.committed.get(1L)).containsExactlyInAnyOrderElementsOf(rows(11, 15));

        String offsets0 = read("offsets/0");
        assertThat(offsets0.split("\n", -1)).hasSize(3);
        assertThat(offsets0).startsWith("v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":").endsWith(",\"conf\":{}}\n10");
        assertThat(read("offsets/1")).endsWith("}\n15");
        assertThat(read("commits/0")).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
        assertThat(read("commits/1")).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
        assertThat(read("metadata")).matches("\\{\"id\":\"" + q.id() + "\"}");
    }

    @Test
    void callsTheSourceInTheOrderOfTheBatchCycle() throws Exception {
        source.add(4);
        StreamingQuery q = recording(scripted().option("numPartitions", "1").load()).start();
        q.processAllAvailable();
        q.stop();

        List<String> calls = source.calls();
        // Batch 0: start from the initial offset, plan, and release the data only after commits/0.
        assertThat(calls.subList(0, 4)).containsExactly(
                "initialOffset", "latestOffset(0)", "planPartitions(0,4)", "commit(4)");
        // Then only empty triggers (polling) until the stop.
        assertThat(calls.subList(4, calls.size() - 1)).isNotEmpty().containsOnly("latestOffset(4)");
        assertThat(calls.get(calls.size() - 1)).isEqualTo("stop");
    }

    @Test
    void skipsTriggersWithoutNewDataWithoutWritingAnything() throws Exception {
        StreamingQuery q = recording(scripted().load()).start();
        q.processAllAvailable();
        q.processAllAvailable();
        q.stop();
        assertThat(checkpoint.resolve("offsets")).isEmptyDirectory();
        assertThat(sink.begun).isEmpty();
        assertThat(q.recentProgress()).isEmpty();
    }

    @Test
    void readsPartitionsInParallelOnTheNamedReaderPool() throws Exception {
        source.add(100);
        StreamingQuery q = recording(scripted().option("numPartitions", "4").load()).start();
        q.processAllAvailable();
        q.stop();
        assertThat(source.readerThreads).hasSize(4).allMatch(t -> t.startsWith("sluice-reader-"));
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(rows(1, 100));
    }

    @Test
    void honoursTheSourcesReadLimitBatchByBatch() throws Exception {
        source.add(10);
        StreamingQuery q = recording(scripted().option("maxRowsPerTrigger", "4").load()).start();
        q.processAllAvailable();
        q.stop();
        assertThat(sink.committed).containsOnlyKeys(0L, 1L, 2L);
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(rows(1, 4));
        assertThat(sink.committed.get(1L)).containsExactlyInAnyOrderElementsOf(rows(5, 8));
        assertThat(sink.committed.get(2L)).containsExactlyInAnyOrderElementsOf(rows(9, 10));
        assertThat(q.recentProgress()).extracting(p -> p.sources().get(0).endOffset())
                .containsExactly("4", "8", "10");
    }

    @Test
    void purgesOldLogEntriesKeepingMinBatchesToRetain() throws Exception {
        source.add(10);
        StreamingQuery q = recording(scripted().option("maxRowsPerTrigger", "1").load())
                .option("minBatchesToRetain", "3").start();
        q.processAllAvailable();
        q.stop();
        assertThat(sink.committed).hasSize(10);
        // As Spark: after logging batch N, entries below N - minBatchesToRetain go.
        assertThat(checkpoint.resolve("offsets").toFile().list()).containsExactlyInAnyOrder("6", "7", "8", "9");
        assertThat(checkpoint.resolve("commits").toFile().list()).containsExactlyInAnyOrder("6", "7", "8", "9");
    }
}
