package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A query with two sources, as a union will build it: the public API cannot express one yet, so the test starts
 * the engine through its package-private path ({@code MicroBatchExecution.start} with a two-source
 * {@code QuerySpec}). The checkpoint is Spark's layout for several sources: one line per source in
 * {@code offsets/N}, in source order, and one folder per source under {@code sources/}.
 */
class MultiSourceQueryTest extends EngineTestBase {
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

    /** Both scripted sources (the second starting at offset 10) into the recording sink, availableNow. */
    private StreamingQuery startBoth() throws Exception {
        ScriptedSource provider = new ScriptedSource();
        List<DataStreamReader.SourceSpec> sources = List.of(
                new DataStreamReader.SourceSpec(provider, Options.of(Map.of("name", name)), ScriptedSource.SCHEMA),
                new DataStreamReader.SourceSpec(provider,
                        Options.of(Map.of("name", secondName, "startingOffset", "10")), ScriptedSource.SCHEMA));
        DataStreamWriter.QuerySpec spec = new DataStreamWriter.QuerySpec(null, sources, ScriptedSource.SCHEMA, null,
                new RecordingSink(), Options.of(Map.of("name", name, "checkpointLocation", checkpoint.toString())),
                Trigger.availableNow(), checkpoint, DataStreamWriter.DEFAULT_MIN_BATCHES_TO_RETAIN);
        StreamingQuery q = MicroBatchExecution.start(sluice, spec);
        q.awaitTermination();
        return q;
    }

    /** {@code offsets/N} without its metadata line (the batch's time): the version, then one line per source. */
    private List<String> offsetLines(long batch) throws Exception {
        List<String> lines = new ArrayList<>(List.of(read("offsets/" + batch).split("\n", -1)));
        assertThat(lines.remove(1)).matches("\\{\"batchWatermarkMs\":0,\"batchTimestampMs\":[0-9]+,\"conf\":\\{}}");
        return lines;
    }

    @Test
    void logsOneOffsetPerSourceInSourceOrderAndGivesEachSourceItsFolder() throws Exception {
        source.add(3);
        second.add(15);

        StreamingQuery first = startBoth();

        assertThat(offsetLines(0)).containsExactly("v1", "3", "15");
        assertThat(read("commits/0")).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
        assertThat(Files.isDirectory(checkpoint.resolve("sources/0"))).isTrue();
        assertThat(Files.isDirectory(checkpoint.resolve("sources/1"))).isTrue();
        CheckpointView view = CheckpointView.open(checkpoint);
        assertThat(view.batches().get(0).offsets().sources()).containsExactly("3", "15");
        assertThat(view.sourceFolders()).extracting(CheckpointView.SourceFolder::index).containsExactly(0, 1);
        List<Row> expected = new ArrayList<>(rows(1, 3));
        expected.addAll(rows(11, 15));
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(expected);
        List<SourceProgress> progress = first.lastProgress().sources();
        assertThat(progress).extracting(SourceProgress::startOffset, SourceProgress::endOffset,
                SourceProgress::numInputRows).containsExactly(
                org.assertj.core.groups.Tuple.tuple(null, "3", 3L),
                org.assertj.core.groups.Tuple.tuple(null, "15", 5L));
        assertThat(source.calls()).contains("planPartitions(0,3)", "commit(3)");
        assertThat(second.calls()).contains("planPartitions(10,15)", "commit(15)");

        // Only the first source moves: the second keeps its logged offset, is not read and releases nothing.
        source.add(2);
        second.calls.clear();
        StreamingQuery next = startBoth();

        assertThat(offsetLines(1)).containsExactly("v1", "5", "15");
        assertThat(sink.committed.get(1L)).containsExactlyElementsOf(rows(4, 5));
        assertThat(next.lastProgress().sources()).extracting(SourceProgress::startOffset,
                SourceProgress::endOffset, SourceProgress::numInputRows).containsExactly(
                org.assertj.core.groups.Tuple.tuple("3", "5", 2L),
                org.assertj.core.groups.Tuple.tuple("15", "15", 0L));
        // Released again on resume (as after a crash between commits/0 and the release), then only asked.
        assertThat(second.calls()).containsExactly("commit(15)", "prepareForTriggerAvailableNow", "latestOffset(15)",
                "latestOffset(15)", "stop");
    }

    @Test
    void aBatchLoggedButNotCommittedIsReRunWithEachSourcesLoggedRange() throws Exception {
        source.add(3);
        second.add(12);
        startBoth();
        source.add(2);
        second.add(1);
        startBoth();
        Files.delete(checkpoint.resolve("commits/1"));
        source.add(100); // not read by the re-run: its range is the logged one
        second.calls.clear();

        startBoth();

        assertThat(offsetLines(1)).containsExactly("v1", "5", "13");
        assertThat(sink.committed.get(1L)).containsExactlyInAnyOrderElementsOf(List.of(Row.of(4L), Row.of(5L),
                Row.of(13L)));
        assertThat(second.calls()).contains("planPartitions(12,13)");
        assertThat(sink.committed).containsKeys(0L, 1L, 2L); // then batch 2 takes the rest of the first source
        assertThat(offsetLines(2)).containsExactly("v1", "105", "13");
    }
}
