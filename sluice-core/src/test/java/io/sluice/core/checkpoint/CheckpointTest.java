package io.sluice.core.checkpoint;

import io.sluice.core.CheckpointException;
import io.sluice.core.CorruptCheckpointException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointTest {

    @TempDir
    Path tmp;

    @Test
    void openCreatesTheLayoutAndTheQueryId() throws IOException {
        Path dir = tmp.resolve("chk/nested");
        String id;
        try (Checkpoint cp = Checkpoint.open(dir)) {
            id = cp.queryId();
            assertThat(cp.path()).isEqualTo(dir);
            assertThat(dir.resolve("offsets")).isDirectory();
            assertThat(dir.resolve("commits")).isDirectory();
            assertThat(dir.resolve(".lock")).isRegularFile();
        }
        assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(Files.readString(dir.resolve("metadata"))).isEqualTo("{\"id\":\"" + id + "\"}");
        assertThat(names(dir)).containsExactly(".lock", "commits", "metadata", "offsets");

        try (Checkpoint again = Checkpoint.open(dir)) {
            assertThat(again.queryId()).isEqualTo(id);
        }
    }

    @Test
    void opensACheckpointWrittenBySpark() throws IOException {
        Path dir = tmp.resolve("file-chk");
        Samples.copyTree("file-chk", dir);

        try (Checkpoint cp = Checkpoint.open(dir)) {
            assertThat(cp.queryId()).isEqualTo("aadb4e10-8497-408e-9776-46e1e65890c4");
            RecoveryPlan plan = cp.recover();
            assertThat(plan).isEqualTo(new RecoveryPlan.Resume(2,
                    cp.offsetLog().get(1).orElseThrow(), CommitMetadata.empty()));
            assertThat(plan.firstBatchId()).isEqualTo(2);
            assertThat(((RecoveryPlan.Resume) plan).startOffsets().offsets()).containsExactly("{\"logOffset\":1}");
            assertThat(cp.sourceDir(0)).isEqualTo(dir.resolve("sources/0"));
            assertThat(names(cp.sourceDir(0))).containsExactly("0", "1");
        }
        assertThat(Files.readAllBytes(dir.resolve("metadata"))).isEqualTo(Samples.bytes("file-chk/metadata"));
    }

    @Test
    void sourceDirIsCreatedOnDemand() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            assertThat(cp.sourceDir(3)).isDirectory().isEqualTo(tmp.resolve("sources/3"));
            assertThatThrownBy(() -> cp.sourceDir(-1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("A source index must be >= 0, was -1");
        }
    }

    @Test
    void corruptMetadata() throws IOException {
        assertCorruptMetadata("", "it is empty");
        assertCorruptMetadata("{\"id\":", "it is not valid JSON");
        assertCorruptMetadata("{\"id\":42}", "it is not a JSON object with a string \"id\"");
        assertCorruptMetadata("[\"x\"]", "it is not a JSON object with a string \"id\"");
        assertCorruptMetadata("{\"id\":\"not-a-uuid\"}", "\"id\" is not a UUID: \"not-a-uuid\"");
    }

    @Test
    void aFailedOpenReleasesTheLock() throws IOException {
        Files.writeString(tmp.resolve("metadata"), "{");
        assertThatThrownBy(() -> Checkpoint.open(tmp)).isInstanceOf(CorruptCheckpointException.class);

        Files.writeString(tmp.resolve("metadata"), "{\"id\":\"aadb4e10-8497-408e-9776-46e1e65890c4\"}\n");
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            assertThat(cp.queryId()).isEqualTo("aadb4e10-8497-408e-9776-46e1e65890c4");
        }
    }

    // Recovery, one test per row of the spec's table.

    @Test
    void freshWhenNothingIsLogged() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            RecoveryPlan plan = cp.recover();
            assertThat(plan).isEqualTo(new RecoveryPlan.Fresh());
            assertThat(plan.firstBatchId()).isZero();
        }
    }

    @Test
    void resumeAfterTheLatestBatchWhenItIsCommitted() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1, 2);
            cp.commitLog().add(0, CommitMetadata.empty());
            cp.commitLog().add(1, CommitMetadata.empty());
            cp.commitLog().add(2, new CommitMetadata(77));

            assertThat(cp.recover()).isEqualTo(new RecoveryPlan.Resume(3, seq(2), new CommitMetadata(77)));
        }
    }

    @Test
    void resumeDoesNotNeedTheBatchBefore() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 5);
            cp.commitLog().add(5, CommitMetadata.empty());

            assertThat(cp.recover()).isEqualTo(new RecoveryPlan.Resume(6, seq(5), CommitMetadata.empty()));
        }
    }

    @Test
    void rerunTheLatestBatchWhenTheCommitIsOneBehind() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1, 2);
            cp.commitLog().add(0, CommitMetadata.empty());
            cp.commitLog().add(1, CommitMetadata.empty());

            RecoveryPlan plan = cp.recover();
            assertThat(plan).isEqualTo(new RecoveryPlan.Rerun(2, seq(1), seq(2)));
            assertThat(plan.firstBatchId()).isEqualTo(2);
        }
    }

    @Test
    void rerunTheLatestBatchWhenNothingIsCommitted() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1, 2);

            assertThat(cp.recover()).isEqualTo(new RecoveryPlan.Rerun(2, seq(1), seq(2)));
        }
    }

    @Test
    void rerunOnlyTheLatestBatchWhenTheCommitIsFurtherBehind() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1, 2, 3);
            cp.commitLog().add(0, CommitMetadata.empty());

            assertThat(cp.recover()).isEqualTo(new RecoveryPlan.Rerun(3, seq(2), seq(3)));
        }
    }

    @Test
    void rerunBatchZeroFromTheInitialOffsets() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0);

            RecoveryPlan plan = cp.recover();
            assertThat(plan).isEqualTo(new RecoveryPlan.Rerun(0, null, seq(0)));
            assertThat(((RecoveryPlan.Rerun) plan).startOffsets()).isNull();
        }
    }

    @Test
    void aRerunWhoseStartWasPurgedIsCorrupt() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 5);
            cp.commitLog().add(3, CommitMetadata.empty());

            assertThatThrownBy(cp::recover)
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessage("Checkpoint file " + tmp.resolve("offsets/4") + " is missing (batch 5 was not"
                            + " committed and must be re-run from the end of batch 4, which this file records). The"
                            + " query cannot start without risking data loss. Restore the checkpoint from a backup or"
                            + " start over with a new checkpoint location.");
        }
    }

    @Test
    void aCommitNewerThanTheOffsetsIsCorrupt() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1);
            cp.commitLog().add(0, CommitMetadata.empty());
            cp.commitLog().add(1, CommitMetadata.empty());
            cp.commitLog().add(2, CommitMetadata.empty());

            assertThatThrownBy(cp::recover)
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessage("Checkpoint " + tmp + " is inconsistent (commits/2 exists but the newest offsets file"
                            + " is offsets/1; a batch is committed only after its offsets are logged). The query"
                            + " cannot start without risking data loss. Restore the checkpoint from a backup or start"
                            + " over with a new checkpoint location.")
                    .satisfies(e -> assertThat(((CheckpointException) e).path()).isEqualTo(tmp.resolve("commits/2")));
        }
    }

    @Test
    void commitsWithoutOffsetsAreCorrupt() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            cp.commitLog().add(0, CommitMetadata.empty());

            assertThatThrownBy(cp::recover)
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessage("Checkpoint " + tmp + " is inconsistent (commits/0 exists but offsets/ is empty)."
                            + " The query cannot start without risking data loss. Restore the checkpoint from a"
                            + " backup or start over with a new checkpoint location.");
        }
    }

    @Test
    void recoveryStopsAtACorruptLatestFile() throws IOException {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1);
            cp.commitLog().add(0, CommitMetadata.empty());
            Files.writeString(tmp.resolve("offsets/2"), "v1\n{");

            assertThatThrownBy(cp::recover)
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageStartingWith("Checkpoint file " + tmp.resolve("offsets/2")
                            + " is corrupt or incomplete (expected at least 3 lines, found 2).");
        }
    }

    // Purge, as Spark: after writing offsets/N, delete ids < N - minBatchesToRetain.

    @Test
    void purgeKeepsMinBatchesToRetainBeforeTheCurrentBatch() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
            for (long id = 0; id <= 9; id++) {
                cp.commitLog().add(id, CommitMetadata.empty());
            }

            cp.purge(10, 3);

            assertThat(cp.offsetLog().batchIds()).containsExactly(7L, 8L, 9L, 10L);
            assertThat(cp.commitLog().batchIds()).containsExactly(7L, 8L, 9L);
            assertThat(cp.recover()).isEqualTo(new RecoveryPlan.Rerun(10, seq(9), seq(10)));
        }
    }

    @Test
    void purgeDoesNothingWhileTheLogIsShort() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1, 2, 3);

            cp.purge(3, 3);
            assertThat(cp.offsetLog().batchIds()).containsExactly(0L, 1L, 2L, 3L);
            cp.purge(3, 100);
            assertThat(cp.offsetLog().batchIds()).containsExactly(0L, 1L, 2L, 3L);
        }
    }

    @Test
    void purgeWithTheMinimumKeepsWhatARerunNeeds() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            logOffsets(cp, 0, 1, 2, 3);
            for (long id = 0; id <= 2; id++) {
                cp.commitLog().add(id, CommitMetadata.empty());
            }

            cp.purge(3, 1);

            assertThat(cp.offsetLog().batchIds()).containsExactly(2L, 3L);
            assertThat(cp.commitLog().batchIds()).containsExactly(2L);
            assertThat(cp.recover()).isEqualTo(new RecoveryPlan.Rerun(3, seq(2), seq(3)));
        }
    }

    @Test
    void minBatchesToRetainMustBePositive() {
        try (Checkpoint cp = Checkpoint.open(tmp)) {
            assertThatThrownBy(() -> cp.purge(10, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("minBatchesToRetain must be at least 1, was 0");
        }
    }

    private void assertCorruptMetadata(String content, String problem) throws IOException {
        Path dir = Files.createTempDirectory(tmp, "chk");
        Files.writeString(dir.resolve("metadata"), content);
        assertThatThrownBy(() -> Checkpoint.open(dir))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + dir.resolve("metadata") + " is corrupt or incomplete (" + problem
                        + "). It holds the query id, so the query cannot start from it: restore the checkpoint from a"
                        + " backup or start over with a new checkpoint location.");
    }

    private static OffsetSeq seq(long id) {
        return new OffsetSeq(0, 1000 + id, java.util.Map.of("k", "v"), List.of("{\"logOffset\":" + id + "}"));
    }

    private static void logOffsets(Checkpoint cp, long... ids) {
        for (long id : ids) {
            assertThat(cp.offsetLog().add(id, seq(id))).isTrue();
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
