package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Iceberg source on tables written with Iceberg's Java API: exact rows, snapshot ids and offsets. */
class IcebergSourceTest {
    @TempDir
    Path tmp;
    private Sluice sluice;
    private Table table;
    private String sink;

    @BeforeEach
    void setUp() {
        sluice = Sluice.builder().parallelism(2).build();
        table = TestTables.create(tmp.resolve("t"));
        sink = "ice_" + UUID.randomUUID().toString().replace('-', '_');
    }

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(sink);
    }

    private StreamingQuery run(Map<String, String> options) throws Exception {
        StreamingQuery q = sluice.readStream().format("iceberg").options(options).load(tmp.resolve("t").toString())
                .writeStream().format("memory").queryName(sink)
                .option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        return q;
    }

    private static String offset(long snapshot, long position) {
        return "{\"version\":1,\"snapshot_id\":" + snapshot + ",\"position\":" + position + ",\"scan_all_files\":false}";
    }

    private List<String> endOffsets(StreamingQuery q) {
        return q.recentProgress().stream().filter(p -> p.numInputRows() > 0 || p.batchId() >= 0)
                .map(p -> p.sources().get(0).endOffset()).toList();
    }

    @Test
    void streamsEverySnapshotsAddedFilesInOrderAndResumesAfterARestart() throws Exception {
        long s1 = TestTables.append(table, 1, 3);
        long s2 = TestTables.append(table, 4, 5);
        StreamingQuery q = run(Map.of());
        assertThat(MemorySink.rows(sink)).containsExactly(Row.of(1L, "n1"), Row.of(2L, "n2"), Row.of(3L, "n3"),
                Row.of(4L, "n4"), Row.of(5L, "n5"));
        assertThat(q.lastProgress().sources().get(0).startOffset()).isNull();
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo(offset(s2, 1));
        assertThat(tmp.resolve("chk/sources/0/initial-offset.json")).content().isEqualTo(offset(s1, 0));

        long s3 = TestTables.append(table, 6, 6);
        StreamingQuery again = run(Map.of("stream-from-timestamp", Long.toString(Long.MAX_VALUE)));
        assertThat(MemorySink.batches(sink).get(1L)).containsExactly(Row.of(6L, "n6"));
        assertThat(again.lastProgress().sources().get(0).startOffset()).isEqualTo(offset(s2, 1));
        assertThat(again.lastProgress().sources().get(0).endOffset()).isEqualTo(offset(s3, 1));
    }

    @Test
    void maxFilesAndMaxRowsPerMicroBatchSplitSnapshotsByFile() throws Exception {
        DataFile a = TestTables.file(table, 1, 2);
        DataFile b = TestTables.file(table, 3, 4);
        DataFile c = TestTables.file(table, 5, 6);
        long s1 = TestTables.append(table, a, b, c);
        long s2 = TestTables.append(table, 7, 7);
        StreamingQuery q = run(Map.of("streaming-max-files-per-micro-batch", "2"));
        assertThat(MemorySink.batches(sink)).hasSize(2);
        assertThat(TestTables.ids(MemorySink.batches(sink).get(0L))).containsExactly(1L, 2L, 3L, 4L);
        assertThat(TestTables.ids(MemorySink.batches(sink).get(1L))).containsExactly(5L, 6L, 7L);
        assertThat(q.recentProgress().stream().map(p -> p.sources().get(0).endOffset()))
                .containsExactly(offset(s1, 2), offset(s2, 1));

        sluice.close();
        sluice = Sluice.builder().parallelism(2).build();
        MemorySink.clear(sink);
        java.nio.file.Files.walk(tmp.resolve("chk")).sorted(java.util.Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        // rows are soft: a file is taken whole, the batch ends at the file that reaches the limit
        StreamingQuery rows = run(Map.of("streaming-max-rows-per-micro-batch", "3"));
        assertThat(rows.recentProgress().stream().map(p -> p.sources().get(0).endOffset()))
                .containsExactly(offset(s1, 2), offset(s2, 1));
        assertThat(rows.recentProgress().stream().map(p -> p.numInputRows())).containsExactly(4L, 3L);
    }

    @Test
    void deleteAndOverwriteSnapshotsFailUnlessSkipped() throws Exception {
        DataFile a = TestTables.file(table, 1, 2);
        TestTables.append(table, a);
        table.newDelete().deleteFile(a).commit();
        long delete = table.currentSnapshot().snapshotId();
        TestTables.append(table, 3, 3);
        assertThatThrownBy(() -> run(Map.of())).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(IllegalStateException.class)
                .hasMessage("Cannot process delete snapshot: " + delete + ", to ignore deletes, set "
                        + "streaming-skip-delete-snapshots=true");
        assertThat(MemorySink.rows(sink)).isEmpty();

        java.nio.file.Files.walk(tmp.resolve("chk")).sorted(java.util.Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        run(Map.of("streaming-skip-delete-snapshots", "true"));
        assertThat(TestTables.ids(MemorySink.rows(sink))).containsExactly(1L, 2L, 3L);

        DataFile b = TestTables.file(table, 10, 10);
        table.newOverwrite().deleteFile(a == null ? b : table.currentSnapshot().addedDataFiles(table.io())
                .iterator().next()).addFile(b).commit();
        long overwrite = table.currentSnapshot().snapshotId();
        assertThatThrownBy(() -> run(Map.of("streaming-skip-delete-snapshots", "true")))
                .cause().hasMessage("Cannot process overwrite snapshot: " + overwrite + ", to ignore overwrites, set "
                        + "streaming-skip-overwrite-snapshots=true");
        TestTables.append(table, 11, 11);
        run(Map.of("streaming-skip-delete-snapshots", "true", "streaming-skip-overwrite-snapshots", "true"));
        assertThat(TestTables.ids(MemorySink.rows(sink))).containsExactly(1L, 2L, 3L, 11L);
    }

    @Test
    void anExpiredSnapshotTheCheckpointPointsAtIsReported() throws Exception {
        long s1 = TestTables.append(table, 1, 1);
        run(Map.of());
        TestTables.append(table, 2, 2);
        TestTables.append(table, 3, 3);
        table.expireSnapshots().expireSnapshotId(s1).commit();
        assertThatThrownBy(() -> run(Map.of())).cause().isInstanceOf(IllegalStateException.class)
                .hasMessage("Cannot load current offset at snapshot " + s1 + ", the snapshot was expired or removed");
    }

    @Test
    void streamFromTimestampStartsAtTheFirstSnapshotAtOrAfterIt() throws Exception {
        TestTables.append(table, 1, 1);
        long s2 = TestTables.append(table, 2, 2);
        long at = table.snapshot(s2).timestampMillis();
        StreamingQuery q = run(Map.of("stream-from-timestamp", Long.toString(at)));
        assertThat(MemorySink.rows(sink)).containsExactly(Row.of(2L, "n2"));
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo(offset(s2, 1));
        // after the last snapshot: nothing yet
        MemorySink.clear(sink);
        java.nio.file.Files.walk(tmp.resolve("chk")).sorted(java.util.Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        run(Map.of("stream-from-timestamp", Long.toString(at + 60_000)));
        assertThat(MemorySink.rows(sink)).isEmpty();
    }

    @Test
    void aBoundedReadReadsTheCurrentSnapshot() throws Exception {
        DataFile a = TestTables.file(table, 1, 2);
        TestTables.append(table, a);
        TestTables.append(table, 3, 4);
        table.newDelete().deleteFile(a).commit();
        assertThat(TestTables.ids(sluice.read().format("iceberg").load(tmp.resolve("t").toString())
                .collectAsList())).containsExactly(3L, 4L);
        assertThat(sluice.read().format("iceberg").load(tmp.resolve("t").toString()).schema().toDDL())
                .isEqualTo("id BIGINT, name STRING");
    }

    @Test
    void optionsAreValidatedAndMisspeltNamesFlagged() {
        TestTables.append(table, 1, 1);
        String path = tmp.resolve("t").toString();
        assertThatThrownBy(() -> sluice.readStream().format("iceberg")
                .option("streaming-max-file-per-micro-batch", "1").load(path))
                .hasMessageContaining("streaming-max-files-per-micro-batch");
        assertThatThrownBy(() -> sluice.readStream().format("iceberg")
                .option("streaming-max-files-per-micro-batch", "0").load(path))
                .hasMessageContaining("streaming-max-files-per-micro-batch").hasMessageContaining("positive");
        assertThatThrownBy(() -> sluice.readStream().format("iceberg").load(tmp.resolve("none").toString()))
                .hasMessage("Table does not exist at location: " + tmp.resolve("none").toAbsolutePath());
        assertThatThrownBy(() -> sluice.readStream().format("iceberg").load())
                .hasMessageContaining("give the table either by path");
    }

    @Test
    void anEmptyTableGivesNoBatchUntilItsFirstSnapshot() throws Exception {
        StreamingQuery q = run(Map.of());
        assertThat(q.recentProgress().stream().filter(p -> p.numInputRows() > 0)).isEmpty();
        long s1 = TestTables.append(table, 1, 2);
        StreamingQuery next = run(Map.of());
        assertThat(TestTables.ids(MemorySink.rows(sink))).containsExactly(1L, 2L);
        assertThat(next.lastProgress().sources().get(0).endOffset()).isEqualTo(offset(s1, 1));
        assertThat(LongStream.of(s1)).isNotEmpty();
    }
}
