package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.StructType;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability (issue 14, item 9): two queries (two checkpoints) on one sink folder. The second is refused at start
 * with both query ids and the way out, whether the first is running or not; a batch that finds its manifest file
 * written by another writer deletes the files it would have renamed (no orphans).
 */
class FileSinkSharedFolderReliabilityTest {
    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.local();

    @AfterEach
    void close() {
        sluice.close();
    }

    private StreamingQuery start(String checkpoint, Trigger trigger) throws Exception {
        Files.createDirectories(tmp.resolve("in"));
        return sluice.readStream().format("json").schema("id long").load(tmp.resolve("in").toString())
                .writeStream().format("json").option("checkpointLocation", tmp.resolve(checkpoint).toString())
                .trigger(trigger).start(tmp.resolve("out").toString());
    }

    private static String queryId(StreamingQuery q) {
        return q.id().toString();
    }

    @Test
    void aSecondQueryOnAFolderThatHoldsAnotherQuerysBatchesIsRefused() throws Exception {
        Files.createDirectories(tmp.resolve("in"));
        Files.writeString(tmp.resolve("in/a.json"), "{\"id\":1}\n");
        StreamingQuery a = start("chk-a", Trigger.availableNow());
        a.awaitTermination();

        Path out = tmp.resolve("out");
        StreamingQuery[] b = new StreamingQuery[1];
        assertThatThrownBy(() -> b[0] = start("chk-b", Trigger.availableNow()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageMatching(Pattern.quote("The file sink's output folder " + out
                        + " belongs to query " + queryId(a) + " (" + out.resolve(".sluice-sink/owner") + "), but this "
                        + "query's checkpoint " + tmp.resolve("chk-b") + " has query id ") + "[0-9a-f-]{36}"
                        + Pattern.quote(". Two queries must not write one folder: they share the "
                        + "manifest's batch numbers, so one's batches would be skipped and their rows lost. Give this "
                        + "query its own path, or, to continue query " + queryId(a) + ", start it with its own "
                        + "checkpoint. If query " + queryId(a) + " is gone and its output is not needed, delete " + out
                        + " to start over."));
        // B's failed start left A's folder as it was, and A goes on.
        assertThat(SinkState.owner(out)).isEqualTo(queryId(a));
        Files.writeString(tmp.resolve("in/b.json"), "{\"id\":2}\n");
        start("chk-a", Trigger.availableNow()).awaitTermination();
        assertThat(FileSinkManifest.allFiles(out)).hasSize(2);
    }

    @Test
    void aSecondQueryWhileTheFirstRunsIsRefusedEvenBeforeAnyBatch() throws Exception {
        StreamingQuery a = start("chk-a", Trigger.processingTime(60_000));
        try {
            Path out = tmp.resolve("out");
            assertThatThrownBy(() -> start("chk-b", Trigger.availableNow()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("The file sink's output folder " + out + " is being written by query "
                            + queryId(a) + " (" + out.resolve(".sluice-sink/lock") + " is locked), and this query's "
                            + "checkpoint " + tmp.resolve("chk-b") + " has query id ")
                    .hasMessageEndingWith(". Two queries must not write one folder: they share the manifest's batch "
                            + "numbers, so one's batches would be skipped and their rows lost. Give this query its own "
                            + "path, or stop the other query first.");
            assertThat(a.isActive()).isTrue();
        } finally {
            a.stop();
        }
    }

    @Test
    void aFolderWhoseOwnerWroteNoBatchAndStoppedCanBeTakenOver() throws Exception {
        start("chk-a", Trigger.availableNow()).awaitTermination(); // no input: no batch
        Files.writeString(tmp.resolve("in/a.json"), "{\"id\":1}\n");

        StreamingQuery b = start("chk-b", Trigger.availableNow());
        b.awaitTermination();

        assertThat(SinkState.owner(tmp.resolve("out"))).isEqualTo(queryId(b));
        assertThat(FileSinkManifest.allFiles(tmp.resolve("out"))).hasSize(1);
    }

    @Test
    void aBatchWhoseManifestFileAnotherWriterCreatedLeavesNoOrphans() throws Exception {
        Path out = tmp.resolve("out");
        StructType schema = StructType.fromDDL("id long");
        JsonSinkProvider p = new JsonSinkProvider();
        try (Sink sink = p.createSink(new SinkContext(SinkHarness.options(out), schema, tmp.resolve("chk"),
                SinkHarness.QUERY_ID, null, new ManualClock(0)))) {
            BatchWriter w = sink.beginBatch(0);
            List<Object> results = SinkHarness.writePartitions(w, List.of(List.of(Row.of(1L)), List.of(Row.of(2L))));
            Files.writeString(out.resolve("_spark_metadata/0"), "v1"); // another writer's batch 0

            assertThatThrownBy(() -> w.commit(results)).isInstanceOf(IllegalStateException.class)
                    .hasMessage(out.resolve("_spark_metadata/0") + " already exists: another query wrote batch 0 "
                            + "into " + out + " while this one ran. Two queries must not write one folder: give each "
                            + "query its own path.");
            assertThat(SinkHarness.visibleFiles(out)).isEmpty();
        }
    }
}
