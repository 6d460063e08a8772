package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Row-level deletes (format v2 position and equality delete files, written with Iceberg's Java API) applied on read:
 * by bounded reads and by a snapshot scanned whole; a snapshot adding them is a delete snapshot to the stream, as in
 * iceberg-spark. Also Avro data files.
 */
class IcebergRowDeletesTest {
    @TempDir
    Path tmp;
    private Sluice sluice;
    private Table table;
    private String sink;

    @BeforeEach
    void setUp() {
        sluice = Sluice.builder().parallelism(2).build();
        table = new HadoopTables(new Configuration()).create(TestTables.SCHEMA, PartitionSpec.unpartitioned(),
                Map.of(TableProperties.FORMAT_VERSION, "2"), tmp.resolve("t").toString());
        sink = "ice_del_" + UUID.randomUUID().toString().replace('-', '_');
    }

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(sink);
    }

    /** Deletes rows at these positions of the file, in one row-delta commit (a "delete" snapshot). */
    private DeleteFile positionDeletes(DataFile of, long... positions) throws Exception {
        var out = table.io().newOutputFile(table.location() + "/data/pos-" + UUID.randomUUID() + ".parquet");
        PositionDeleteWriter<Record> w = new GenericAppenderFactory(table.schema(), table.spec())
                .newPosDeleteWriter(EncryptedFiles.plainAsEncryptedOutput(out), FileFormat.PARQUET, null);
        try (w) {
            for (long p : positions) {
                w.write(PositionDelete.<Record>create().set(of.location(), p, null));
            }
        }
        return w.toDeleteFile();
    }

    /** Deletes every row whose id is one of these. */
    private DeleteFile equalityDeletes(long... ids) throws Exception {
        Schema idOnly = table.schema().select("id");
        var out = table.io().newOutputFile(table.location() + "/data/eq-" + UUID.randomUUID() + ".parquet");
        EqualityDeleteWriter<Record> w = new GenericAppenderFactory(table.schema(), table.spec(), new int[] {1},
                idOnly, null).newEqDeleteWriter(EncryptedFiles.plainAsEncryptedOutput(out), FileFormat.PARQUET, null);
        try (w) {
            for (long id : ids) {
                GenericRecord r = GenericRecord.create(idOnly);
                r.setField("id", id);
                w.write(r);
            }
        }
        return w.toDeleteFile();
    }

    private List<Long> boundedIds() throws Exception {
        return TestTables.ids(sluice.read().format("iceberg").load(tmp.resolve("t").toString()).collectAsList());
    }

    private void stream(Map<String, String> options) throws Exception {
        StreamingQuery q = sluice.readStream().format("iceberg").options(options).load(tmp.resolve("t").toString())
                .writeStream().format("memory").queryName(sink)
                .option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start();
        q.awaitTermination();
    }

    @Test
    void aBoundedReadAppliesPositionAndEqualityDeletes() throws Exception {
        DataFile a = TestTables.file(table, 1, 5);
        TestTables.append(table, a);
        table.newRowDelta().addDeletes(positionDeletes(a, 0, 3)).commit();
        assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.DELETE);
        assertThat(boundedIds()).containsExactly(2L, 3L, 5L);

        TestTables.append(table, 6, 8);
        table.newRowDelta().addDeletes(equalityDeletes(3, 7)).commit();
        assertThat(boundedIds()).containsExactly(2L, 5L, 6L, 8L);
        // Rows appended after an equality delete (a higher sequence number) are not deleted by it.
        TestTables.append(table, 7, 7);
        assertThat(boundedIds()).containsExactly(2L, 5L, 6L, 7L, 8L);
    }

    @Test
    void aSnapshotAddingDeletesFailsTheStreamUnlessSkippedAndLaterAppendsAreReadWhole() throws Exception {
        DataFile a = TestTables.file(table, 1, 3);
        TestTables.append(table, a);
        table.newRowDelta().addDeletes(positionDeletes(a, 1)).commit();
        long deleteSnapshot = table.currentSnapshot().snapshotId();
        TestTables.append(table, 4, 5);

        assertThatThrownBy(() -> stream(Map.of())).hasMessageContaining("Cannot process delete snapshot: "
                + deleteSnapshot + ", to ignore deletes, set streaming-skip-delete-snapshots=true");
        MemorySink.clear(sink);
        deleteRecursively(tmp.resolve("chk"));

        stream(Map.of("streaming-skip-delete-snapshots", "true"));
        // As iceberg-spark: the rows appended before the delete were streamed then; the delete is not replayed.
        assertThat(MemorySink.rows(sink)).containsExactly(Row.of(1L, "n1"), Row.of(2L, "n2"), Row.of(3L, "n3"),
                Row.of(4L, "n4"), Row.of(5L, "n5"));
    }

    @Test
    void aDataAndDeleteCommitIsAnOverwriteSnapshot() throws Exception {
        DataFile a = TestTables.file(table, 1, 3);
        TestTables.append(table, a);
        table.newRowDelta().addRows(TestTables.file(table, 10, 10)).addDeletes(positionDeletes(a, 0)).commit();
        long overwrite = table.currentSnapshot().snapshotId();
        assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.OVERWRITE);
        assertThatThrownBy(() -> stream(Map.of())).hasMessageContaining("Cannot process overwrite snapshot: "
                + overwrite + ", to ignore overwrites, set streaming-skip-overwrite-snapshots=true");
        assertThat(boundedIds()).containsExactly(2L, 3L, 10L);
    }

    @Test
    void aSnapshotScannedWholeAppliesItsDeletes() throws Exception {
        DataFile a = TestTables.file(table, 1, 4);
        TestTables.append(table, a);
        table.newRowDelta().addDeletes(positionDeletes(a, 2)).addDeletes(equalityDeletes(1)).commit();
        long current = table.currentSnapshot().snapshotId();
        // A checkpoint whose start scans the current snapshot whole (scan_all_files, as older iceberg-spark
        // versions started): the table's rows as of that snapshot, deletes applied.
        Path initial = tmp.resolve("chk/sources/0/initial-offset.json");
        Files.createDirectories(initial.getParent());
        Files.writeString(initial, "{\"version\":1,\"snapshot_id\":" + current
                + ",\"position\":0,\"scan_all_files\":true}", StandardCharsets.UTF_8);
        stream(Map.of());
        assertThat(MemorySink.rows(sink)).containsExactly(Row.of(2L, "n2"), Row.of(4L, "n4"));

        TestTables.append(table, 5, 5);
        stream(Map.of());
        assertThat(MemorySink.batches(sink).get(1L)).containsExactly(Row.of(5L, "n5"));
    }

    @Test
    void avroDataFilesAreRead() throws Exception {
        var out = table.io().newOutputFile(table.location() + "/data/" + UUID.randomUUID() + ".avro");
        DataWriter<Record> w = new GenericAppenderFactory(table.schema(), table.spec())
                .newDataWriter(EncryptedFiles.plainAsEncryptedOutput(out), FileFormat.AVRO, null);
        try (w) {
            w.write(TestTables.row(1, "n1"));
            w.write(TestTables.row(2, "n2"));
        }
        DataFile avro = w.toDataFile();
        TestTables.append(table, avro);
        stream(Map.of());
        assertThat(MemorySink.rows(sink)).containsExactly(Row.of(1L, "n1"), Row.of(2L, "n2"));
        table.newRowDelta().addDeletes(positionDeletes(avro, 0)).commit();
        assertThat(boundedIds()).containsExactly(2L);
    }

    private static void deleteRecursively(Path p) throws Exception {
        try (var s = Files.walk(p)) {
            for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}
