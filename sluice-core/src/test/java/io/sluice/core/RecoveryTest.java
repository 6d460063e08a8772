package io.sluice.core;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each case of the recovery table in the spec (populateStartOffsets). */
class RecoveryTest extends EngineTestBase {

    private StreamingQuery runToCompletion(DataStreamWriter w) throws Exception {
        StreamingQuery q = w.start();
        q.processAllAvailable();
        q.stop();
        return q;
    }

    @Test
    void lastBatchCommittedResumesWithTheNextBatchFromItsEnd() throws Exception {
        source.add(10);
        runToCompletion(recording(scripted().load()));
        source.add(3);
        source.calls.clear();

        runToCompletion(recording(scripted().load()));

        assertThat(sink.committed).containsOnlyKeys(0L, 1L);
        assertThat(sink.committed.get(1L)).containsExactlyInAnyOrderElementsOf(rows(11, 13));
        // No initial offset on a restart; batch 0's end is released again in case a crash skipped it.
        assertThat(source.calls().subList(0, 4))
                .containsExactly("commit(10)", "latestOffset(10)", "planPartitions(10,13)", "commit(13)");
        assertThat(source.calls()).doesNotContain("initialOffset");
    }

    @Test
    void batchLoggedButNotCommittedIsReRunWithExactlyItsLoggedRange() throws Exception {
        source.add(10);
        runToCompletion(recording(scripted().load()));
        source.add(5);
        runToCompletion(recording(scripted().load()));
        String logged = read("offsets/1");
        // A crash after offsets/1 and the sink, before commits/1.
        Files.delete(checkpoint.resolve("commits/1"));
        source.add(100); // more data now: the re-run must not take it
        source.calls.clear();
        sink.begun.clear();

        runToCompletion(recording(scripted().load()));

        assertThat(source.calls().get(0)).isEqualTo("planPartitions(10,15)");
        assertThat(source.calls().subList(0, 3))
                .containsExactly("planPartitions(10,15)", "commit(15)", "latestOffset(15)");
        assertThat(read("offsets/1")).isEqualTo(logged);
        assertThat(sink.begun).startsWith(1L, 2L);
        assertThat(sink.committed.get(1L)).containsExactlyInAnyOrderElementsOf(rows(11, 15));
        assertThat(sink.committed.get(2L)).containsExactlyInAnyOrderElementsOf(rows(16, 115));
        assertThat(sink.allRows()).hasSize(115).doesNotHaveDuplicates();
    }

    @Test
    void firstBatchLoggedButNotCommittedIsReRunFromTheInitialOffset() throws Exception {
        source.add(10);
        runToCompletion(recording(scripted().option("startingOffset", "2").load()));
        Files.delete(checkpoint.resolve("commits/0"));
        source.calls.clear();

        runToCompletion(recording(scripted().option("startingOffset", "2").load()));

        assertThat(source.calls().subList(0, 3)).containsExactly("initialOffset", "planPartitions(2,10)", "commit(10)");
        assertThat(sink.committed).containsOnlyKeys(0L);
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(rows(3, 10));
    }

    @Test
    void severalUncommittedBatchesReRunOnlyTheLatestLoggedOne() throws Exception {
        source.add(9);
        runToCompletion(recording(scripted().option("maxRowsPerTrigger", "3").load()));
        Files.delete(checkpoint.resolve("commits/1"));
        Files.delete(checkpoint.resolve("commits/2"));
        source.calls.clear();
        sink.begun.clear();

        runToCompletion(recording(scripted().option("maxRowsPerTrigger", "3").load()));

        assertThat(source.calls().get(0)).isEqualTo("planPartitions(6,9)");
        assertThat(sink.begun).containsExactly(2L);
        assertThat(read("commits/2")).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
    }

    @Test
    void startingOptionsApplyOnlyToAnEmptyCheckpoint() throws Exception {
        source.add(10);
        runToCompletion(recording(scripted().option("startingOffset", "5").load()));
        assertThat(sink.allRows()).containsExactlyInAnyOrderElementsOf(rows(6, 10));
        source.add(2);

        runToCompletion(recording(scripted().option("startingOffset", "0").load()));

        assertThat(sink.allRows()).containsExactlyInAnyOrderElementsOf(rows(6, 12));
    }

    @Test
    void aFailedBatchIsReRunOnRestartAndTheSinkHoldsItOnce() throws Exception {
        source.add(10);
        source.failReadingAtRow = 7;
        StreamingQuery q = recording(scripted().option("numPartitions", "1").load()).start();
        assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
                .hasMessageContaining("scripted read failure at row 7")
                .hasRootCauseMessage("scripted read failure at row 7");
        assertThat(exists("offsets/0")).isTrue();
        assertThat(exists("commits/0")).isFalse();
        assertThat(sink.aborted).containsExactly(0L);
        assertThat(sink.committed).isEmpty();

        source.failReadingAtRow = -1;
        runToCompletion(recording(scripted().option("numPartitions", "1").load()));

        assertThat(sink.begun).containsExactly(0L, 0L);
        assertThat(sink.committed).containsOnlyKeys(0L);
        assertThat(sink.committed.get(0L)).isEqualTo(rows(1, 10));
        assertThat(exists("commits/0")).isTrue();
    }

    @Test
    void aCorruptLatestOffsetFileFailsStartNamingTheFile() throws Exception {
        source.add(10);
        runToCompletion(recording(scripted().load()));
        Files.writeString(checkpoint.resolve("offsets/0"), "v1\n{\"batchWatermarkMs\":0,");

        assertThatThrownBy(() -> recording(scripted().load()).start())
                .hasMessageContaining(checkpoint.resolve("offsets/0").toAbsolutePath().toString());
        assertThat(sluice.activeQueries()).isEmpty();
        // The failed start released the lock: a repaired checkpoint starts.
        Files.delete(checkpoint.resolve("offsets/0"));
        Files.delete(checkpoint.resolve("commits/0"));
        runToCompletion(recording(scripted().load()));
        assertThat(sink.committed.get(0L)).hasSize(10);
    }

    @Test
    void aCheckpointWithAnotherNumberOfSourcesIsRefused() throws Exception {
        source.add(1);
        runToCompletion(recording(scripted().load()));
        Files.writeString(checkpoint.resolve("offsets/1"),
                "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1,\"conf\":{}}\n1\n1");
        assertThatThrownBy(() -> recording(scripted().load()).start()).isInstanceOf(IllegalStateException.class)
                .hasMessage("There are [2] sources in the checkpoint offsets and now there are [1] sources "
                        + "requested by the query. Cannot continue. (The checkpoint " + checkpoint + ", batch 1: a "
                        + "checkpoint belongs to one query; use a new checkpointLocation for a changed query.)");
        assertThat(sluice.activeQueries()).isEmpty();
    }
}
