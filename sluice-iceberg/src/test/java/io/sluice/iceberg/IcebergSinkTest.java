package io.sluice.iceberg;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Iceberg sink: the table created, exact rows and snapshot summaries, a batch never committed twice. */
class IcebergSinkTest {
    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();

    @AfterEach
    void tearDown() {
        sluice.close();
    }

    private Table load(Path dir) {
        return new HadoopTables(new Configuration()).load(dir.toString());
    }

    private static List<Snapshot> history(Table t) {
        List<Snapshot> out = new ArrayList<>();
        t.snapshots().forEach(out::add);
        return out;
    }

    @Test
    void createsTheTableWithTheStreamsSchemaAndCommitsOneSnapshotPerBatch() throws Exception {
        Path dir = tmp.resolve("t");
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3)
                .option("numPartitions", 2).option("startTimestamp", 1_000).load()
                .writeStream().format("iceberg").option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start(dir.toString());
        q.awaitTermination();
        Table t = load(dir);
        assertThat(t.schema().toString()).isEqualTo("table {\n  1: timestamp: optional timestamptz\n"
                + "  2: value: optional long\n}");
        List<Snapshot> snaps = history(t);
        assertThat(snaps).hasSize(1);
        assertThat(snaps.get(0).operation()).isEqualTo("append");
        assertThat(snaps.get(0).summary()).containsEntry("spark.sql.streaming.queryId", q.id().toString())
                .containsEntry("spark.sql.streaming.epochId", "0").containsEntry("added-records", "3");
        assertThat(TestTables.ids(sluice.read().format("iceberg").load(dir.toString()).select("value")
                .collectAsList())).containsExactly(0L, 1L, 2L);
        // the source reads what the sink wrote, with the snapshot id in its offset
        assertThat(sluice.read().format("iceberg").load(dir.toString()).collectAsList())
                .contains(Row.of(java.time.Instant.ofEpochMilli(1_000), 0L));
    }

    @Test
    void partitionByMakesIdentityPartitions() throws Exception {
        Path dir = tmp.resolve("p");
        sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 4).load()
                .selectExpr("value", "value % 2 AS parity").writeStream().format("iceberg")
                .partitionBy("parity").option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start(dir.toString()).awaitTermination();
        Table t = load(dir);
        assertThat(t.spec().toString()).isEqualTo("[\n  1000: parity: identity(2)\n]");
        List<String> partitions = new ArrayList<>();
        try (var tasks = t.newScan().planFiles()) {
            tasks.forEach(task -> partitions.add(task.file().partition().get(0, Long.class) + ":"
                    + task.file().recordCount()));
        }
        assertThat(partitions).containsExactlyInAnyOrder("0:2", "1:2");
    }

    private SinkContext context(Path dir, String queryId) {
        return new SinkContext(Options.of(Map.of("path", dir.toString())), StructType.fromDDL("id bigint"),
                tmp.resolve("chk"), queryId, null, io.sluice.api.SluiceClock.system());
    }

    private static void write(IcebergSink sink, long batchId, long... ids) throws Exception {
        BatchWriter b = sink.beginBatch(BatchInfo.unknown("q", batchId));
        PartitionWriter w = b.partitionWriter(0);
        for (long id : ids) {
            w.write(Row.of(id));
        }
        b.commit(List.of(w.commit()));
    }

    @Test
    void theTablesWritePropertiesGovernTheDataFiles() throws Exception {
        Path dir = tmp.resolve("props");
        Table created = new HadoopTables(new Configuration()).create(
                new org.apache.iceberg.Schema(org.apache.iceberg.types.Types.NestedField.optional(1, "id",
                        org.apache.iceberg.types.Types.LongType.get())),
                org.apache.iceberg.PartitionSpec.unpartitioned(),
                Map.of("write.parquet.compression-codec", "gzip", "write.metadata.metrics.default", "counts"),
                dir.toString());
        assertThat(created.currentSnapshot()).isNull();
        try (IcebergSink sink = new IcebergSink(context(dir, "query-p"))) {
            write(sink, 0, 5, 7);
        }
        Table t = load(dir);
        List<org.apache.iceberg.DataFile> files = new ArrayList<>();
        try (var tasks = t.newScan().includeColumnStats().planFiles()) {
            tasks.forEach(task -> files.add(task.file()));
        }
        assertThat(files).hasSize(1);
        org.apache.iceberg.DataFile f = files.get(0);
        assertThat(f.valueCounts()).containsEntry(1, 2L);
        assertThat(f.lowerBounds()).isEmpty();    // metrics mode "counts": no bounds (the default keeps them)
        try (var reader = org.apache.parquet.hadoop.ParquetFileReader.open(org.apache.parquet.hadoop.util
                .HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(f.location()), new Configuration()))) {
            assertThat(reader.getFooter().getBlocks().get(0).getColumns().get(0).getCodec().name())
                    .isEqualTo("GZIP");
        }
        assertThat(TestTables.ids(sluice.read().format("iceberg").load(dir.toString()).collectAsList()))
                .containsExactly(5L, 7L);
    }

    @Test
    void aBatchIdAlreadyInTheTableIsSkippedByWalkingTheAncestors() throws Exception {
        Path dir = tmp.resolve("e");
        try (IcebergSink sink = new IcebergSink(context(dir, "query-a"));
             IcebergSink other = new IcebergSink(context(dir, "query-b"))) {
            write(sink, 0, 1, 2);
            write(other, 0, 100);
            write(sink, 0, 1, 2);   // the re-run of batch 0 after a crash between the table's commit and commits/0
            write(sink, 1, 3);
            write(other, 1, 101);
            write(sink, 1, 3);
        }
        Table t = load(dir);
        assertThat(history(t)).extracting(s -> s.summary().get("spark.sql.streaming.queryId") + "/"
                        + s.summary().get("spark.sql.streaming.epochId"))
                .containsExactly("query-a/0", "query-b/0", "query-a/1", "query-b/1");
        assertThat(TestTables.ids(sluice.read().format("iceberg").load(dir.toString()).collectAsList()))
                .containsExactly(1L, 2L, 3L, 100L, 101L);
    }

    @Test
    void twoWritersCommittingAtOnceAreRetriedAndEachBatchIsAppliedOnce() throws Exception {
        Path dir = tmp.resolve("c");
        int batches = 6;
        try (IcebergSink a = new IcebergSink(context(dir, "query-a"));
             IcebergSink b = new IcebergSink(context(dir, "query-b"))) {
            CyclicBarrier together = new CyclicBarrier(2);
            List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (IcebergSink sink : List.of(a, b)) {
                long base = sink == a ? 0 : 1000;
                Thread th = new Thread(() -> {
                    try {
                        for (int i = 0; i < batches; i++) {
                            together.await();
                            write(sink, i, base + i);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "writer-" + base);
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join();
            }
            assertThat(errors).isEmpty();
        }
        Table t = load(dir);
        assertThat(history(t)).hasSize(2 * batches);
        assertThat(TestTables.ids(sluice.read().format("iceberg").load(dir.toString()).collectAsList()))
                .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 1000L, 1001L, 1002L, 1003L, 1004L, 1005L);
        // every snapshot's parent is the one before: no lost commit
        List<Snapshot> h = history(t);
        for (int i = 1; i < h.size(); i++) {
            assertThat(h.get(i).parentId()).isEqualTo(h.get(i - 1).snapshotId());
        }
        assertThat(StreamSupport.stream(t.snapshots().spliterator(), false)
                .filter(s -> "query-a".equals(s.summary().get("spark.sql.streaming.queryId")))
                .map(s -> s.summary().get("spark.sql.streaming.epochId")))
                .containsExactly("0", "1", "2", "3", "4", "5");
    }

    @Test
    void completeModeOverwritesTheTableEachBatchOnceAndUpdateIsRefused() throws Exception {
        Path dir = tmp.resolve("agg");
        io.sluice.core.sources.MemoryStream in = io.sluice.core.sources.MemoryStream.create(
                StructType.fromDDL("id bigint, region string"));
        try {
            StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load()
                    .groupBy("region").count().writeStream().format("iceberg").outputMode("complete")
                    .option("checkpointLocation", tmp.resolve("chk").toString()).start(dir.toString());
            in.addData(Row.of(1L, "eu"), Row.of(2L, "us"), Row.of(3L, "eu"));
            q.processAllAvailable();
            assertThat(sluice.read().format("iceberg").load(dir.toString()).collectAsList())
                    .containsExactlyInAnyOrder(Row.of("eu", 2L), Row.of("us", 1L));
            in.addData(Row.of(4L, "us"), Row.of(5L, "ap"));
            q.processAllAvailable();
            String queryId = q.id().toString();
            q.stop();
            assertThat(sluice.read().format("iceberg").load(dir.toString()).collectAsList())
                    .containsExactlyInAnyOrder(Row.of("eu", 2L), Row.of("us", 2L), Row.of("ap", 1L));
            Table t = load(dir);
            assertThat(history(t)).extracting(s -> s.operation() + " " + s.summary().get("spark.sql.streaming.epochId")
                            + " +" + s.summary().get("added-records") + " -" + s.summary().get("deleted-records"))
                    .containsExactly("overwrite 0 +2 -null", "overwrite 1 +3 -2");

            // A re-run of batch 1 (a crash after the table's commit, before commits/1) is skipped.
            SinkContext ctx = new SinkContext(Options.of(Map.of("path", dir.toString())),
                    StructType.fromDDL("region string, count bigint"), tmp.resolve("chk"), queryId, null,
                    io.sluice.api.SluiceClock.system(), java.time.ZoneOffset.UTC, "complete");
            try (IcebergSink again = new IcebergSink(ctx)) {
                BatchWriter b = again.beginBatch(BatchInfo.unknown(queryId, 1));
                PartitionWriter w = b.partitionWriter(0);
                w.write(Row.of("eu", 2L));
                b.commit(List.of(w.commit()));
            }
            assertThat(history(load(dir))).hasSize(2);
            assertThat(sluice.read().format("iceberg").load(dir.toString()).collectAsList())
                    .containsExactlyInAnyOrder(Row.of("eu", 2L), Row.of("us", 2L), Row.of("ap", 1L));

            assertThatThrownBy(() -> sluice.readStream().format("memory").option("name", in.name()).load()
                    .groupBy("region").count().writeStream().format("iceberg").outputMode("update")
                    .option("checkpointLocation", tmp.resolve("c2").toString()).start(tmp.resolve("u").toString()))
                    .hasMessage("Data source iceberg does not support Update output mode");
        } finally {
            in.unregister();
        }
    }

    @Test
    void aStreamColumnMissingFromAnExistingTableIsRefused() {
        Path dir = tmp.resolve("x");
        TestTables.create(dir);
        assertThatThrownBy(() -> sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 1).load().writeStream()
                .format("iceberg").option("checkpointLocation", tmp.resolve("chk").toString()).start(dir.toString()))
                .hasMessageContaining("the stream's column 'timestamp' is not in the table's schema");
        assertThatThrownBy(() -> sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 1).load().writeStream()
                .format("iceberg").option("partitionby", "nope").option("checkpointLocation",
                        tmp.resolve("chk2").toString()).start(tmp.resolve("y").toString()))
                .hasMessageContaining("partitionBy column 'nope' is not in the stream's schema");
    }
}
