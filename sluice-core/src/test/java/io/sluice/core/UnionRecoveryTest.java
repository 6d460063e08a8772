package io.sluice.core;

import io.sluice.api.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A union's batch logged but not committed is re-run, after a restart, with each input's logged range, through
 * the public API (scripted sources, which can replay any range; the second starts at offset 10).
 */
class UnionRecoveryTest extends EngineTestBase {
    private String secondName;
    private ScriptedSource.State second;

    @BeforeEach
    void setUpSecond() {
        secondName = name + "-second";
        second = ScriptedSource.state(secondName);
    }

    @AfterEach
    void resetSecond() {
        ScriptedSource.reset(secondName);
    }

    private StreamingQuery runBoth() throws Exception {
        StreamFrame other = sluice.readStream().format("scripted").option("name", secondName)
                .option("startingOffset", "10").load().selectExpr("value * 100 AS value");
        StreamingQuery q = recording(scripted().load().union(other)).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        return q;
    }

    private List<String> offsetLines(long batch) throws Exception {
        List<String> lines = new ArrayList<>(List.of(read("offsets/" + batch).split("\n", -1)));
        lines.remove(1);
        return lines;
    }

    @Test
    void aLoggedBatchIsReRunWithEveryInputsLoggedRangeAndItsOwnSteps() throws Exception {
        source.add(2);
        second.add(11);
        runBoth();
        source.add(1);
        second.add(2);
        runBoth();
        assertThat(offsetLines(1)).containsExactly("v1", "3", "13");
        Files.delete(checkpoint.resolve("commits/1"));
        sink.committed.remove(1L);
        source.add(4); // beyond the logged range: batch 2's
        second.calls.clear();

        runBoth();

        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L), Row.of(1100L));
        assertThat(sink.committed.get(1L)).containsExactlyInAnyOrder(Row.of(3L), Row.of(1200L), Row.of(1300L));
        assertThat(second.calls()).contains("planPartitions(11,13)");
        assertThat(offsetLines(2)).containsExactly("v1", "7", "13");
        assertThat(sink.committed.get(2L)).containsExactlyInAnyOrderElementsOf(rows(4, 7));
    }
}
