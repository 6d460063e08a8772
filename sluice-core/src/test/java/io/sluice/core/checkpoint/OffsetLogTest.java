package io.sluice.core.checkpoint;

import io.sluice.core.CheckpointException;
import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.UnsupportedCheckpointVersionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OffsetLogTest {

    private static final String META = "{\"batchWatermarkMs\":0,\"batchTimestampMs\":1795936512895,\"conf\":{}}";
    private static final String RESTORE =
            "restore the checkpoint from a backup or start over with a new checkpoint location.";

    @TempDir
    Path root;
    Path offsets;
    Path commits;
    OffsetLog log;

    @BeforeEach
    void setUp() {
        offsets = root.resolve("offsets");
        commits = root.resolve("commits");
        log = new OffsetLog(offsets, commits);
    }

    @Test
    void writesSparksFormatAndReadsItBack() throws IOException {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("z.last.alphabetically", "1");
        conf.put("a.first.alphabetically", "two");
        OffsetSeq seq = new OffsetSeq(7, 1795935786166L, conf, Arrays.asList("{\"logOffset\":0}", null, "5"));

        assertThat(log.add(0, seq)).isTrue();

        assertThat(Files.readString(offsets.resolve("0"))).isEqualTo("v1\n"
                + "{\"batchWatermarkMs\":7,\"batchTimestampMs\":1795935786166,"
                + "\"conf\":{\"z.last.alphabetically\":\"1\",\"a.first.alphabetically\":\"two\"}}\n"
                + "{\"logOffset\":0}\n"
                + "-\n"
                + "5");
        OffsetSeq back = log.get(0).orElseThrow();
        assertThat(back).isEqualTo(seq);
        assertThat(back.conf().keySet()).containsExactly("z.last.alphabetically", "a.first.alphabetically");
        assertThat(back.offsets()).containsExactly("{\"logOffset\":0}", null, "5");
    }

    @Test
    void offsetsAreKeptVerbatim() {
        // Not canonical, but valid: the log must not normalize it, offsets are compared by their text.
        OffsetSeq seq = OffsetSeq.of(1, List.of("{\"b\":1, \"a\":[1,2]}"));
        log.add(0, seq);

        assertThat(log.get(0).orElseThrow().offsets()).containsExactly("{\"b\":1, \"a\":[1,2]}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"file-chk/offsets/0", "file-chk/offsets/1", "rate-chk/offsets/0"})
    void sparkSamplesRoundTripByteForByte(String sample) throws IOException {
        byte[] spark = Samples.bytes(sample);
        Files.write(offsets.resolve("0"), spark);

        OffsetSeq seq = log.get(0).orElseThrow();
        OffsetLog other = new OffsetLog(root.resolve("rewritten"), commits);
        other.add(0, seq);

        assertThat(Files.readAllBytes(root.resolve("rewritten/0"))).isEqualTo(spark);
    }

    @Test
    void sparkSampleValues() {
        Path dir = Samples.path("file-chk/offsets");
        OffsetLog sample = new OffsetLog(dir, Samples.path("file-chk/commits"));

        assertThat(sample.batchIds()).containsExactly(0L, 1L);
        OffsetSeq one = sample.getLatest().orElseThrow().value();
        assertThat(one.batchWatermarkMs()).isZero();
        assertThat(one.batchTimestampMs()).isEqualTo(1795936513465L);
        assertThat(one.conf()).hasSize(15).containsEntry("spark.sql.shuffle.partitions", "2");
        assertThat(one.conf().keySet().iterator().next()).isEqualTo("spark.sql.streaming.stateStore.providerClass");
        assertThat(one.offsets()).containsExactly("{\"logOffset\":1}");
        assertThat(new OffsetLog(Samples.path("rate-chk/offsets"), Samples.path("rate-chk/commits"))
                .get(0).orElseThrow().offsets()).containsExactly("{\"offset\":5,\"timestamp\":1790899201000}");
    }

    @Test
    void aBatchIsWrittenOnceAndNeverReplaced() throws IOException {
        assertThat(log.add(3, OffsetSeq.of(1, List.of("1")))).isTrue();
        byte[] before = Files.readAllBytes(offsets.resolve("3"));

        assertThat(log.add(3, OffsetSeq.of(2, List.of("2")))).isFalse();

        assertThat(Files.readAllBytes(offsets.resolve("3"))).isEqualTo(before);
        assertThat(log.get(3).orElseThrow().offsets()).containsExactly("1");
        assertThat(listing()).containsExactly("3");
    }

    @Test
    void listingIgnoresTempFilesChecksumsAndOtherNames() throws IOException {
        log.add(5, OffsetSeq.of(1, List.of("1")));
        log.add(12, OffsetSeq.of(1, List.of("1")));
        for (String name : List.of(".5.0b9a1c3e-6d2f-4c4b-9a53-2f3c2b1d9e7f.tmp", ".5.crc", "5.crc", "abc", "007",
                "-1", "+2", "12a", "99999999999999999999", "README")) {
            Files.writeString(offsets.resolve(name), "junk");
        }

        assertThat(log.batchIds()).containsExactly(5L, 12L);
        assertThat(log.latestId()).isEqualTo(OptionalLong.of(12));
        assertThat(log.getLatest().orElseThrow().batchId()).isEqualTo(12L);
    }

    @Test
    void emptyLog() {
        assertThat(log.batchIds()).isEmpty();
        assertThat(log.latestId()).isEmpty();
        assertThat(log.getLatest()).isEmpty();
        assertThat(log.get(0)).isEmpty();
    }

    @Test
    void purgeDeletesIdsBelowTheThreshold() {
        for (long id = 0; id < 6; id++) {
            log.add(id, OffsetSeq.of(id, List.of(Long.toString(id))));
        }
        log.purge(4);

        assertThat(log.batchIds()).containsExactly(4L, 5L);
    }

    @Test
    void anOffsetWithALineBreakIsRefused() {
        assertThatThrownBy(() -> OffsetSeq.of(1, List.of("{\"a\":\n1}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The offset of source 0 contains a line break; an offset must be JSON on one line: "
                        + "{\"a\":\n1}");
    }

    @Test
    void anOffsetThatIsNotJsonIsRefused() {
        assertThatThrownBy(() -> OffsetSeq.of(1, Arrays.asList(null, "{\"a\":")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The offset of source 1 is not valid JSON: {\"a\":");
        assertThatThrownBy(() -> OffsetSeq.of(1, List.of("-")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The offset of source 0 is not valid JSON: -");
    }

    @Test
    void aTrailingNewlineIsAccepted() throws IOException {
        Files.writeString(offsets.resolve("0"), "v1\n" + META + "\n{\"logOffset\":0}\n");

        assertThat(log.get(0).orElseThrow().offsets()).containsExactly("{\"logOffset\":0}");
    }

    @Test
    void emptyFile() throws IOException {
        write(6, "");
        assertCorrupt(6, "it is empty", newestUncommitted(6));
    }

    @Test
    void versionLineOnly() throws IOException {
        write(6, "v1");
        assertCorrupt(6, "expected at least 3 lines, found 1", newestUncommitted(6));
    }

    @Test
    void truncatedInTheMetadataLine() throws IOException {
        write(6, "v1\n{\"batchWatermarkMs\":0,\"batchTi");
        assertCorrupt(6, "expected at least 3 lines, found 2", newestUncommitted(6));
    }

    @Test
    void metadataLineThatIsNotJson() throws IOException {
        write(6, "v1\n{\"batchWatermarkMs\":0,\"batchTi\n{\"logOffset\":0}");
        assertCorrupt(6, "line 2 is not valid JSON", newestUncommitted(6));
    }

    @Test
    void metadataLineThatIsNotAnObject() throws IOException {
        write(6, "v1\n[0]\n{\"logOffset\":0}");
        assertCorrupt(6, "line 2 is not a JSON object", newestUncommitted(6));
    }

    @Test
    void metadataWithAWrongType() throws IOException {
        write(6, "v1\n{\"batchWatermarkMs\":\"0\"}\n1");
        assertCorrupt(6, "line 2: \"batchWatermarkMs\" is not a whole number", newestUncommitted(6));
        write(7, "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1,\"conf\":{\"a\":1}}\n1");
        assertCorrupt(7, "line 2: conf \"a\" is not a string", newestUncommitted(7));
    }

    @Test
    void truncatedOffsetLine() throws IOException {
        write(6, "v1\n" + META + "\n{\"logOffset\":0}\n{\"logOff");
        assertCorrupt(6, "line 4 (the offset of source 1) is not valid JSON", newestUncommitted(6));
    }

    @Test
    void notUtf8() throws IOException {
        Files.write(offsets.resolve("6"), new byte[] {'v', '1', '\n', (byte) 0xff, (byte) 0xfe, 0, 1});
        assertCorrupt(6, "it is not UTF-8 text", newestUncommitted(6));
    }

    @Test
    void garbage() throws IOException {
        write(6, "hello world, this is not a checkpoint file at all");
        assertCorrupt(6, "line 1 should be the version \"v1\" but is \"hello world, this is not a checkpoint fi...\"",
                newestUncommitted(6));
        write(7, "\n");
        assertCorrupt(7, "line 1 should be the version \"v1\" but is empty", newestUncommitted(7));
        write(8, "v0\n" + META + "\n1");
        assertCorrupt(8, "line 1 should be the version \"v1\" but is \"v0\"", newestUncommitted(8));
    }

    @Test
    void carriageReturns() throws IOException {
        write(6, "v1\r\n" + META + "\r\n1");
        assertCorrupt(6, "it contains a carriage return; lines must end with \\n alone", newestUncommitted(6));
    }

    @Test
    void newerVersion() throws IOException {
        write(6, "v2\n" + META + "\n1");

        assertThatThrownBy(() -> log.get(6))
                .isInstanceOf(UnsupportedCheckpointVersionException.class)
                .hasMessage("Checkpoint file " + offsets.resolve("6") + " was written by a newer version (log format"
                        + " v2; this version of Sluice reads only v1). Upgrade Sluice to run this query, or start"
                        + " over with a new checkpoint location.")
                .satisfies(e -> assertThat(((CheckpointException) e).path()).isEqualTo(offsets.resolve("6")));
    }

    @Test
    void aCorruptFileThatIsNotTheNewestAlsoFails() throws IOException {
        write(3, "v1");
        log.add(6, OffsetSeq.of(1, List.of("1")));

        assertCorrupt(3, "expected at least 3 lines, found 1", "The query cannot start from it without risking data"
                + " loss. It is not the newest batch (offsets/6 exists), so deleting it is not safe: " + RESTORE);
        assertThat(log.get(6)).isPresent();
    }

    @Test
    void aCorruptNewestFileOfACommittedBatch() throws IOException {
        write(6, "v1");
        new CommitLog(commits).add(6, CommitMetadata.empty());

        assertCorrupt(6, "expected at least 3 lines, found 1", "The query cannot start from it without risking data"
                + " loss. Batch 6 was already committed (commits/6 exists), so deleting this file is not safe: "
                + RESTORE);
    }

    @Test
    void aCorruptNewestFileIsNotSkippedByGetLatest() throws IOException {
        log.add(5, OffsetSeq.of(1, List.of("1")));
        write(6, "v1");

        assertThatThrownBy(() -> log.getLatest()).isInstanceOf(CorruptCheckpointException.class)
                .hasMessageStartingWith("Checkpoint file " + offsets.resolve("6") + " is corrupt");
    }

    @Test
    void theMessageOfTheBrief() throws IOException {
        write(6, "v1");

        assertThatThrownBy(() -> log.get(6)).hasMessage("Checkpoint file " + offsets.resolve("6") + " is corrupt or"
                + " incomplete (expected at least 3 lines, found 1). The query cannot start from it without risking"
                + " data loss. It is the newest batch and was never committed (there is no commits/6), so you may"
                + " delete this file to have the query plan batch 6 again (safe unless the sink already committed"
                + " batch 6); otherwise restore the checkpoint from a backup or start over with a new checkpoint"
                + " location.");
    }

    private static String newestUncommitted(long id) {
        return "The query cannot start from it without risking data loss. It is the newest batch and was never"
                + " committed (there is no commits/" + id + "), so you may delete this file to have the query plan"
                + " batch " + id + " again (safe unless the sink already committed batch " + id + "); otherwise "
                + RESTORE;
    }

    private void assertCorrupt(long id, String problem, String advice) {
        Path file = offsets.resolve(Long.toString(id));
        assertThatThrownBy(() -> log.get(id))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + file + " is corrupt or incomplete (" + problem + "). " + advice)
                .satisfies(e -> assertThat(((CorruptCheckpointException) e).path()).isEqualTo(file));
    }

    private void write(long id, String content) throws IOException {
        Files.write(offsets.resolve(Long.toString(id)), content.getBytes(StandardCharsets.UTF_8));
    }

    private List<String> listing() throws IOException {
        try (var s = Files.list(offsets)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
