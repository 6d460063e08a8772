package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.sink.Sink;
import io.sluice.api.types.StructType;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Manifest compaction, retention and deletion, on a manual clock; reading Spark's own manifests. */
class FileSinkLogTest {
    private static final StructType SCHEMA = StructType.fromDDL("id long");
    private static final long DAY = 86_400_000L;

    @TempDir
    Path out;
    private final ManualClock clock = new ManualClock(1_790_899_200_000L);

    private Sink sink(String... options) {
        return SinkHarness.sink("json", SinkHarness.options(out, options), SCHEMA, clock);
    }

    private List<String> metadataFiles() throws Exception {
        return SinkHarness.allFiles(out.resolve("_spark_metadata"));
    }

    private static List<List<Row>> rows(long id) {
        return List.of(List.of(Row.of(id)));
    }

    @Test
    void everyIntervalthBatchIsACompactFileHoldingAllEntries() throws Exception {
        Sink sink = sink("compactInterval", "3");
        List<String> perBatch = new ArrayList<>();
        for (long b = 0; b < 6; b++) {
            SinkHarness.batch(sink, b, rows(b));
            perBatch.add(FileSinkManifest.batch(out, b).get(FileSinkManifest.batch(out, b).size() - 1).path());
        }
        assertThat(metadataFiles()).containsExactly("0", "1", "2.compact", "3", "4", "5.compact");
        assertThat(FileSinkManifest.batch(out, 2)).extracting(SinkFileStatus::path)
                .containsExactly(perBatch.get(0), perBatch.get(1), perBatch.get(2));
        assertThat(FileSinkManifest.batch(out, 5)).extracting(SinkFileStatus::path).containsExactlyElementsOf(perBatch);
        assertThat(FileSinkManifest.allFiles(out)).extracting(SinkFileStatus::path).containsExactlyElementsOf(perBatch);
        assertThat(Files.readString(out.resolve("_spark_metadata/5.compact"))).startsWith("v1\n{\"path\":")
                .doesNotEndWith("\n");
    }

    @Test
    void defaultIntervalIsTen() throws Exception {
        Sink sink = sink();
        for (long b = 0; b < 11; b++) {
            SinkHarness.batch(sink, b, rows(b));
        }
        assertThat(metadataFiles()).containsExactly("0", "1", "10", "2", "3", "4", "5", "6", "7", "8", "9.compact");
        assertThat(FileSinkManifest.allFiles(out)).hasSize(11);
    }

    @Test
    void retentionDropsOldEntriesAtCompaction() throws Exception {
        Sink sink = sink("compactInterval", "3", "retention", "1d");
        SinkHarness.batch(sink, 0, rows(0));
        clock.advance(2 * DAY);
        SinkHarness.batch(sink, 1, rows(1));
        SinkHarness.batch(sink, 2, rows(2));
        List<SinkFileStatus> compact = FileSinkManifest.batch(out, 2);
        assertThat(compact).hasSize(2);
        assertThat(compact).extracting(SinkFileStatus::modificationTime).containsOnly(clock.millis());
        assertThat(FileSinkManifest.allFiles(out)).hasSize(2);
        // The data file itself stays: retention trims the manifest only.
        assertThat(SinkHarness.visibleFiles(out)).hasSize(3);

        clock.advance(DAY / 2);
        SinkHarness.batch(sink, 3, rows(3));
        SinkHarness.batch(sink, 4, rows(4));
        clock.advance(DAY);
        SinkHarness.batch(sink, 5, rows(5));
        // At 3.5 days: batches 1 and 2 (2 days) are 1.5 days old, 3 and 4 one day exactly (kept), 5 new.
        assertThat(FileSinkManifest.batch(out, 5)).hasSize(3);
    }

    @Test
    void oldManifestFilesAreDeletedAfterTheCleanupDelay() throws Exception {
        Sink sink = sink("compactInterval", "3", "minBatchesToRetain", "2", "cleanupDelay", "1m");
        for (long b = 0; b < 6; b++) {
            SinkHarness.batch(sink, b, rows(b));
        }
        // Too recent: nothing deleted yet.
        assertThat(metadataFiles()).containsExactly("0", "1", "2.compact", "3", "4", "5.compact");
        clock.advance(60_000);
        SinkHarness.batch(sink, 6, rows(6));
        // Spark's rule: batch 6 keeps batches 5 and 6, and the compaction before batch 5, 2.compact.
        assertThat(metadataFiles()).containsExactly("2.compact", "3", "4", "5.compact", "6");
        SinkHarness.batch(sink, 7, rows(7));
        SinkHarness.batch(sink, 8, rows(8));
        // Batch 8 keeps 7 and 8 and the compaction before 7, 5.compact.
        assertThat(metadataFiles()).containsExactly("5.compact", "6", "7", "8.compact");
        assertThat(FileSinkManifest.allFiles(out)).hasSize(9);
    }

    @Test
    void theIntervalOfExistingCompactFilesWins() throws Exception {
        Sink first = sink("compactInterval", "3");
        for (long b = 0; b < 4; b++) {
            SinkHarness.batch(first, b, rows(b));
        }
        Sink restarted = sink("compactInterval", "10");
        SinkHarness.batch(restarted, 4, rows(4));
        SinkHarness.batch(restarted, 5, rows(5));
        assertThat(metadataFiles()).contains("2.compact", "5.compact");
        assertThat(SinkLog.deriveCompactInterval(5, 11)).isEqualTo(6);
        assertThat(SinkLog.deriveCompactInterval(10, 2)).isEqualTo(3);
        assertThat(SinkLog.deriveCompactInterval(3, 9)).isEqualTo(5);
        assertThat(SinkLog.deriveCompactInterval(4, 6)).isEqualTo(7);
    }

    @Test
    void aMissingBatchFileFailsTheCompactionNamingIt() throws Exception {
        Sink sink = sink("compactInterval", "3");
        SinkHarness.batch(sink, 0, rows(0));
        SinkHarness.batch(sink, 1, rows(1));
        Files.delete(out.resolve("_spark_metadata/0"));
        assertThatThrownBy(() -> SinkHarness.batch(sink, 2, rows(2))).isInstanceOf(IllegalStateException.class)
                .hasMessage(out.resolve("_spark_metadata/0") + " doesn't exist when compacting batch 2 "
                        + "(compactInterval: 3)");
        // The failed batch's file was taken back; those of batches 0 and 1 stay.
        assertThat(SinkHarness.visibleFiles(out)).hasSize(2);
        assertThat(Files.exists(out.resolve("_spark_metadata/2.compact"))).isFalse();
    }

    @Test
    void readsSparksManifests() throws Exception {
        Path samples = FileSinkEndToEndTest.SPARK_SAMPLES;
        List<SinkFileStatus> rate = FileSinkManifest.allFiles(samples.resolve("rate-out"));
        assertThat(rate).containsExactly(
                new SinkFileStatus("file:///data/rate-out/part-00000-b6751de7-9491-4447-8b13-032fa4302e15-c000.json",
                        153, false, 1795936512172L, 1, 33554432, "add"),
                new SinkFileStatus("file:///data/rate-out/part-00001-2b221df2-0fb7-4063-8c0e-36aae94d55c0-c000.json",
                        102, false, 1795936512176L, 1, 33554432, "add"));
        assertThat(FileSinkManifest.latestBatchId(samples.resolve("file-out"))).hasValue(1);
        assertThat(FileSinkManifest.allFiles(samples.resolve("file-out"))).hasSize(3);
        assertThat(rate.get(0).localPath()).isEqualTo(Path.of("/data/rate-out/part-00000-b6751de7-9491-4447-8b13-"
                + "032fa4302e15-c000.json"));
        // Our JSON form of an entry is Spark's, byte for byte.
        String sparkLines = Files.readString(samples.resolve("rate-out/_spark_metadata/0"));
        assertThat("v1\n" + rate.get(0).toJson() + "\n" + rate.get(1).toJson()).isEqualTo(sparkLines);
    }

    /** The names {@code from..to} as the manifest writes them with this interval. */
    private static List<String> names(long from, long to, int interval) {
        List<String> out = new ArrayList<>();
        for (long b = from; b <= to; b++) {
            out.add(SinkLog.isCompactionBatch(b, interval) ? b + ".compact" : Long.toString(b));
        }
        return out;
    }

    @Test
    void aBackToBackQueryKeepsTheFilesOfTheLastCleanupDelay() throws Exception {
        Sink sink = sink("compactInterval", "3", "minBatchesToRetain", "2", "cleanupDelay", "5s");
        for (long b = 0; b < 30; b++) {
            SinkHarness.batch(sink, b, rows(b));
            // Batch b is written at second b: files of batches b-5 and before are 5 s old, and all of them are
            // before the compaction batch b keeps (b-1 - (b-1) % 3 - 1 >= b-4), so exactly b-4..b stay.
            assertThat(metadataFiles()).containsExactlyInAnyOrderElementsOf(names(Math.max(0, b - 4), b, 3));
            clock.advance(1_000);
        }
        assertThat(metadataFiles()).containsExactly("25", "26.compact", "27", "28", "29.compact");
        assertThat(FileSinkManifest.allFiles(out)).hasSize(30);
    }

    @Test
    void theFolderHoldsMinBatchesToRetainPlusAnIntervalOrTheLastCleanupDelayWhicheverIsMore() throws Exception {
        // One batch a second for 100 s, a 30 s delay: at second 99 the files of seconds 70..99 are too recent to
        // go (69 is exactly 30 s old: gone), though minBatchesToRetain would keep only 89.compact..99.
        Sink sink = sink("minBatchesToRetain", "10", "cleanupDelay", "30s");
        for (long b = 0; b < 100; b++) {
            SinkHarness.batch(sink, b, rows(b));
            clock.advance(1_000);
        }
        assertThat(metadataFiles()).containsExactlyInAnyOrderElementsOf(names(70, 99, 10));

        // Then one batch every 10 s: the delay covers 3 batches, fewer than the 10 kept; batch 149 keeps the
        // compaction before batch 140 (139.compact) and every batch since: 11 files.
        for (long b = 100; b < 150; b++) {
            SinkHarness.batch(sink, b, rows(b));
            clock.advance(10_000);
        }
        assertThat(metadataFiles()).containsExactlyInAnyOrderElementsOf(names(139, 149, 10));
        assertThat(FileSinkManifest.allFiles(out)).hasSize(150);
    }

    @Test
    void withRetentionTheCompactFileHoldsOnlyRecentEntries() throws Exception {
        Sink sink = sink("retention", "1m", "cleanupDelay", "0");
        for (long b = 0; b < 60; b++) {
            SinkHarness.batch(sink, b, rows(b));
            clock.advance(10_000);
        }
        // At batch 59 (590 s), entries of 530 s on are kept: batches 53..59; so did 49.compact (43..49).
        assertThat(FileSinkManifest.batch(out, 59)).hasSize(7);
        assertThat(FileSinkManifest.batch(out, 49)).hasSize(7);
        assertThat(FileSinkManifest.allFiles(out)).extracting(f -> SinkHarness.read(f.localPath()))
                .containsExactly("{\"id\":53}\n", "{\"id\":54}\n", "{\"id\":55}\n", "{\"id\":56}\n",
                        "{\"id\":57}\n", "{\"id\":58}\n", "{\"id\":59}\n");
        // cleanupDelay 0: only what minBatchesToRetain (100) keeps.
        assertThat(metadataFiles()).hasSize(60);
    }

    @Test
    void aCompactionCopiesEarlierEntriesAsTheyWereWritten() throws Exception {
        // Another writer's line (Spark of another version, say) with its fields in another order.
        String foreign = "{\"action\":\"add\",\"path\":\"file:///elsewhere/part-00000-x.json\",\"size\":5,"
                + "\"isDir\":false,\"modificationTime\":" + clock.millis() + ",\"blockReplication\":1,"
                + "\"blockSize\":33554432}";
        Files.createDirectories(out.resolve("_spark_metadata"));
        Files.writeString(out.resolve("_spark_metadata/0"), "v1\n" + foreign);
        Sink sink = sink("compactInterval", "3");
        SinkHarness.batch(sink, 1, rows(1));
        SinkHarness.batch(sink, 2, rows(2));
        List<String> lines = Files.readAllLines(out.resolve("_spark_metadata/2.compact"));
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo("v1");
        assertThat(lines.get(1)).isEqualTo(foreign);
        assertThat(lines.get(2)).isEqualTo(FileSinkManifest.batch(out, 1).get(0).toJson());
    }

    @Test
    void retentionReadsTheTimeOfEntriesWrittenWithSpacesAndFailsOnAMalformedOne() throws Exception {
        Files.createDirectories(out.resolve("_spark_metadata"));
        Files.writeString(out.resolve("_spark_metadata/0"), "v1\n{\"path\": \"file:///old.json\", "
                + "\"modificationTime\" : " + (clock.millis() - 2 * DAY) + "}\n{\"path\": \"file:///new.json\", "
                + "\"modificationTime\" : " + clock.millis() + "}");
        Sink sink = sink("compactInterval", "3", "retention", "1d");
        SinkHarness.batch(sink, 1, rows(1));
        SinkHarness.batch(sink, 2, rows(2));
        assertThat(FileSinkManifest.batch(out, 2)).extracting(SinkFileStatus::path).hasSize(3)
                .startsWith("file:///new.json");

        Files.writeString(out.resolve("_spark_metadata/3"), "v1\n{\"path\": broken");
        SinkHarness.batch(sink, 4, rows(4));
        assertThatThrownBy(() -> SinkHarness.batch(sink, 5, rows(5))).isInstanceOf(IllegalStateException.class)
                .hasMessage("Malformed entry in manifest file " + out.resolve("_spark_metadata/3")
                        + ": {\"path\": broken");
    }

    @Test
    void filesRetentionDroppedAreInvisibleToTheFileSourceReadingTheManifest(@TempDir Path chk) throws Exception {
        Sink sink = sink("compactInterval", "3", "retention", "1h");
        SinkHarness.batch(sink, 0, rows(0));
        clock.advance(2 * 3_600_000L);
        SinkHarness.batch(sink, 1, rows(1));
        SinkHarness.batch(sink, 2, rows(2));
        // Batch 0's data file is still in the folder, but no longer in the manifest.
        assertThat(SinkHarness.visibleFiles(out)).hasSize(3);
        try (Sluice sluice = Sluice.local()) {
            StreamingQuery q = sluice.readStream().format("json").schema("id long").load(out.toString())
                    .writeStream().format("memory").queryName("retained")
                    .option("checkpointLocation", chk.toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            assertThat(MemorySink.rows("retained")).extracting(r -> r.get(0)).containsExactlyInAnyOrder(1L, 2L);
        }
    }
}
