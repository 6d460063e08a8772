package io.sluice.files.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The file sink through the engine, compared with files Spark 4.2 wrote for the same query. */
class FileSinkEndToEndTest {
    static final Path SPARK_SAMPLES = Path.of("src/test/resources/spark-samples");
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();

    @AfterEach
    void close() {
        sluice.close();
    }

    private StreamingQuery rateToJson(Path out, Path chk) {
        return sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 5).option("numPartitions", 2)
                .option("startTimestamp", 1790899200000L).load()
                .writeStream().format("json").option("checkpointLocation", chk.toString())
                .trigger(Trigger.availableNow()).start(out.toString());
    }

    /** A manifest with the parts that differ per run (folder, uuid, time) replaced. */
    private static String normalized(String manifest, String outUri) {
        return UUID.matcher(manifest.replace(outUri, "file:///OUT")).replaceAll("UUID")
                .replaceAll("\"modificationTime\":\\d+", "\"modificationTime\":T");
    }

    @Test
    void theFileSinkTakesTheAppendOutputModeOnlyAsSparksDoes() throws Exception {
        io.sluice.core.StreamFrame counts = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3)
                .option("startTimestamp", 1790899200000L).option("advanceMillisPerBatch", 10_000).load()
                .withWatermark("timestamp", "0 seconds")
                .groupBy(io.sluice.core.Functions.window(io.sluice.core.Functions.col("timestamp"), "10 seconds"))
                .count();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> counts.writeStream().format("json")
                        .outputMode("update").option("checkpointLocation", tmp.resolve("chk-u").toString())
                        .start(tmp.resolve("out-u").toString()))
                .hasMessage("Data source json does not support Update output mode");
        // append, one batch a run: batch 1 moves the watermark to 00:00:10, batch 2 closes [00:00:00, 00:00:10)
        Path out = tmp.resolve("windows");
        for (int run = 0; run < 3; run++) {
            counts.writeStream().format("json").outputMode("append")
                    .option("checkpointLocation", tmp.resolve("chk-a").toString())
                    .trigger(Trigger.once()).start(out.toString()).awaitTermination();
        }
        List<SinkFileStatus> files = FileSinkManifest.allFiles(out);
        assertThat(files).hasSize(1);
        assertThat(SinkHarness.read(files.get(0).localPath())).isEqualTo("{\"window\":{\"start\":"
                + "\"2026-10-02T00:00:00.000Z\",\"end\":\"2026-10-02T00:00:10.000Z\"},\"count\":3}\n");
    }

    @Test
    void aFileUriPathWritesToThatFolder() throws Exception {
        Path out = tmp.resolve("uri out");
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3)
                .option("numPartitions", 1).option("startTimestamp", 1790899200000L).load()
                .writeStream().format("json").option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start("file://" + out.toString().replace(" ", "%20"));
        q.awaitTermination();

        List<SinkFileStatus> files = FileSinkManifest.allFiles(out);
        assertThat(files).hasSize(1);
        assertThat(SinkHarness.read(files.get(0).localPath())).isEqualTo(
                "{\"timestamp\":\"2026-10-02T00:00:00.000Z\",\"value\":0}\n"
                        + "{\"timestamp\":\"2026-10-02T00:00:00.000Z\",\"value\":1}\n"
                        + "{\"timestamp\":\"2026-10-02T00:00:00.000Z\",\"value\":2}\n");
    }

    @Test
    void rateMicroBatchGivesSparksFilesAndManifest() throws Exception {
        Path out = tmp.resolve("rate-out");
        StreamingQuery q = rateToJson(out, tmp.resolve("chk"));
        q.awaitTermination();

        List<SinkFileStatus> files = FileSinkManifest.allFiles(out);
        assertThat(files).hasSize(2);
        String part0 = SinkHarness.read(files.get(0).localPath());
        assertThat(part0).isEqualTo(Files.readString(SPARK_SAMPLES.resolve("rate-out-part-00000.json")));
        assertThat(SinkHarness.read(files.get(1).localPath())).isEqualTo(
                "{\"timestamp\":\"2026-10-02T00:00:00.000Z\",\"value\":1}\n"
                        + "{\"timestamp\":\"2026-10-02T00:00:00.000Z\",\"value\":3}\n");

        String ours = Files.readString(out.resolve("_spark_metadata/0"));
        String spark = Files.readString(SPARK_SAMPLES.resolve("rate-out/_spark_metadata/0"));
        assertThat(normalized(ours, "file://" + out)).isEqualTo(normalized(spark, "file:///data/rate-out"));
        assertThat(ours).doesNotEndWith("\n");
        assertThat(files.get(0).path()).matches("file://" + Pattern.quote(out.toString())
                + "/part-00000-" + UUID.pattern() + "-c000\\.json");
        assertThat(files.get(0).size()).isEqualTo(153);
        assertThat(files.get(1).size()).isEqualTo(102);
        assertThat(files.get(0).modificationTime()).isEqualTo(Files.getLastModifiedTime(files.get(0).localPath())
                .toMillis());

        assertThat(q.lastProgress().sink().description()).isEqualTo("FileSink[" + out + "]");
        assertThat(q.lastProgress().sink().numOutputRows()).isEqualTo(-1);
        assertThat(SinkHarness.visibleFiles(out)).hasSize(2);
        // The staging folder goes when the query stops.
        assertThat(Files.exists(out.resolve(".sluice-staging"))).isFalse();
    }

    @Test
    void everyFileInTheManifestParsesAsJsonWithTheRowsValues() throws Exception {
        Path out = tmp.resolve("out");
        rateToJson(out, tmp.resolve("chk")).awaitTermination();
        ObjectMapper mapper = new ObjectMapper();
        List<Long> values = new ArrayList<>();
        for (SinkFileStatus f : FileSinkManifest.allFiles(out)) {
            for (String line : Files.readAllLines(f.localPath())) {
                JsonNode n = mapper.readTree(line);
                assertThat(n.get("timestamp").asText()).isEqualTo("2026-10-02T00:00:00.000Z");
                values.add(n.get("value").asLong());
            }
        }
        assertThat(values).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void aBatchReRunAfterItsManifestWasWrittenIsSkipped() throws Exception {
        Path out = tmp.resolve("out");
        Path chk = tmp.resolve("chk");
        rateToJson(out, chk).awaitTermination();
        String manifest = Files.readString(out.resolve("_spark_metadata/0"));
        List<String> files = SinkHarness.visibleFiles(out);

        // A crash after the sink committed batch 0 but before the engine wrote commits/0.
        Files.delete(chk.resolve("commits/0"));
        StreamingQuery again = rateToJson(out, chk);
        again.awaitTermination();

        // Batch 0 ran again and wrote nothing; availableNow then ran batch 1 as usual.
        assertThat(again.recentProgress()).extracting(p -> p.batchId()).containsExactly(0L, 1L);
        assertThat(Files.readString(out.resolve("_spark_metadata/0"))).isEqualTo(manifest);
        List<String> now = SinkHarness.visibleFiles(out);
        assertThat(now).hasSize(4).containsAll(files);
        assertThat(SinkHarness.manifestFiles(out)).hasSize(4).containsExactlyInAnyOrderElementsOf(now);
        assertThat(Files.exists(chk.resolve("commits/0"))).isTrue();
    }

    @Test
    void aFailedBatchLeavesNoManifestEntryAndNoVisibleFile() throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("id long, name string"));
        try {
            Path out = tmp.resolve("out");
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("json").option("checkpointLocation", tmp.resolve("chk").toString())
                    .start(out.toString());
            input.addData(Row.of(1L, "a"));
            q.processAllAvailable();
            // Two partitions: the first is written, the second fails on a value of the wrong type.
            input.addData(Row.of(2L, "b"), Row.of(3L, "c"));
            input.addData(Row.of("not a number", "d"));
            assertThatThrownBy(q::processAllAvailable).isInstanceOf(StreamingQueryException.class)
                    .hasRootCauseInstanceOf(ClassCastException.class);

            assertThat(FileSinkManifest.latestBatchId(out)).hasValue(0);
            assertThat(SinkHarness.visibleFiles(out)).hasSize(1).containsExactlyElementsOf(SinkHarness.manifestFiles(out));
            assertThat(Files.exists(out.resolve(".sluice-staging"))).isFalse();
        } finally {
            input.unregister();
        }
    }

    @Test
    void partitionByPutsRowsInFoldersWithoutThePartitionColumns() throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("id long, day string, kind string"));
        try {
            Path out = tmp.resolve("out");
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("json").partitionBy("day", "kind")
                    .option("checkpointLocation", tmp.resolve("chk").toString()).start(out.toString());
            input.addData(Row.of(1L, "2026-10-02", "a"), Row.of(2L, "2026-10-02", "b/c"), Row.of(3L, null, "a"));
            q.processAllAvailable();
            q.stop();

            assertThat(SinkHarness.visibleFiles(out)).hasSize(3).allMatch(f -> f.matches(
                    "(day=2026-10-02/kind=a|day=2026-10-02/kind=b%2Fc|day=__HIVE_DEFAULT_PARTITION__/kind=a)"
                            + "/part-00000-" + UUID.pattern() + "-c000\\.json"));
            assertThat(SinkHarness.manifestFiles(out)).containsExactlyInAnyOrderElementsOf(SinkHarness.visibleFiles(out));
            Path escaped = Files.list(out.resolve("day=2026-10-02/kind=b%2Fc")).findFirst().orElseThrow();
            assertThat(SinkHarness.read(escaped)).isEqualTo("{\"id\":2}\n");
            assertThat(FileSinkManifest.allFiles(out)).anyMatch(s -> s.path().contains("/kind=b%252Fc/"));
        } finally {
            input.unregister();
        }
    }
}
