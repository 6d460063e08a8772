package io.sluice.delta;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeltaSinkTest {

    private static final Sluice SLUICE = Sluice.builder().parallelism(2).build();
    private static final StructType SCHEMA = StructType.fromDDL("id bigint, region string");

    @TempDir
    Path tmp;

    @AfterAll
    static void close() {
        SLUICE.close();
    }

    private static List<JsonNode> txns(Path table) {
        List<JsonNode> out = new ArrayList<>();
        DeltaLogFiles log = new DeltaLogFiles(table);
        for (long v : log.versions().keySet()) {
            log.actions(v).stream().filter(a -> a.has("txn")).forEach(a -> out.add(a.get("txn")));
        }
        return out;
    }

    private List<Row> read(Path table) throws Exception {
        return SLUICE.read().format("delta").load(table.toString()).collectAsList();
    }

    @Test
    void eachBatchIsOneCommitWithTheQueryIdAsTxnAndARestartAppends() throws Exception {
        Path t = tmp.resolve("t");
        Path chk = tmp.resolve("chk");
        MemoryStream in = MemoryStream.create(SCHEMA);
        try {
            StreamingQuery q = SLUICE.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("delta").option("checkpointLocation", chk.toString()).start(t.toString());
            in.addData(Row.of(1L, "eu"), Row.of(2L, "us"));
            q.processAllAvailable();
            in.addData(Row.of(3L, "eu"));
            q.processAllAvailable();
            String queryId = q.id().toString();
            q.stop();
            assertThat(TestDelta.latestVersion(t)).isEqualTo(1);
            assertThat(txns(t)).extracting(n -> n.get("appId").asText() + ":" + n.get("version").asLong())
                    .containsExactly(queryId + ":0", queryId + ":1");
            assertThat(new DeltaLogFiles(t).actions(0)).anyMatch(a -> a.has("metaData"));
            assertThat(DeltaTypes.toSluice(DeltaTable.open(t.toString()).latestOrFail().getSchema()).toDDL())
                    .isEqualTo("id BIGINT, region STRING");

            StreamingQuery again = SLUICE.readStream().format("memory").option("name", in.name()).load()
                    .writeStream().format("delta").option("checkpointLocation", chk.toString()).start(t.toString());
            in.addData(Row.of(4L, "us"));
            again.processAllAvailable();
            again.stop();
            assertThat(TestDelta.latestVersion(t)).isEqualTo(2);
            assertThat(read(t)).containsExactlyInAnyOrder(Row.of(1L, "eu"), Row.of(2L, "us"), Row.of(3L, "eu"),
                    Row.of(4L, "us"));
        } finally {
            in.unregister();
        }
    }

    @Test
    void partitionByLaysFilesOutByValue() throws Exception {
        Path t = tmp.resolve("t");
        MemoryStream in = MemoryStream.create(SCHEMA);
        try {
            StreamingQuery q = SLUICE.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("delta").partitionBy("region").option("checkpointLocation", tmp.resolve("c").toString())
                    .start(t.toString());
            in.addData(Row.of(1L, "eu"), Row.of(2L, "us"), Row.of(3L, "eu"));
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        assertThat(DeltaTable.open(t.toString()).latestOrFail().getPartitionColumnNames()).containsExactly("region");
        assertThat(TestDelta.adds(t, 0)).extracting(a -> a.get("path").asText().substring(0, 10))
                .containsOnly("region=eu/", "region=us/");
        assertThat(read(t)).containsExactlyInAnyOrder(Row.of(1L, "eu"), Row.of(2L, "us"), Row.of(3L, "eu"));
    }

    @Test
    void aBatchTheTableHoldsIsSkipped() throws Exception {
        Path t = tmp.resolve("t");
        String app = UUID.randomUUID().toString();
        commit(new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), app), 0, Row.of(1L, "eu"));
        // A re-run of batch 0 after a crash between the table's commit and the checkpoint's commit log.
        BatchWriter again = new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), app).beginBatch(0);
        PartitionWriter pw = again.partitionWriter(0);
        pw.write(Row.of(1L, "eu"));
        again.commit(java.util.Arrays.asList(pw.commit()));
        assertThat(TestDelta.latestVersion(t)).isZero();
        commit(new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), app), 1, Row.of(2L, "us"));
        assertThat(TestDelta.latestVersion(t)).isEqualTo(1);
        assertThat(read(t)).containsExactlyInAnyOrder(Row.of(1L, "eu"), Row.of(2L, "us"));
    }

    @Test
    void twoWritersRacingOnOneBatchCommitItOnceAndOtherQueriesAreRetried() throws Exception {
        Path t = tmp.resolve("t");
        String app = UUID.randomUUID().toString();
        commit(new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), "setup"), 0, Row.of(0L, "x"));
        // Both start batch 5 from version 0 before either commits: the loser sees the winner's txn and drops.
        BatchWriter a = new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), app).beginBatch(5);
        BatchWriter b = new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), app).beginBatch(5);
        // A third writer of another query, also from version 0: its append is retried on top, not lost.
        BatchWriter other = new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), "other").beginBatch(0);
        write(a, Row.of(1L, "a"));
        write(b, Row.of(1L, "a"));
        write(other, Row.of(2L, "o"));
        assertThat(TestDelta.latestVersion(t)).isEqualTo(2);
        assertThat(a.numOutputRows()).isEqualTo(1);
        assertThat(b.numOutputRows()).isZero();
        assertThat(txns(t)).extracting(n -> n.get("appId").asText() + ":" + n.get("version").asLong())
                .containsExactly("setup:0", app + ":5", "other:0");
        assertThat(read(t)).containsExactlyInAnyOrder(Row.of(0L, "x"), Row.of(1L, "a"), Row.of(2L, "o"));
    }

    @Test
    void completeModeReplacesTheTableEachBatchAndUpdateIsRefused() throws Exception {
        Path t = tmp.resolve("t");
        Path chk = tmp.resolve("chk");
        MemoryStream in = MemoryStream.create(SCHEMA);
        try {
            StreamingQuery q = SLUICE.readStream().format("memory").option("name", in.name()).load()
                    .groupBy("region").count().writeStream().format("delta").outputMode("complete")
                    .option("checkpointLocation", chk.toString()).start(t.toString());
            in.addData(Row.of(1L, "eu"), Row.of(2L, "us"), Row.of(3L, "eu"));
            q.processAllAvailable();
            assertThat(read(t)).containsExactlyInAnyOrder(Row.of("eu", 2L), Row.of("us", 1L));
            in.addData(Row.of(4L, "us"), Row.of(5L, "ap"));
            q.processAllAvailable();
            String queryId = q.id().toString();
            q.stop();
            assertThat(read(t)).containsExactlyInAnyOrder(Row.of("eu", 2L), Row.of("us", 2L), Row.of("ap", 1L));
            assertThat(TestDelta.latestVersion(t)).isEqualTo(1);
            // Version 1 removes version 0's files: the table holds only the last batch's result.
            assertThat(new DeltaLogFiles(t).actions(1)).filteredOn(a -> a.has("remove"))
                    .extracting(a -> a.get("remove").get("path").asText())
                    .containsExactlyInAnyOrderElementsOf(TestDelta.adds(t, 0).stream()
                            .map(a -> a.get("path").asText()).toList());
            assertThat(txns(t)).extracting(n -> n.get("appId").asText() + ":" + n.get("version").asLong())
                    .containsExactly(queryId + ":0", queryId + ":1");

            // A re-run of batch 1 (a crash after the table's commit, before commits/1) changes nothing.
            BatchWriter again = new DeltaSink(DeltaTable.open(t.toString()), StructType.fromDDL(
                    "region string, count bigint"), List.of(), queryId, true).beginBatch(1);
            PartitionWriter pw = again.partitionWriter(0);
            pw.write(Row.of("eu", 2L));
            again.commit(java.util.Arrays.asList(pw.commit()));
            assertThat(TestDelta.latestVersion(t)).isEqualTo(1);
            assertThat(read(t)).containsExactlyInAnyOrder(Row.of("eu", 2L), Row.of("us", 2L), Row.of("ap", 1L));

            assertThatThrownBy(() -> SLUICE.readStream().format("memory").option("name", in.name()).load()
                    .groupBy("region").count().writeStream().format("delta").outputMode("update")
                    .option("checkpointLocation", tmp.resolve("c2").toString()).start(tmp.resolve("t2").toString()))
                    .hasMessage("Data source delta does not support Update output mode");
        } finally {
            in.unregister();
        }
    }

    @Test
    void everyTenthVersionGetsTheCheckpointKernelAsksFor() throws Exception {
        Path t = tmp.resolve("t");
        String app = UUID.randomUUID().toString();
        for (long b = 0; b <= 10; b++) {
            commit(new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), app), b, Row.of(b, "eu"));
        }
        // delta.checkpointInterval's default, 10, as delta-spark: later snapshots start from it, not version 0.
        Path log = t.resolve("_delta_log");
        assertThat(log.resolve("00000000000000000010.checkpoint.parquet")).isRegularFile();
        assertThat(java.nio.file.Files.readString(log.resolve("_last_checkpoint"))).contains("\"version\":10");
        assertThat(read(t)).hasSize(11);
    }

    @Test
    void anotherSchemaIsRefused() throws Exception {
        Path t = tmp.resolve("t");
        TestDelta.append(t, "id bigint", Row.of(1L));
        DeltaSink s = new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), "q");
        assertThatThrownBy(() -> s.beginBatch(0)).hasMessageContaining("[DELTA_FAILED_TO_MERGE_FIELDS] A schema "
                + "mismatch detected when writing to the Delta table");
    }

    @Test
    void columnNamesMatchTheTablesCaseInsensitivelyAndRowsGoUnderTheTablesNames() throws Exception {
        Path t = tmp.resolve("t");
        TestDelta.append(t, "id bigint, region string", List.of("region"), List.of(Row.of(1L, "eu")));
        DeltaSink s = new DeltaSink(DeltaTable.open(t.toString()), StructType.fromDDL("ID bigint, Region string"),
                List.of("REGION"), "q");
        commit(s, 0, Row.of(2L, "us"), Row.of(3L, "eu"));
        StructType back = SLUICE.read().format("delta").load(t.toString()).schema();
        assertThat(back.toDDL()).isEqualTo("id BIGINT, region STRING");
        assertThat(read(t)).containsExactlyInAnyOrder(Row.of(1L, "eu"), Row.of(2L, "us"), Row.of(3L, "eu"));
        assertThat(TestDelta.adds(t, 1)).extracting(a -> a.get("partitionValues").get("region").asText())
                .containsExactlyInAnyOrder("us", "eu");
    }

    @Test
    void aNullInATableNotNullColumnFailsTheBatchWithDeltasMessageAndCommitsNothing() throws Exception {
        Path t = tmp.resolve("t");
        DeltaTable created = DeltaTable.open(t.toString());
        created.table.createTransactionBuilder(created.engine, "test", io.delta.kernel.Operation.CREATE_TABLE)
                .withSchema(created.engine, new io.delta.kernel.types.StructType()
                        .add("id", io.delta.kernel.types.LongType.LONG, false)
                        .add("region", io.delta.kernel.types.StringType.STRING, true))
                .build(created.engine).commit(created.engine, io.delta.kernel.utils.CloseableIterable.emptyIterable());
        DeltaSink s = new DeltaSink(DeltaTable.open(t.toString()), SCHEMA, List.of(), "q");
        commit(s, 0, Row.of(1L, null));
        BatchWriter w = s.beginBatch(1);
        PartitionWriter pw = w.partitionWriter(0);
        pw.write(Row.of(2L, "eu"));
        assertThatThrownBy(() -> pw.write(Row.of(null, "us"))).isInstanceOf(IllegalStateException.class)
                .hasMessage("[DELTA_NOT_NULL_CONSTRAINT_VIOLATED] NOT NULL constraint violated for column: id.");
        assertThat(read(t)).containsExactly(Row.of(1L, null));
        assertThat(TestDelta.latestVersion(t)).isEqualTo(1);
    }

    private static void commit(DeltaSink sink, long batch, Row... rows) throws Exception {
        write(sink.beginBatch(batch), rows);
    }

    private static void write(BatchWriter w, Row... rows) throws Exception {
        PartitionWriter pw = w.partitionWriter(0);
        for (Row r : rows) {
            pw.write(r);
        }
        w.commit(List.of(pw.commit()));
    }
}
