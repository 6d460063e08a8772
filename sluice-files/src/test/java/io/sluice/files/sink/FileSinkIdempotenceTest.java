package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.types.StructType;
import io.sluice.core.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Re-runs and crashes at each step of a batch: the manifest always lists exactly one set of files per batch. */
class FileSinkIdempotenceTest {
    private static final StructType SCHEMA = StructType.fromDDL("id long");
    private static final List<List<Row>> BATCH_0 = List.of(List.of(Row.of(1L), Row.of(2L)), List.of(Row.of(3L)));

    @TempDir
    Path out;
    private final ManualClock clock = new ManualClock(1_000_000L);

    /** A new sink instance, as a restarted query gets. */
    private Sink start() {
        return SinkHarness.sink("json", SinkHarness.options(out), SCHEMA, clock);
    }

    private Path staging() {
        return out.resolve(FileSink.STAGING_DIR).resolve(SinkHarness.QUERY_ID);
    }

    private List<String> staged() throws Exception {
        return Files.exists(staging()) ? SinkHarness.allFiles(staging()) : List.of();
    }

    @Test
    void filesAreHiddenUntilTheBatchCommits() throws Exception {
        Sink sink = start();
        BatchWriter w = sink.beginBatch(0);
        List<Object> results = SinkHarness.writePartitions(w, BATCH_0);
        assertThat(SinkHarness.visibleFiles(out)).isEmpty();
        assertThat(staged()).hasSize(2);
        assertThat(Files.exists(out.resolve("_spark_metadata/0"))).isFalse();

        w.commit(results);
        assertThat(SinkHarness.visibleFiles(out)).hasSize(2);
        assertThat(SinkHarness.manifestFiles(out)).containsExactlyInAnyOrderElementsOf(SinkHarness.visibleFiles(out));
        assertThat(staged()).isEmpty();
        assertThat(Files.readString(out.resolve("_spark_metadata/0"))).startsWith("v1\n{\"path\":\"file://" + out
                + "/part-00000-");
    }

    @Test
    void reRunningACommittedBatchWritesNothing() throws Exception {
        SinkHarness.batch(start(), 0, BATCH_0);
        String manifest = Files.readString(out.resolve("_spark_metadata/0"));
        List<String> files = SinkHarness.visibleFiles(out);

        // The engine crashed before commits/0: the restarted query re-runs batch 0 with the same rows.
        Sink restarted = start();
        SinkHarness.batch(restarted, 0, BATCH_0);
        assertThat(SinkHarness.visibleFiles(out)).isEqualTo(files);
        assertThat(Files.readString(out.resolve("_spark_metadata/0"))).isEqualTo(manifest);
        assertThat(SinkHarness.allFiles(out.resolve("_spark_metadata"))).containsExactly("0");

        SinkHarness.batch(restarted, 1, List.of(List.of(Row.of(4L))));
        assertThat(SinkHarness.manifestFiles(out)).hasSize(3)
                .containsExactlyInAnyOrderElementsOf(SinkHarness.visibleFiles(out));
    }

    @Test
    void aCrashBeforeTheCommitLeavesNoManifestEntryAndTheReRunWritesOneSet() throws Exception {
        SinkHarness.batch(start(), 0, BATCH_0);
        Sink sink = start();
        BatchWriter w = sink.beginBatch(1);
        SinkHarness.writePartitions(w, List.of(List.of(Row.of(10L)), List.of(Row.of(11L))));
        // The process dies here: neither commit nor abort runs.
        assertThat(FileSinkManifest.latestBatchId(out)).hasValue(0);
        assertThat(SinkHarness.manifestFiles(out)).hasSize(2);
        assertThat(SinkHarness.visibleFiles(out)).hasSize(2);

        Sink restarted = start();
        assertThat(staged()).isEmpty();
        SinkHarness.batch(restarted, 1, List.of(List.of(Row.of(10L)), List.of(Row.of(11L))));
        assertThat(FileSinkManifest.batch(out, 1)).hasSize(2);
        assertThat(SinkHarness.manifestFiles(out)).hasSize(4)
                .containsExactlyInAnyOrderElementsOf(SinkHarness.visibleFiles(out));
    }

    @Test
    void anAbortedBatchRemovesItsFiles() throws Exception {
        Sink sink = start();
        BatchWriter w = sink.beginBatch(0);
        PartitionWriter ok = w.partitionWriter(0);
        ok.write(Row.of(1L));
        ok.commit();
        PartitionWriter failing = w.partitionWriter(1);
        failing.write(Row.of(2L));
        failing.abort();
        w.abort(new IllegalStateException("reading failed"));
        assertThat(SinkHarness.allFiles(out)).containsExactly(".sluice-sink/lock", ".sluice-sink/owner");

        SinkHarness.batch(sink, 0, BATCH_0);
        assertThat(SinkHarness.manifestFiles(out)).hasSize(2);
    }

    @Test
    void filesMovedIntoPlaceByACrashedAttemptAreDeletedOnRestart() throws Exception {
        SinkHarness.batch(start(), 0, BATCH_0);
        // As if a crash came between renaming batch 1's files and writing its manifest.
        Files.createDirectories(staging());
        Files.writeString(staging().resolve("1.moving"), "part-00000-orphan-c000.json\nk=x/part-00001-o-c000.json\n");
        Files.writeString(out.resolve("part-00000-orphan-c000.json"), "{\"id\":99}\n");
        Files.createDirectories(out.resolve("k=x"));
        Files.writeString(out.resolve("k=x/part-00001-o-c000.json"), "{\"id\":98}\n");
        // And a batch whose manifest was written before the crash: its files stay.
        Path committed = out.resolve(SinkHarness.manifestFiles(out).get(0));
        Files.writeString(staging().resolve("0.moving"), out.relativize(committed) + "\n");

        start();
        assertThat(Files.exists(out.resolve("part-00000-orphan-c000.json"))).isFalse();
        assertThat(Files.exists(out.resolve("k=x/part-00001-o-c000.json"))).isFalse();
        assertThat(Files.exists(committed)).isTrue();
        assertThat(staged()).isEmpty();
        assertThat(SinkHarness.visibleFiles(out)).containsExactlyInAnyOrderElementsOf(SinkHarness.manifestFiles(out));
    }

    @Test
    void aBatchWithNoRowsRecordsAnEmptyManifest() throws Exception {
        SinkHarness.batch(start(), 0, List.of(List.of(), List.of()));
        assertThat(Files.readString(out.resolve("_spark_metadata/0"), StandardCharsets.UTF_8)).isEqualTo("v1");
        assertThat(SinkHarness.visibleFiles(out)).isEmpty();
    }
}
