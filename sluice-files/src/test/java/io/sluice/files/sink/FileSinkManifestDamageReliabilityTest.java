package io.sluice.files.sink;

import io.sluice.core.Backups;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability (issue 14, item 8): a damaged manifest (truncated, garbage, a deleted batch file, the folder or its
 * newest files deleted) fails {@code start()} naming the file and the repair, instead of being accepted and
 * failing at the next compaction or losing batches for readers.
 */
class FileSinkManifestDamageReliabilityTest {
    private static final String REPAIR = "Repair: restore the output folder (data files and _spark_metadata) from a "
            + "backup taken together with the checkpoint, or start over with a fresh checkpoint and a new output "
            + "folder";

    @TempDir
    Path tmp;

    private Path out() {
        return tmp.resolve("out");
    }

    private Path meta() {
        return out().resolve("_spark_metadata");
    }

    /** Runs one availableNow batch per given file name (one file each), then returns. */
    private void batches(String... names) throws Exception {
        for (String name : names) {
            Files.createDirectories(tmp.resolve("in"));
            Files.writeString(tmp.resolve("in").resolve(name), "{\"id\":1}\n");
            run();
        }
    }

    private void run() throws Exception {
        try (Sluice sluice = Sluice.local()) {
            StreamingQuery q = sluice.readStream().format("json").schema("id long")
                    .load(tmp.resolve("in").toString()).writeStream().format("json")
                    .option("checkpointLocation", tmp.resolve("chk").toString())
                    .trigger(Trigger.availableNow()).start(out().toString());
            q.awaitTermination();
        }
    }

    private String damaged(String what) {
        return "The file sink's manifest " + meta() + " is damaged: " + what + ". Readers of the manifest (Spark, "
                + "Sluice's file source) cannot list the output, and the sink cannot add to it. " + REPAIR
                + ". 'sluice sink check " + out() + "' lists what is damaged.";
    }

    @Test
    void aTruncatedManifestFileFailsTheStartNamingIt() throws Exception {
        batches("a.json", "b.json");
        Files.writeString(meta().resolve("1"), "v1\n{\"path\":\"file:///x/part");

        assertThatThrownBy(this::run).isInstanceOf(IllegalStateException.class).hasMessage(damaged(meta()
                .resolve("1") + ": line 2 is not a file entry (truncated or overwritten?): '{\"path\":\"file:///x/part'"));
    }

    @Test
    void garbageAndAnEmptyFileAreBothNamed() throws Exception {
        batches("a.json", "b.json");
        Files.writeString(meta().resolve("0"), "");
        Files.writeString(meta().resolve("1"), "PK\u0003\u0004garbage");

        assertThatThrownBy(this::run).isInstanceOf(IllegalStateException.class).hasMessage(damaged(
                meta().resolve("0") + ": empty (no version line); " + meta().resolve("1")
                        + ": not a manifest file: the first line is 'PK\u0003\u0004garbage', not v1"));
    }

    @Test
    void aDeletedBatchFileInTheSequenceFailsTheStart() throws Exception {
        batches("a.json", "b.json", "c.json");
        Files.delete(meta().resolve("1"));

        assertThatThrownBy(this::run).isInstanceOf(IllegalStateException.class).hasMessage(damaged(
                meta().resolve("1") + ": missing (the manifest holds batches up to 2)"));
    }

    @Test
    void aDeletedManifestFolderFailsTheStartInsteadOfLosingTheBatchesForReaders() throws Exception {
        batches("a.json", "b.json");
        Backups.delete(meta());

        assertThatThrownBy(this::run).isInstanceOf(IllegalStateException.class).hasMessage("The file sink's manifest "
                + meta() + " is missing, but the checkpoint " + tmp.resolve("chk") + " has committed batches up to 1 "
                + "(commits/1): readers of the manifest would silently lose those batches' files. " + REPAIR + ".");
        assertThat(meta()).doesNotExist();
    }

    @Test
    void deletedNewestManifestFilesFailTheStart() throws Exception {
        batches("a.json", "b.json", "c.json");
        Files.delete(meta().resolve("2"));

        assertThatThrownBy(this::run).isInstanceOf(IllegalStateException.class).hasMessage("The file sink's manifest "
                + meta() + " ends at batch 1, but the checkpoint " + tmp.resolve("chk") + " has committed batches up "
                + "to 2 (commits/2): readers of the manifest would silently lose those batches' files. " + REPAIR
                + ".");
    }

    @Test
    void aSoundManifestStartsAsBefore() throws Exception {
        batches("a.json", "b.json");
        batches("c.json");
        assertThat(FileSinkManifest.allFiles(out())).hasSize(3);
        assertThat(FileSinkManifest.check(out()).clean()).isTrue();
    }
}
