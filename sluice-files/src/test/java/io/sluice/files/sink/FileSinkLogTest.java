package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.sink.Sink;
import io.sluice.api.types.StructType;
import io.sluice.core.ManualClock;
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
}
