package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Every path flag and setting takes a plain path or a file: URI and refuses other schemes before anything runs. */
class PathFlagsTest {
    @TempDir
    Path tmp;

    private static String notSupported(String option, String value) {
        return "Invalid value '" + value + "' for option '" + option + "': the scheme '"
                + value.substring(0, value.indexOf(':')) + "' is not supported: Sluice reads and writes local paths "
                + "only; give a plain path (/data/in) or a file: URI (file:/data/in, file:///data/in)";
    }

    private static Cli.Result run(String... more) {
        String[] base = {"run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=3",
                "--source-option", "numPartitions=1", "--sink", "noop", "--trigger", "availableNow"};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return Cli.run(args);
    }

    private static void assertUsage(Cli.Result r, String message) {
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("sluice: " + message + "; see 'sluice run --help'\n");
    }

    @ParameterizedTest
    // Not s3:// or s3a://: this module's tests have sluice-s3 on their class path (its plugin is built first).
    @ValueSource(strings = {"hdfs://nn:8020/chk", "gs://bucket/chk",
            "abfss://c@a.dfs.core.windows.net/chk", "wasbs://c@a/chk", "foo://chk"})
    void checkpointWithAnotherSchemeIsAUsageErrorAndCreatesNothing(String value) {
        assertUsage(run("--checkpoint", value), noStorage("--checkpoint", value));
        assertThat(Path.of(value.substring(0, value.indexOf(':') + 1))).doesNotExist(); // no ./s3a:/bucket/chk
    }

    @Test
    void progressFileAndPluginsWithAnotherSchemeAreUsageErrors() {
        assertUsage(run("--progress-file", "s3a://bucket/progress.jsonl"),
                notSupported("--progress-file", "s3a://bucket/progress.jsonl"));
        assertUsage(run("--plugins", "hdfs:/plugins"), notSupported("--plugins", "hdfs:/plugins"));
    }

    @Test
    void aPipelineFilesCheckpointWithAnotherSchemeIsAPipelineFileError() throws Exception {
        Path file = tmp.resolve("p.yaml");
        Files.writeString(file, "source:\n  format: rate-micro-batch\nsink:\n  format: noop\n"
                + "checkpoint: gs://bucket/chk\nprogressFile: /tmp/p.jsonl\n");
        Cli.Result r = Cli.run("run", file.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: " + file + ": " + noStorage("checkpoint", "gs://bucket/chk") + "\n");

        Files.writeString(file, "source:\n  format: rate-micro-batch\nsink:\n  format: noop\n"
                + "progressFile: s3a://bucket/p.jsonl\n");
        r = Cli.run("run", file.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: " + file + ": " + notSupported("progressFile", "s3a://bucket/p.jsonl")
                + "\n");
    }

    @Test
    void aSinkPathWithAnotherSchemeIsRefusedBeforeTheQueryStarts() {
        Path chk = tmp.resolve("chk");
        Cli.Result r = Cli.run("run", "--source", "rate-micro-batch", "--source-option",
                "rowsPerBatch=1", "--sink", "json", "--sink-option",
                "path=gs://bucket/out", "--checkpoint", chk.toString(), "--trigger", "availableNow");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: " + noStorage("path", "gs://bucket/out") + "\n");
        assertThat(chk).doesNotExist();
    }

    @Test
    void fileUrisAreAcceptedForTheCheckpointAndTheProgressFile() throws Exception {
        Path chk = tmp.resolve("chk");
        Path progress = tmp.resolve("progress.jsonl");
        Cli.Result r = run("--checkpoint", "file://" + chk, "--progress-file", "file:" + progress, "--plain");
        assertThat(r.err()).isEmpty();
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).endsWith("finished: 1 batch, 3 rows\n");
        assertThat(Files.readString(chk.resolve("commits/0"))).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
        assertThat(Files.readAllLines(progress)).hasSize(1);

        Cli.Result show = Cli.run("checkpoint", "show", "file://" + chk);
        assertThat(show.exitCode()).isZero();
        assertThat(show.out()).startsWith("Checkpoint: " + chk + "\n");
    }

    @Test
    void checkpointShowRefusesASchemeNoStorageServes() {
        // s3a:// is read through sluice-s3 (S3CheckpointCliTest); a scheme no module serves is a usage error.
        Cli.Result r = Cli.run("checkpoint", "show", "hdfs://nn/chk");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("sluice: " + noStorage("DIR", "hdfs://nn/chk")
                + "; see 'sluice checkpoint show --help'\n");
    }

    /** The refusal of a scheme no storage module on the class path serves (checkpoint and sink path). */
    private static String noStorage(String option, String value) {
        String scheme = value.substring(0, value.indexOf(':'));
        return "Invalid value '" + value + "' for option '" + option + "': the scheme '" + scheme + "' of " + value
                + " has no storage on the class path: " + (scheme.startsWith("s3")
                ? "add the module sluice-s3 (its jar, or its plugin jar for the sluice CLI)"
                : "Sluice supports local paths (/data/in, file:/data/in) and, with the module sluice-s3, s3:// and "
                + "s3a://");
    }
}
