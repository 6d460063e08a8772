package io.sluice.delta;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.sluice.delta.TestDelta.adds;
import static io.sluice.delta.TestDelta.append;
import static io.sluice.delta.TestDelta.loggedEnd;
import static io.sluice.delta.TestDelta.offset;
import static io.sluice.delta.TestDelta.tableId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeltaSourceTest {

    private static final Sluice SLUICE = Sluice.builder().parallelism(2).build();
    private static final String DDL = "id bigint, name string";

    @TempDir
    Path tmp;

    @AfterAll
    static void close() {
        SLUICE.close();
    }

    /** Runs the table to the end (availableNow) into a fresh memory table; returns its batches. */
    private Map<Long, List<Row>> run(Path table, Path chk, Map<String, String> options) throws Exception {
        String name = "delta_" + UUID.randomUUID().toString().replace('-', '_');
        var r = SLUICE.readStream().format("delta");
        for (var e : options.entrySet()) {
            r = r.option(e.getKey(), e.getValue());
        }
        StreamingQuery q = r.load(table.toString()).writeStream().format("memory").queryName(name)
                .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        Map<Long, List<Row>> out = MemorySink.batches(name);
        MemorySink.clear(name);
        return out;
    }

    @Test
    void snapshotAtStartThenEachCommitsFilesWithDeltaSparksOffsets() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"), Row.of(2L, "b"));
        append(t, DDL, Row.of(3L, "c"));
        String id = tableId(t);
        Path chk = tmp.resolve("chk");

        Map<Long, List<Row>> first = run(t, chk, Map.of());
        assertThat(first).hasSize(1);
        assertThat(first.get(0L)).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
        assertThat(loggedEnd(chk, 0)).isEqualTo(offset(id, 2, -1, false));
        assertThat(loggedEnd(chk, 0)).isEqualTo("{\"sourceVersion\":1,\"reservoirId\":\"" + id
                + "\",\"reservoirVersion\":2,\"index\":-1,\"isStartingVersion\":false}");

        append(t, DDL, List.of(), List.of(Row.of(4L, "d")), List.of(Row.of(5L, "e")));
        Map<Long, List<Row>> second = run(t, chk, Map.of());
        assertThat(second.keySet()).containsExactly(1L);
        assertThat(second.get(1L)).containsExactlyInAnyOrder(Row.of(4L, "d"), Row.of(5L, "e"));
        assertThat(loggedEnd(chk, 1)).isEqualTo(offset(id, 3, -1, false));
    }

    @Test
    void maxFilesPerTriggerSplitsTheSnapshotAndCommits() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        append(t, DDL, Row.of(2L, "b"));
        append(t, DDL, Row.of(3L, "c"));
        String id = tableId(t);
        Path chk = tmp.resolve("chk");
        Map<Long, List<Row>> b = run(t, chk, Map.of("maxFilesPerTrigger", "2"));
        assertThat(b).hasSize(2);
        assertThat(b.get(0L)).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"));
        assertThat(b.get(1L)).containsExactly(Row.of(3L, "c"));
        assertThat(loggedEnd(chk, 0)).isEqualTo(offset(id, 2, 1, true));
        assertThat(loggedEnd(chk, 1)).isEqualTo(offset(id, 3, -1, false));

        append(t, DDL, List.of(), List.of(Row.of(4L, "d")), List.of(Row.of(5L, "e")), List.of(Row.of(6L, "f")));
        Map<Long, List<Row>> c = run(t, chk, Map.of("maxFilesPerTrigger", "1"));
        assertThat(c).hasSize(3);
        assertThat(loggedEnd(chk, 2)).isEqualTo(offset(id, 3, 0, false));
        assertThat(loggedEnd(chk, 3)).isEqualTo(offset(id, 3, 1, false));
        assertThat(loggedEnd(chk, 4)).isEqualTo(offset(id, 4, -1, false));
        assertThat(c.values().stream().flatMap(List::stream).toList())
                .containsExactlyInAnyOrder(Row.of(4L, "d"), Row.of(5L, "e"), Row.of(6L, "f"));
    }

    @Test
    void maxBytesPerTriggerIsSoftAndTakesAtLeastOneFile() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        append(t, DDL, Row.of(2L, "b"));
        Map<Long, List<Row>> b = run(t, tmp.resolve("chk"), Map.of("maxBytesPerTrigger", "1b"));
        assertThat(b).hasSize(2);
        assertThat(b.get(0L)).containsExactly(Row.of(1L, "a"));
        assertThat(b.get(1L)).containsExactly(Row.of(2L, "b"));
    }

    @Test
    void startingVersionReadsFromThatCommitWithoutSnapshotAndIsIgnoredOnRestart() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        append(t, DDL, Row.of(2L, "b"));
        append(t, DDL, Row.of(3L, "c"));
        Path chk = tmp.resolve("chk");
        Map<Long, List<Row>> b = run(t, chk, Map.of("startingVersion", "1"));
        assertThat(b.get(0L)).containsExactly(Row.of(2L, "b"), Row.of(3L, "c"));
        append(t, DDL, Row.of(4L, "d"));
        // A restart keeps the checkpoint's position, whatever the starting option says now.
        Map<Long, List<Row>> c = run(t, chk, Map.of("startingVersion", "0"));
        assertThat(c.values().stream().flatMap(List::stream).toList()).containsExactly(Row.of(4L, "d"));

        Map<Long, List<Row>> latest = run(t, tmp.resolve("chk2"), Map.of("startingVersion", "latest"));
        assertThat(latest).isEmpty();
        assertThatThrownBy(() -> run(t, tmp.resolve("chk3"), Map.of("startingVersion", "9")))
                .hasMessageContaining("Cannot time travel Delta table to version 9. Available versions: [0, 3].");
        assertThatThrownBy(() -> run(t, tmp.resolve("chk4"), Map.of("startingVersion", "-2")))
                .hasMessageContaining("Invalid value '-2' for option 'startingVersion'");
        assertThatThrownBy(() -> run(t, tmp.resolve("chk5"), Map.of("startingVersion", "1",
                "startingTimestamp", "2020-01-01")))
                .hasMessageContaining("[DELTA_STARTING_VERSION_AND_TIMESTAMP_BOTH_SET]");
    }

    @Test
    void startingTimestampTakesTheFirstCommitAtOrAfterIt() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        append(t, DDL, Row.of(2L, "b"));
        var log = new DeltaLogFiles(t);
        java.nio.file.Files.setLastModifiedTime(log.commitFile(0), java.nio.file.attribute.FileTime.fromMillis(
                java.time.Instant.parse("2026-01-01T00:00:00Z").toEpochMilli()));
        java.nio.file.Files.setLastModifiedTime(log.commitFile(1), java.nio.file.attribute.FileTime.fromMillis(
                java.time.Instant.parse("2026-01-02T00:00:00Z").toEpochMilli()));
        Map<Long, List<Row>> b = run(t, tmp.resolve("chk"), Map.of("startingTimestamp", "2026-01-01T12:00:00Z"));
        assertThat(b.get(0L)).containsExactly(Row.of(2L, "b"));
        assertThatThrownBy(() -> run(t, tmp.resolve("chk2"), Map.of("startingTimestamp", "2026-02-01T00:00:00Z")))
                .hasMessageContaining("[DELTA_TIMESTAMP_GREATER_THAN_COMMIT] The provided timestamp "
                        + "(2026-02-01T00:00:00Z) is after the latest version available to this table");
    }

    @Test
    void aDeleteCommitFailsUnlessIgnoreDeletesOrSkipChangeCommits() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        Path chk = tmp.resolve("chk");
        assertThat(run(t, chk, Map.of()).get(0L)).containsExactly(Row.of(1L, "a"));
        var file = adds(t, 0).get(0);
        long v = TestDelta.removeCommit(t, file, false);
        append(t, DDL, Row.of(2L, "b"));

        assertThatThrownBy(() -> run(t, chk, Map.of()))
                .hasMessageContaining("[DELTA_SOURCE_IGNORE_DELETE] Detected deleted data (for example "
                        + "DELETE (Map())) from streaming source at version " + v + ". This is "
                        + "currently not supported. If you'd like to ignore deletes, set the option 'ignoreDeletes' "
                        + "to 'true'.");
        assertThat(run(t, chk, Map.of("ignoreDeletes", "true")).values().stream().flatMap(List::stream).toList())
                .containsExactly(Row.of(2L, "b"));
        assertThat(run(t, tmp.resolve("chk2"), Map.of("startingVersion", "0", "skipChangeCommits", "true"))
                .values().stream().flatMap(List::stream).toList()).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"));
    }

    @Test
    void aRewriteCommitFailsUnlessIgnoreChangesReemitsOrSkipChangeCommitsDrops() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        var file = adds(t, 0).get(0);
        long v = TestDelta.removeCommit(t, file, true);
        append(t, DDL, Row.of(2L, "b"));
        Map<String, String> from0 = Map.of("startingVersion", "0");

        assertThatThrownBy(() -> run(t, tmp.resolve("c1"), from0))
                .hasMessageContaining("[DELTA_SOURCE_TABLE_IGNORE_CHANGES] Detected a data update (for example "
                        + "DELETE (Map())) in the source table at version " + v + ". This is currently not supported. "
                        + "If this is going to happen regularly and you are okay to skip changes, set the option "
                        + "'skipChangeCommits' to 'true'. If you would like the data update to be reflected, please "
                        + "restart this query with a fresh checkpoint directory. The source table can be found at "
                        + "path file:" + t + ".");
        // ignoreDeletes alone does not pass a rewrite.
        assertThatThrownBy(() -> run(t, tmp.resolve("c2"), Map.of("startingVersion", "0", "ignoreDeletes", "true")))
                .hasMessageContaining("[DELTA_SOURCE_TABLE_IGNORE_CHANGES]");
        assertThat(run(t, tmp.resolve("c3"), Map.of("startingVersion", "0", "ignoreChanges", "true")).values()
                .stream().flatMap(List::stream).toList())
                .containsExactly(Row.of(1L, "a"), Row.of(1L, "a"), Row.of(2L, "b"));
        assertThat(run(t, tmp.resolve("c4"), Map.of("startingVersion", "0", "skipChangeCommits", "true")).values()
                .stream().flatMap(List::stream).toList()).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"));
    }

    @Test
    void aSchemaChangeStopsTheQueryAndARestartReadsTheNewSchema() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        Path chk = tmp.resolve("chk");
        String name = "delta_schema";
        StreamingQuery q = SLUICE.readStream().format("delta").load(t.toString()).writeStream().format("memory")
                .queryName(name).option("checkpointLocation", chk.toString()).start();
        try {
            q.processAllAvailable();
            append(t, DDL, Row.of(2L, "b"));
            long v = TestDelta.schemaCommit(t, "id bigint, name string, score int");
            append(t, "id bigint, name string, score int", Row.of(3L, "c", 30));
            // The batch before the change runs, then the query stops at the change.
            assertThatThrownBy(q::awaitTermination)
                    .hasMessageContaining("[DELTA_SCHEMA_CHANGED_WITH_VERSION] Detected schema change in version " + v)
                    .hasMessageContaining("streaming source schema: struct<id:bigint,name:string>");
            assertThat(MemorySink.rows(name)).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"));
            assertThat(loggedEnd(chk, 1)).isEqualTo(offset(tableId(t), v, -1, false));
        } finally {
            q.stop();
            MemorySink.clear(name);
        }
        // The restart reads the table's new schema; the old files read under it (additive) are done already.
        Map<Long, List<Row>> after = run(t, chk, Map.of());
        assertThat(after.values().stream().flatMap(List::stream).toList()).containsExactly(Row.of(3L, "c", 30));
    }

    @Test
    void anotherTableUnderTheSameCheckpointIsRefused() throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        append(a, DDL, Row.of(1L, "a"));
        append(b, DDL, Row.of(2L, "b"));
        Path chk = tmp.resolve("chk");
        run(a, chk, Map.of());
        assertThatThrownBy(() -> run(b, chk, Map.of()))
                .hasMessageContaining("[DIFFERENT_DELTA_TABLE_READ_BY_STREAMING_SOURCE] The streaming query was "
                        + "reading from an unexpected Delta table (id = '" + tableId(b) + "'). It used to read from "
                        + "another Delta table (id = '" + tableId(a) + "') according to checkpoint.");
    }

    @Test
    void missingLogFilesFailUnlessFailOnDataLossIsFalse() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        Path chk = tmp.resolve("chk");
        run(t, chk, Map.of());
        append(t, DDL, Row.of(2L, "b"));
        append(t, DDL, Row.of(3L, "c"));
        // Log clean-up as Delta does it: a checkpoint at 2, then the commits before it go.
        DeltaTable dt = DeltaTable.open(t.toString());
        dt.table.checkpoint(dt.engine, 2);
        java.nio.file.Files.delete(new DeltaLogFiles(t).commitFile(0));
        java.nio.file.Files.delete(new DeltaLogFiles(t).commitFile(1));
        assertThatThrownBy(() -> run(t, chk, Map.of()))
                .hasMessageContaining("[DELTA_MISSING_FILES_UNEXPECTED_VERSION] The stream from your Delta table was "
                        + "expecting process data from version 1, but the earliest available version in the "
                        + "_delta_log directory is 2.");
        assertThat(run(t, chk, Map.of("failOnDataLoss", "false")).values().stream().flatMap(List::stream).toList())
                .containsExactly(Row.of(3L, "c"));
    }

    @Test
    void partitionColumnsComeFromTheLog() throws Exception {
        Path t = tmp.resolve("t");
        append(t, "id bigint, day date, region string", List.of("day", "region"),
                List.of(Row.of(1L, java.time.LocalDate.of(2026, 1, 2), "eu"),
                        Row.of(2L, java.time.LocalDate.of(2026, 1, 3), null)));
        assertThat(adds(t, 0)).extracting(a -> a.get("path").asText()).allMatch(p -> p.startsWith("day=2026-01-0"));
        assertThat(SLUICE.read().format("delta").load(t.toString()).collectAsList()).containsExactlyInAnyOrder(
                Row.of(1L, java.time.LocalDate.of(2026, 1, 2), "eu"),
                Row.of(2L, java.time.LocalDate.of(2026, 1, 3), null));
    }

    @Test
    void boundedReadIsTheCurrentSnapshot() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        append(t, DDL, Row.of(2L, "b"));
        TestDelta.removeCommit(t, adds(t, 0).get(0), false);
        assertThat(SLUICE.read().format("delta").load(t.toString()).collectAsList()).containsExactly(Row.of(2L, "b"));
        assertThat(SLUICE.read().format("delta").load(t.toString()).count()).isEqualTo(1);
    }

    @Test
    void optionsAreCheckedBeforeStart() throws Exception {
        Path t = tmp.resolve("t");
        append(t, DDL, Row.of(1L, "a"));
        assertThatThrownBy(() -> SLUICE.readStream().format("delta").option("maxFilesPerTriger", "1")
                .load(t.toString())).hasMessageContaining("maxFilesPerTrigger");
        assertThatThrownBy(() -> SLUICE.readStream().format("delta").option("maxFilesPerTrigger", "0")
                .load(t.toString())).hasMessageContaining("Invalid value '0' for option 'maxFilesPerTrigger', must be "
                + "a positive integer");
        assertThatThrownBy(() -> SLUICE.readStream().format("delta").option("maxBytesPerTrigger", "lots")
                .load(t.toString())).hasMessageContaining("Invalid value 'lots' for option 'maxBytesPerTrigger'");
        assertThatThrownBy(() -> SLUICE.readStream().format("delta").load(tmp.resolve("none").toString()))
                .hasMessageContaining("is not a Delta table");
    }
}
