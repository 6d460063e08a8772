package io.sluice.core;

import io.sluice.api.Row;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Instant;
import java.util.List;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.window;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chain of two stateful operators (dropDuplicates then a windowed count) whose batch is logged and its state
 * committed but not its commit: the restart runs it again from every operator's state of the batch before, and the
 * output is the one a run without the crash gives. The scripted source replays any range; rows 1..N, row v at
 * 10:00:00 plus v DIV 2 seconds, so rows 2 and 3, 4 and 5... share their event time (the deduplication key).
 */
class ChainedStatefulRecoveryTest extends EngineTestBase {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    @Override
    Sluice newSluice(io.sluice.api.SluiceClock clock) {
        // Without no-data batches each run is one batch: the crash below removes the commit of the last one.
        return Sluice.builder().clock(clock).parallelism(2).config(StatefulExecution.NO_DATA_BATCHES, "false")
                .build().registerSource(new ScriptedSource()).registerSink(new RecordingSink());
    }

    private void run() throws Exception {
        StreamFrame f = scripted().load()
                .selectExpr("CAST(" + T0.getEpochSecond() + " + value DIV 2 AS TIMESTAMP) AS ts")
                .withWatermark("ts", "10 seconds").dropDuplicates("ts")
                .groupBy(window(col("ts"), "10 seconds")).count();
        StreamingQuery q = recording(f).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
    }

    private static Row win(int start, long count) {
        return Row.of(Row.of(T0.plusSeconds(start), T0.plusSeconds(start + 10)), count);
    }

    @Test
    void aReRunBatchStartsFromEveryOperatorsStateOfTheBatchBefore() throws Exception {
        source.add(10);   // batch 0: seconds 0..5, 6 distinct
        run();
        source.add(20);   // batch 1: seconds 5..15, 5 a duplicate: [0,10) 10, [10,20) 6; wm -> 5 s
        run();
        source.add(20);   // batch 2: seconds 15..25: [10,20) 10, [20,30) 6; wm -> 15 s
        run();
        assertThat(sink.committed.keySet()).containsExactly(0L, 1L, 2L);
        Files.delete(checkpoint.resolve("commits/2"));
        sink.committed.remove(2L);
        run();            // batch 2 again, from state version 2 of both operators
        source.add(12);   // batch 3 (wm 15 s): emits [0,10); seconds 25..31; wm -> 21 s
        run();
        source.add(2);    // batch 4 (wm 21 s): emits [10,20)
        run();
        assertThat(sink.committed.get(3L)).containsExactly(win(0, 10L));
        assertThat(sink.committed.get(4L)).containsExactly(win(10, 10L));
        assertThat(sink.committed.get(2L)).isEmpty();
        assertThat(Files.exists(checkpoint.resolve("state/1/0/3.delta"))).isTrue();
    }
}
