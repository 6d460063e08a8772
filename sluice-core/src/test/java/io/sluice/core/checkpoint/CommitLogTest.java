package io.sluice.core.checkpoint;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.UnsupportedCheckpointVersionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommitLogTest {

    private static final String RESTORE =
            "restore the checkpoint from a backup or start over with a new checkpoint location.";

    @TempDir
    Path root;
    Path commits;
    CommitLog log;

    @BeforeEach
    void setUp() {
        commits = root.resolve("commits");
        log = new CommitLog(commits);
    }

    @Test
    void writesSparksFormatAndReadsItBack() throws IOException {
        assertThat(log.add(0, new CommitMetadata(42))).isTrue();

        assertThat(Files.readString(commits.resolve("0"))).isEqualTo("v1\n{\"nextBatchWatermarkMs\":42}");
        assertThat(log.get(0)).contains(new CommitMetadata(42));
        assertThat(log.getLatest()).contains(new LogEntry<>(0L, new CommitMetadata(42)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"file-chk/commits/0", "file-chk/commits/1", "rate-chk/commits/0"})
    void sparkSamplesRoundTripByteForByte(String sample) throws IOException {
        byte[] spark = Samples.bytes(sample);
        Files.write(commits.resolve("0"), spark);

        CommitMetadata read = log.get(0).orElseThrow();
        assertThat(read).isEqualTo(CommitMetadata.empty());
        log.add(1, read);

        assertThat(Files.readAllBytes(commits.resolve("1"))).isEqualTo(spark);
    }

    @Test
    void aCommitIsWrittenOnce() throws IOException {
        log.add(2, new CommitMetadata(1));

        assertThat(log.add(2, new CommitMetadata(2))).isFalse();
        assertThat(log.get(2)).contains(new CommitMetadata(1));
    }

    @Test
    void aMissingWatermarkDefaultsToZeroAsInSpark() throws IOException {
        Files.writeString(commits.resolve("0"), "v1\n{}");

        assertThat(log.get(0)).contains(CommitMetadata.empty());
    }

    @Test
    void truncated() throws IOException {
        Files.writeString(commits.resolve("4"), "v1");
        assertCorrupt(4, "expected 2 lines, found 1", newest(4));
        Files.writeString(commits.resolve("5"), "v1\n{\"nextBatchWatermarkMs\":");
        assertCorrupt(5, "line 2 is not valid JSON", newest(5));
    }

    @Test
    void wrongContent() throws IOException {
        Files.writeString(commits.resolve("4"), "v1\n{\"nextBatchWatermarkMs\":0}\n{}");
        assertCorrupt(4, "expected 2 lines, found 3", newest(4));
        Files.writeString(commits.resolve("5"), "v1\n[0]");
        assertCorrupt(5, "line 2 is not a JSON object", newest(5));
        Files.writeString(commits.resolve("6"), "v1\n{\"nextBatchWatermarkMs\":1.5}");
        assertCorrupt(6, "line 2: \"nextBatchWatermarkMs\" is not a whole number", newest(6));
        Files.writeString(commits.resolve("7"), "");
        assertCorrupt(7, "it is empty", newest(7));
    }

    @Test
    void aCorruptCommitThatIsNotTheNewest() throws IOException {
        Files.writeString(commits.resolve("4"), "v1");
        log.add(9, CommitMetadata.empty());

        assertCorrupt(4, "expected 2 lines, found 1", "The query cannot start from it without risking data loss."
                + " It is not the newest commit (commits/9 exists): " + RESTORE);
    }

    @Test
    void newerVersion() throws IOException {
        Files.writeString(commits.resolve("4"), "v3\n{\"nextBatchWatermarkMs\":0}");

        assertThatThrownBy(() -> log.get(4))
                .isInstanceOf(UnsupportedCheckpointVersionException.class)
                .hasMessage("Checkpoint file " + commits.resolve("4") + " was written by a newer version (log format"
                        + " v3; this version of Sluice reads only v1). Upgrade Sluice to run this query, or start"
                        + " over with a new checkpoint location.");
    }

    private static String newest(long id) {
        return "The query cannot start from it without risking data loss. It is the newest commit, so you may delete"
                + " this file to have the query re-run batch " + id + " from its logged offsets; otherwise " + RESTORE;
    }

    private void assertCorrupt(long id, String problem, String advice) {
        Path file = commits.resolve(Long.toString(id));
        assertThatThrownBy(() -> log.get(id))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + file + " is corrupt or incomplete (" + problem + "). " + advice);
    }
}
