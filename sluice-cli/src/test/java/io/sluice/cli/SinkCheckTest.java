package io.sluice.cli;

import io.sluice.files.sink.FileSinkManifest;
import io.sluice.files.sink.SinkFileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code sluice sink check DIR} on a real sink folder, clean and damaged: exact output and exit codes. */
class SinkCheckTest {
    @TempDir
    Path tmp;

    private Path out() {
        return tmp.resolve("out").toAbsolutePath().normalize();
    }

    /** Two availableNow runs of rate-micro-batch (3 rows, one partition) into the json sink: batches 0 and 1. */
    private List<SinkFileStatus> twoBatches() throws IOException {
        for (int i = 0; i < 2; i++) {
            Cli.Result r = Cli.run("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=3",
                    "--source-option", "numPartitions=1", "--sink", "json", "--sink-option", "path=" + out(),
                    "--checkpoint", tmp.resolve("chk").toString(), "--trigger", "availableNow");
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
        return FileSinkManifest.allFiles(out());
    }

    @Test
    void aCleanFolderExitsZero() throws IOException {
        twoBatches();

        Cli.Result r = Cli.run("sink", "check", out().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Sink folder: " + out() + "\n"
                + "Manifest: batches up to 1, 2 data files\n"
                + "Clean: every file the manifest names exists, and the folder holds no other file\n");
    }

    @Test
    void missingDataFilesAndOrphansAreListedAndExitOne() throws IOException {
        List<SinkFileStatus> files = twoBatches();
        Path lost = files.get(0).localPath();
        Files.delete(lost);
        Path orphan = out().resolve("part-00000-left-over-c000.json");
        Files.writeString(orphan, "{}\n");
        Files.createDirectories(out().resolve("day=1"));
        Path nested = out().resolve("day=1/stray.json");
        Files.writeString(nested, "");
        Files.writeString(out().resolve(".hidden"), "ignored, as Spark ignores it");

        Cli.Result r = Cli.run("sink", "check", out().toString());

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEqualTo("Sink folder: " + out() + "\n"
                + "Manifest: batches up to 1, 2 data files\n"
                + "missing data file " + lost + "\n"
                + "orphan " + nested + " (0 bytes)\n"
                + "orphan " + orphan + " (3 bytes)\n"
                + "Not clean: 1 missing data file, 2 orphans\n");
    }

    @Test
    void damagedManifestFilesAreNamedAndExitOne() throws IOException {
        twoBatches();
        Path meta = out().resolve("_spark_metadata");
        Files.writeString(meta.resolve("0"), "garbage");
        Files.writeString(meta.resolve("3"), "v1");

        Cli.Result r = Cli.run("sink", "check", out().toString());

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEqualTo("Sink folder: " + out() + "\n"
                + "damaged manifest file " + meta.resolve("0") + ": not a manifest file: the first line is "
                + "'garbage', not v1\n"
                + "damaged manifest file " + meta.resolve("2") + ": missing (the manifest holds batches up to 3)\n"
                + "Data files not checked: the manifest cannot be read\n"
                + "Not clean: 2 damaged manifest files\n");
    }

    @Test
    void aFolderWithoutAManifestExitsOne() throws IOException {
        Files.createDirectories(out());

        Cli.Result r = Cli.run("sink", "check", out().toString());

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEqualTo("Sink folder: " + out() + "\n"
                + "No manifest: " + out().resolve("_spark_metadata") + " does not exist (not a file sink's output "
                + "folder, or its manifest was deleted)\n");
    }
}
