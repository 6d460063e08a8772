package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CheckpointShowTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private Path chk() {
        return tmp.resolve("chk").toAbsolutePath().normalize();
    }

    /** Three availableNow runs of rate-micro-batch: batches 0, 1, 2, each committed. */
    private void runThreeBatches() {
        for (int i = 0; i < 3; i++) {
            Cli.Result r = Cli.run("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=5",
                    "--source-option", "numPartitions=1", "--sink", "noop", "--checkpoint", chk().toString(),
                    "--trigger", "availableNow");
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
    }

    private String queryId() throws IOException {
        return JSON.readTree(Files.readString(chk().resolve("metadata"))).get("id").asText();
    }

    private Instant timestamp(long batch) throws IOException {
        String line = Files.readString(chk().resolve("offsets/" + batch)).split("\n")[1];
        return Instant.ofEpochMilli(JSON.readTree(line).get("batchTimestampMs").asLong());
    }

    @Test
    void showsARealQuerysCheckpointWithAnUncommittedBatch() throws IOException {
        runThreeBatches();
        Files.delete(chk().resolve("commits/2"));

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Checkpoint: " + chk() + "\n"
                + "Query id: " + queryId() + "\n"
                + "Batches: 3 retained (0 to 2)\n"
                + "Batch 0: committed, " + timestamp(0) + "\n"
                + "  source 0: initial -> {\"offset\":5,\"timestamp\":1000}\n"
                + "Batch 1: committed, " + timestamp(1) + "\n"
                + "  source 0: {\"offset\":5,\"timestamp\":1000} -> {\"offset\":10,\"timestamp\":2000}\n"
                + "Batch 2: not committed, " + timestamp(2) + "\n"
                + "  source 0: {\"offset\":10,\"timestamp\":2000} -> {\"offset\":15,\"timestamp\":3000}\n"
                + "Batch a restart re-runs: 2\n");

        Cli.Result json = Cli.run("checkpoint", "show", chk().toString(), "--json");
        assertThat(json.exitCode()).isZero();
        JsonNode doc = JSON.readTree(json.out());
        assertThat(doc.get("checkpoint").asText()).isEqualTo(chk().toString());
        assertThat(doc.get("queryId").asText()).isEqualTo(queryId());
        assertThat(doc.get("rerunBatch").asLong()).isEqualTo(2);
        JsonNode batches = doc.get("batches");
        assertThat(batches).hasSize(3);
        assertThat(batches.get(0).get("committed").asBoolean()).isTrue();
        assertThat(batches.get(0).get("timestampMs").asLong()).isEqualTo(timestamp(0).toEpochMilli());
        JsonNode s0 = batches.get(0).get("sources").get(0);
        assertThat(s0.get("index").asInt()).isZero();
        assertThat(s0.get("startKind").asText()).isEqualTo("initial");
        assertThat(s0.get("start").isNull()).isTrue();
        assertThat(s0.get("end")).isEqualTo(JSON.readTree("{\"offset\":5,\"timestamp\":1000}"));
        assertThat(s0.has("files")).isFalse();
        JsonNode s2 = batches.get(2).get("sources").get(0);
        assertThat(batches.get(2).get("committed").asBoolean()).isFalse();
        assertThat(s2.get("startKind").asText()).isEqualTo("previousBatch");
        assertThat(s2.get("start")).isEqualTo(JSON.readTree("{\"offset\":10,\"timestamp\":2000}"));
        assertThat(s2.get("end")).isEqualTo(JSON.readTree("{\"offset\":15,\"timestamp\":3000}"));

        // The re-run really happens: a restart runs batch 2 again and commits it.
        Cli.Result rerun = Cli.run("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=5",
                "--source-option", "numPartitions=1", "--sink", "noop", "--checkpoint", chk().toString(),
                "--trigger", "availableNow");
        assertThat(rerun.out()).contains("\nbatch 2: 5 rows");
        assertThat(Cli.run("checkpoint", "show", chk().toString()).out()).endsWith("Batch a restart re-runs: none\n");
    }

    @Test
    void purgedAndCorruptBatches() throws IOException {
        runThreeBatches();
        Files.delete(chk().resolve("offsets/0"));
        Files.delete(chk().resolve("commits/0"));
        Files.writeString(chk().resolve("offsets/3"), "garbage");
        Files.writeString(chk().resolve("offsets/.4.tmp"), "ignored");

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Batches: 3 retained (1 to 3)\n"
                + "Batch 1: committed, " + timestamp(1) + "\n"
                + "  source 0: unknown (offsets/0 is purged or unreadable) -> {\"offset\":10,\"timestamp\":2000}\n");
        assertThat(r.out()).endsWith("Batch 3: not committed\n"
                + "  cannot read offsets/3: line 1 should be the version \"v1\" but is \"garbage\"\n"
                + "Batch a restart re-runs: 3\n");
        JsonNode doc = JSON.readTree(Cli.run("checkpoint", "show", chk().toString(), "--json").out());
        assertThat(doc.get("batches").get(0).get("sources").get(0).get("startKind").asText()).isEqualTo("unknown");
        assertThat(doc.get("batches").get(2).get("problem").asText())
                .isEqualTo("cannot read offsets/3: line 1 should be the version \"v1\" but is \"garbage\"");
    }

    /**
     * The files are read with the engine's own readers (CheckpointView): what a query would refuse to start from
     * is shown as that batch's problem, in the engine's words, not printed as if it were an offset.
     */
    @Test
    void aBatchTheEngineWouldRefuseIsShownWithTheEnginesReason() throws IOException {
        runThreeBatches();
        Files.writeString(chk().resolve("offsets/3"), "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1,"
                + "\"conf\":{}}\n{\"offset\":20,");
        Files.writeString(chk().resolve("offsets/4"), "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":\"x\"}"
                + "\n{\"offset\":25}");

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).endsWith("Batch 3: not committed\n"
                + "  cannot read offsets/3: line 3 (the offset of source 0) is not valid JSON\n"
                + "Batch 4: not committed\n"
                + "  cannot read offsets/4: line 2: \"batchTimestampMs\" is not a whole number\n"
                + "Batch a restart re-runs: 4\n");
    }

    /** A file source's checkpoint as Spark writes it: log ids 0..2 compacted into 2.compact, log id 3 plain. */
    private void fileSourceCheckpoint() throws IOException {
        Path c = Files.createDirectories(chk());
        Files.writeString(c.resolve("metadata"), "{\"id\":\"aadb4e10-8497-408e-9776-46e1e65890c4\"}");
        Files.createDirectories(c.resolve("offsets"));
        Files.createDirectories(c.resolve("commits"));
        Files.createDirectories(c.resolve("sources/0"));
        String meta = "{\"batchWatermarkMs\":0,\"batchTimestampMs\":1795936513465,\"conf\":{}}";
        String[] logOffsets = {"0", "2", "3"};
        for (int b = 0; b < 3; b++) {
            Files.writeString(c.resolve("offsets/" + b), "v1\n" + meta + "\n{\"logOffset\":" + logOffsets[b] + "}");
            Files.writeString(c.resolve("commits/" + b), "v1\n{\"nextBatchWatermarkMs\":0}");
        }
        Files.writeString(c.resolve("sources/0/2.compact"), "v1\n"
                + "{\"path\":\"file:///in/a.json\",\"timestamp\":1,\"batchId\":0}\n"
                + "{\"path\":\"file:///in/b.json\",\"timestamp\":1,\"batchId\":0}\n"
                + "{\"path\":\"file:///in/c.json\",\"timestamp\":2,\"batchId\":1}\n"
                + "{\"path\":\"file:///in/d.json\",\"timestamp\":3,\"batchId\":2}");
        Files.writeString(c.resolve("sources/0/3"), "v1\n{\"path\":\"file:///in/e.json\",\"timestamp\":4,"
                + "\"batchId\":3}\n");
    }

    @Test
    void listsTheFilesAFileSourceReadInEachBatch() throws IOException {
        fileSourceCheckpoint();

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        String ts = Instant.ofEpochMilli(1795936513465L).toString();
        assertThat(r.out()).isEqualTo("Checkpoint: " + chk() + "\n"
                + "Query id: aadb4e10-8497-408e-9776-46e1e65890c4\n"
                + "Batches: 3 retained (0 to 2)\n"
                + "Batch 0: committed, " + ts + "\n"
                + "  source 0: initial -> {\"logOffset\":0}\n"
                + "    files read: 2\n"
                + "      file:///in/a.json\n"
                + "      file:///in/b.json\n"
                + "Batch 1: committed, " + ts + "\n"
                + "  source 0: {\"logOffset\":0} -> {\"logOffset\":2}\n"
                + "    files read: 2\n"
                + "      file:///in/c.json\n"
                + "      file:///in/d.json\n"
                + "Batch 2: committed, " + ts + "\n"
                + "  source 0: {\"logOffset\":2} -> {\"logOffset\":3}\n"
                + "    files read: 1\n"
                + "      file:///in/e.json\n"
                + "Batch a restart re-runs: none\n");

        JsonNode doc = JSON.readTree(Cli.run("checkpoint", "show", chk().toString(), "--json").out());
        assertThat(doc.get("batches").get(1).get("sources").get(0).get("files"))
                .isEqualTo(JSON.readTree("[\"file:///in/c.json\",\"file:///in/d.json\"]"));
        assertThat(doc.get("rerunBatch").isNull()).isTrue();
    }

    /**
     * A real file source's log, as Sluice writes and compacts it: after twelve log offsets the source has
     * snapshotted its seen files and deleted the log files of offsets 0 to 9, so only batches 10 and 11 list files.
     */
    @Test
    void listsTheFilesOfARealFileSourceQueryAfterItCompactedItsLog() throws IOException {
        Path in = Files.createDirectories(tmp.resolve("in"));
        for (int i = 0; i < 12; i++) {
            Path f = Files.writeString(in.resolve("f" + i + ".json"), "{\"id\":" + i + "}\n");
            Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(1_700_000_000_000L + i));
            Cli.Result r = Cli.run("run", "--source", "json", "--source-option", "path=" + in, "--schema", "id long",
                    "--sink", "noop", "--checkpoint", chk().toString(), "--trigger", "availableNow");
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
        try (java.util.stream.Stream<Path> log = Files.list(chk().resolve("sources/0"))) {
            assertThat(log.map(p -> p.getFileName().toString()).sorted()).containsExactly("10", "11", "9.hot");
        }

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("Batches: 12 retained (0 to 11)\n")
                .contains("  source 0: initial -> {\"logOffset\":0}\nBatch 1: ")
                .contains("  source 0: {\"logOffset\":8} -> {\"logOffset\":9}\nBatch 10: ")
                .endsWith("  source 0: {\"logOffset\":9} -> {\"logOffset\":10}\n"
                        + "    files read: 1\n"
                        + "      file://" + in.resolve("f10.json") + "\n"
                        + "Batch 11: committed, " + timestamp(11) + "\n"
                        + "  source 0: {\"logOffset\":10} -> {\"logOffset\":11}\n"
                        + "    files read: 1\n"
                        + "      file://" + in.resolve("f11.json") + "\n"
                        + "Batch a restart re-runs: none\n");
    }

    @Test
    void sourceLogsInAnUnknownFormatAreSkippedQuietly() throws IOException {
        fileSourceCheckpoint();
        Files.writeString(chk().resolve("sources/0/3"), "v1\n12345");

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("  source 0: {\"logOffset\":2} -> {\"logOffset\":3}\n"
                + "Batch a restart re-runs: none\n");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void notACheckpoint() throws IOException {
        Path missing = tmp.resolve("missing");
        Cli.Result r = Cli.run("checkpoint", "show", missing.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: No checkpoint at " + missing + ": no such folder\n");

        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Cli.Result e = Cli.run("checkpoint", "show", empty.toString());
        assertThat(e.exitCode()).isEqualTo(1);
        assertThat(e.err()).isEqualTo("sluice: " + empty + " is not a checkpoint: it has no metadata file and no "
                + "offsets folder\n");
        assertThat(Files.list(empty)).isEmpty(); // nothing created

        Cli.Result usage = Cli.run("checkpoint", "show");
        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.err()).isEqualTo("sluice: Missing required parameter: 'DIR'; see 'sluice checkpoint show "
                + "--help'\n");
    }

    @Test
    void metadataOnly() throws IOException {
        Path c = Files.createDirectories(chk());
        Files.writeString(c.resolve("metadata"), "{\"id\":");
        Cli.Result r = Cli.run("checkpoint", "show", c.toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).isEqualTo("Checkpoint: " + c + "\n"
                + "Query id: unknown (cannot read metadata: it is not valid JSON)\n"
                + "Batches: none logged\n"
                + "Batch a restart re-runs: none\n");
    }

    /** Three availableNow runs of a grouped count (keys value % 3) on 2 state partitions, with the given store. */
    private void runStatefulBatches(String store) {
        for (int i = 0; i < 3; i++) {
            Cli.Result r = Cli.run("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=6",
                    "--source-option", "numPartitions=1", "--sql",
                    "SELECT value % 3 AS k, count(*) AS n FROM source GROUP BY value % 3", "--output-mode", "update",
                    "--sink", "noop", "--checkpoint", chk().toString(), "--trigger", "availableNow",
                    "--conf", "spark.sql.shuffle.partitions=2",
                    "--conf", "spark.sql.streaming.stateStore.providerClass=" + store);
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
    }

    /** Files and bytes under {@code dir}, counted here independently of the command. */
    private static long[] filesAndBytes(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            List<Path> regular = files.filter(Files::isRegularFile).toList();
            long bytes = 0;
            for (Path f : regular) {
                bytes += Files.size(f);
            }
            return new long[] {regular.size(), bytes};
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void showsEachStatefulOperatorsStateSizeWithTheInMemoryStore() throws IOException {
        String store = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";
        runStatefulBatches(store);
        Path op = chk().resolve("state/0");
        // Each batch commits a version of every partition: 1.delta to 3.delta, no snapshot yet.
        assertThat(names(op)).containsExactly("0", "1", "_metadata");
        assertThat(names(op.resolve("0"))).containsExactly("1.delta", "2.delta", "3.delta");
        assertThat(names(op.resolve("1"))).containsExactly("1.delta", "2.delta", "3.delta");
        long[] all = filesAndBytes(op);
        long[] p0 = filesAndBytes(op.resolve("0"));
        long[] p1 = filesAndBytes(op.resolve("1"));
        assertThat(all[0]).isEqualTo(8); // 6 deltas, _metadata/metadata and _metadata/schema

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        // The files' bytes as this state's encoding gives them (and as the folders hold them).
        assertThat(new long[] {all[1], p0[1], p1[1]}).containsExactly(628, 261, 153);
        // Keys 0, 1, 2: 0 and 2 hash to partition 0, 1 to partition 1 (StateCodec.partition).
        assertThat(r.out()).endsWith("Batch a restart re-runs: none\n"
                + "State: 1 operator, store " + store + "\n"
                + "  operator 0 (stateStoreSave): 2 partitions, version 3, 8 files, 628 bytes, 3 rows\n"
                + "    partition 0: version 3, 3 files, 261 bytes, 2 rows\n"
                + "    partition 1: version 3, 3 files, 153 bytes, 1 row\n");

        JsonNode state = JSON.readTree(Cli.run("checkpoint", "show", chk().toString(), "--json").out()).get("state");
        assertThat(state).hasSize(1);
        JsonNode o = state.get(0);
        assertThat(o.get("operatorId").asInt()).isZero();
        assertThat(o.get("operatorName").asText()).isEqualTo("stateStoreSave");
        assertThat(o.get("numPartitions").asInt()).isEqualTo(2);
        assertThat(o.get("store").asText()).isEqualTo(store);
        assertThat(o.get("version").asLong()).isEqualTo(3);
        assertThat(o.get("files").asLong()).isEqualTo(8);
        assertThat(o.get("bytes").asLong()).isEqualTo(628);
        assertThat(o.get("rows").asLong()).isEqualTo(3);
        assertThat(o.has("problem")).isFalse();
        assertThat(o.get("partitions")).hasSize(2);
        JsonNode j1 = o.get("partitions").get(1);
        assertThat(j1.get("partition").asInt()).isEqualTo(1);
        assertThat(j1.get("version").asLong()).isEqualTo(3);
        assertThat(j1.get("files").asLong()).isEqualTo(3);
        assertThat(j1.get("bytes").asLong()).isEqualTo(153);
        assertThat(j1.get("rows").asLong()).isEqualTo(1);
    }

    @Test
    void theRocksDbStoreTellsItsRowsFromItsVersionsMetadata() throws IOException {
        String store = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
        runStatefulBatches(store);
        Path op = chk().resolve("state/0");
        assertThat(names(op.resolve("0"))).contains("1.zip", "2.zip", "3.zip", "SSTs");
        long[] all = filesAndBytes(op);
        long[] p0 = filesAndBytes(op.resolve("0"));
        long[] p1 = filesAndBytes(op.resolve("1"));

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).endsWith("State: 1 operator, store " + store + "\n"
                + "  operator 0 (stateStoreSave): 2 partitions, version 3, " + all[0] + " files, " + all[1]
                + " bytes, 3 rows\n"
                + "    partition 0: version 3, " + p0[0] + " files, " + p0[1] + " bytes, 2 rows\n"
                + "    partition 1: version 3, " + p1[0] + " files, " + p1[1] + " bytes, 1 row\n");
    }

    @Test
    void aStatelessQueryShowsNoState() throws IOException {
        runThreeBatches();
        JsonNode doc = JSON.readTree(Cli.run("checkpoint", "show", chk().toString(), "--json").out());
        assertThat(doc.get("state")).isEmpty();
        assertThat(Cli.run("checkpoint", "show", chk().toString()).out()).doesNotContain("State:");
    }

    @Test
    void aMissingOperatorMetadataIsShownAndTheSizesStillCounted() throws IOException {
        runStatefulBatches("org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider");
        Files.delete(chk().resolve("state/0/_metadata/metadata"));
        long[] all = filesAndBytes(chk().resolve("state/0"));

        Cli.Result r = Cli.run("checkpoint", "show", chk().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("  operator 0 (unknown): 2 partitions, version 3, 7 files, " + all[1]
                + " bytes, 3 rows\n    cannot read state/0/_metadata/metadata: no such file\n");
    }
}
