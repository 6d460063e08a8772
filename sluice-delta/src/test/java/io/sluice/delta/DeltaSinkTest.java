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

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** Structs, arrays and maps nested in each other, over every kind of value the sink writes at the top level. */
    private static final String NESTED_DDL = "id bigint, s struct<a:int,d:date,inner:struct<ts:timestamp,"
            + "amount:decimal(10,2)>>, tags array<string>, pts array<struct<x:int,bin:binary>>, "
            + "m map<string,array<bigint>>, mm map<int,struct<f:double,ok:boolean>>, p string";

    /** Values at every level, nulls at every level (a struct's field, an element, a map's value, whole columns). */
    private static List<Row> nestedRows(String p) {
        Map<String, List<Long>> m2 = new LinkedHashMap<>();
        m2.put("n", null);
        m2.put("e", Arrays.asList(5L, null));
        m2.put("z", List.of());
        Map<Integer, Row> mm2 = new LinkedHashMap<>();
        mm2.put(4, Row.of(null, null));
        mm2.put(5, null);
        return List.of(
                Row.of(1L, Row.of(7, LocalDate.of(2024, 2, 29), Row.of(Instant.parse("2024-03-01T10:15:30.123456Z"),
                                new BigDecimal("12.50"))), List.of("a", "b"), List.of(Row.of(1, new byte[]{1, 2})),
                        Map.of("k", List.of(1L, 2L)), Map.of(3, Row.of(1.5, true)), p),
                Row.of(2L, Row.of(null, null, Row.of(null, null)), Arrays.asList("c", null),
                        Arrays.asList(null, Row.of(null, null)), m2, mm2, p),
                Row.of(3L, null, null, null, null, null, p),
                Row.of(4L, Row.of(1, LocalDate.of(1969, 12, 31), null), List.of(), List.of(), Map.of(), Map.of(), p));
    }

    @Test
    void nestedColumnsAreWrittenAndReadBackExactlyNullsAtEveryLevelIncluded() throws Exception {
        Path t = tmp.resolve("t");
        StructType schema = StructType.fromDDL(NESTED_DDL);
        MemoryStream in = MemoryStream.create(schema);
        try {
            StreamingQuery q = SLUICE.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("delta").option("checkpointLocation", tmp.resolve("c").toString()).start(t.toString());
            in.addData(nestedRows("eu").toArray(Row[]::new));
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        StructType back = SLUICE.read().format("delta").load(t.toString()).schema();
        assertThat(back.simpleString()).isEqualTo(schema.simpleString());
        assertThat(read(t)).containsExactlyInAnyOrderElementsOf(nestedRows("eu"));
    }

    @Test
    void rowsAreAppendedToAnExistingNestedPartitionedTable() throws Exception {
        Path t = tmp.resolve("t");
        TestDelta.append(t, NESTED_DDL, List.of("p"), nestedRows("eu"));
        // The nested names in another case: matched with the table's, the rows written under the table's names.
        DeltaSink s = new DeltaSink(DeltaTable.open(t.toString()), StructType.fromDDL(NESTED_DDL
                .replace("inner:struct<ts", "INNER:struct<TS").replace("struct<x:int", "struct<X:int")),
                List.of("p"), "q");
        commit(s, 0, nestedRows("us").toArray(Row[]::new));
        assertThat(TestDelta.latestVersion(t)).isEqualTo(1);
        assertThat(TestDelta.adds(t, 1)).extracting(a -> a.get("partitionValues").get("p").asText())
                .containsOnly("us");
        assertThat(SLUICE.read().format("delta").load(t.toString()).schema().simpleString())
                .isEqualTo(StructType.fromDDL(NESTED_DDL).simpleString());
        List<Row> all = new ArrayList<>(nestedRows("eu"));
        all.addAll(nestedRows("us"));
        assertThat(read(t)).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void aNestedFieldThatDiffersIsRefused() throws Exception {
        Path t = tmp.resolve("t");
        TestDelta.append(t, "id bigint, s struct<a:int,b:array<struct<c:string>>>", Row.of(1L, null));
        for (String ddl : List.of("id bigint, s struct<a:int,b:array<struct<c:int>>>",
                "id bigint, s struct<a:int,b:array<struct<d:string>>>",
                "id bigint, s struct<a:int,b:array<struct<c:string,d:string>>>",
                "id bigint, s struct<a:int>")) {
            DeltaSink s = new DeltaSink(DeltaTable.open(t.toString()), StructType.fromDDL(ddl), List.of(), "q");
            assertThatThrownBy(() -> s.beginBatch(0)).hasMessage("[DELTA_FAILED_TO_MERGE_FIELDS] A schema mismatch "
                    + "detected when writing to the Delta table " + t + ".\nTable schema: id BIGINT, s STRUCT<a: INT, "
                    + "b: ARRAY<STRUCT<c: STRING>>>\nData schema: " + StructType.fromDDL(ddl).toDDL()
                    + "\nSluice does not merge schemas (mergeSchema) yet.");
        }
        assertThat(TestDelta.latestVersion(t)).isZero();
    }

    @Test
    void aNestedPartitionColumnIsRefusedAtStart() {
        MemoryStream in = MemoryStream.create(StructType.fromDDL("id bigint, s struct<a:int>, l array<int>"));
        try {
            for (String c : List.of("s", "l")) {
                assertThatThrownBy(() -> SLUICE.readStream().format("memory").option("name", in.name()).load()
                        .writeStream().format("delta").partitionBy(c)
                        .option("checkpointLocation", tmp.resolve("c" + c).toString())
                        .start(tmp.resolve("t" + c).toString()))
                        .hasMessage("[DELTA_INVALID_PARTITION_COLUMN_TYPE] Using column " + c + " of type "
                                + (c.equals("s") ? "StructType(StructField(a,IntegerType,true))"
                                : "ArrayType(IntegerType,true)")
                                + " as a partition column is not supported.");
            }
        } finally {
            in.unregister();
        }
        assertThat(tmp.resolve("ts")).doesNotExist();
    }

    @Test
    void aNullInATableNotNullNestedFieldOrItsNullParentFailsTheBatchAsDeltaSparkDoes() throws Exception {
        Path t = tmp.resolve("t");
        DeltaTable created = DeltaTable.open(t.toString());
        io.delta.kernel.types.StructType inner = new io.delta.kernel.types.StructType()
                .add("key", io.delta.kernel.types.StringType.STRING, false)
                .add("value", io.delta.kernel.types.IntegerType.INTEGER, true);
        // A NOT NULL field inside an array is not enforced (as delta-spark): only struct paths are checked.
        created.table.createTransactionBuilder(created.engine, "test", io.delta.kernel.Operation.CREATE_TABLE)
                .withSchema(created.engine, new io.delta.kernel.types.StructType()
                        .add("id", io.delta.kernel.types.LongType.LONG, true)
                        .add("top", inner, true)
                        .add("l", new io.delta.kernel.types.ArrayType(inner, true), true))
                .build(created.engine).commit(created.engine, io.delta.kernel.utils.CloseableIterable.emptyIterable());
        StructType schema = StructType.fromDDL("id bigint, top struct<key:string,value:int>, "
                + "l array<struct<key:string,value:int>>");
        DeltaSink s = new DeltaSink(DeltaTable.open(t.toString()), schema, List.of(), "q");
        commit(s, 0, Row.of(1L, Row.of("a", null), null));
        BatchWriter w = s.beginBatch(1);
        PartitionWriter pw = w.partitionWriter(0);
        pw.write(Row.of(2L, Row.of("b", 2), List.of()));
        for (Row bad : List.of(Row.of(3L, Row.of(null, 3), null), Row.of(4L, null, null))) {
            assertThatThrownBy(() -> pw.write(bad)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("[DELTA_NOT_NULL_CONSTRAINT_VIOLATED] NOT NULL constraint violated for column: "
                            + "top.key.");
        }
        assertThat(read(t)).containsExactly(Row.of(1L, Row.of("a", null), null));
    }

    @Test
    void aNullAtANotNullPositionInsideAnArrayOrMapFailsTheBatchInsteadOfWritingAnUnreadableFile() throws Exception {
        Path t = tmp.resolve("t");
        DeltaTable created = DeltaTable.open(t.toString());
        io.delta.kernel.types.IntegerType i = io.delta.kernel.types.IntegerType.INTEGER;
        created.table.createTransactionBuilder(created.engine, "test", io.delta.kernel.Operation.CREATE_TABLE)
                .withSchema(created.engine, new io.delta.kernel.types.StructType()
                        .add("id", io.delta.kernel.types.LongType.LONG, true)
                        .add("l", new io.delta.kernel.types.ArrayType(i, false), true)
                        .add("m", new io.delta.kernel.types.MapType(i, new io.delta.kernel.types.ArrayType(
                                new io.delta.kernel.types.StructType().add("a", i, true).add("b", i, false), true),
                                true), true))
                .build(created.engine).commit(created.engine, io.delta.kernel.utils.CloseableIterable.emptyIterable());
        DeltaSink s = new DeltaSink(DeltaTable.open(t.toString()), StructType.fromDDL(
                "id bigint, l array<int>, m map<int,array<struct<a:int,b:int>>>"), List.of(), "q");
        Row good = Row.of(1L, List.of(1), Map.of(1, Arrays.asList(null, Row.of(null, 2))));
        commit(s, 0, good, Row.of(2L, null, Map.of(2, List.of())));
        BatchWriter w = s.beginBatch(1);
        PartitionWriter pw = w.partitionWriter(0);
        assertThatThrownBy(() -> pw.write(Row.of(3L, Arrays.asList(1, null), null)))
                .isInstanceOf(IllegalStateException.class).hasMessage("The Delta table " + t + " declares "
                        + "`l.element` NOT NULL and a row holds a null there: Kernel's Parquet writer would write a "
                        + "file no reader can read");
        assertThatThrownBy(() -> pw.write(Row.of(4L, null, Map.of(1, List.of(Row.of(1, null))))))
                .hasMessageContaining("declares `m.value.element.b` NOT NULL");
        assertThat(read(t)).containsExactlyInAnyOrder(good, Row.of(2L, null, Map.of(2, List.of())));
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
