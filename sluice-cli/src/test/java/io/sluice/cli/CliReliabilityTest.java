package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 14 on the command line: nothing is lost and no secret is printed, whatever the user types. */
class CliReliabilityTest {
    private static final String EMPTY = "The user specified schema is empty: give at least one column, as in "
            + "\"id long, name string\" (an empty schema would read every row as {})";

    @TempDir
    Path tmp;

    private static void assertUsage(Cli.Result r, String message) {
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("sluice: " + message + "; see 'sluice run --help'\n");
        assertThat(r.out()).isEmpty();
    }

    private Cli.Result jsonRun(String... more) {
        String[] base = {"run", "--source", "json", "--source-option", "path=" + tmp, "--sink", "noop"};
        String[] args = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return Cli.run(args);
    }

    @Test
    void emptyOrBlankSchemaFlagIsRefused() {
        assertUsage(jsonRun("--schema", ""), "Invalid --schema '': " + EMPTY);
        assertUsage(jsonRun("--schema", "  "), "Invalid --schema '  ': " + EMPTY);
    }

    @Test
    void duplicateColumnsInTheSchemaFlagAreRefused() {
        assertUsage(jsonRun("--schema", "id long, id long"), "Invalid --schema 'id long, id long': "
                + "Found duplicate column(s) in the user specified schema: `id`");
        assertUsage(jsonRun("--schema", "s struct<a: int, A: int>"), "Invalid --schema 's struct<a: int, A: int>': "
                + "Found duplicate column(s) in the user specified schema: `a`");
    }

    @Test
    void emptyOrDuplicateSchemaInAPipelineFileIsRefused() throws IOException {
        Path yaml = tmp.resolve("p.yaml");
        Files.writeString(yaml, "source:\n  format: json\n  schema: \"\"\n  options: {path: " + tmp
                + "}\nsink: {format: noop}\n");
        Cli.Result r = Cli.run("run", yaml.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: " + yaml + ": invalid source.schema '': " + EMPTY + "\n");

        Files.writeString(yaml, "source:\n  format: json\n  schema: \"id long, ID string\"\n  options: {path: " + tmp
                + "}\nsink: {format: noop}\n");
        r = Cli.run("run", yaml.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: " + yaml + ": invalid source.schema 'id long, ID string': "
                + "Found duplicate column(s) in the user specified schema: `id`\n");
    }

    @Test
    void aSecretWrittenWithAColonIsMaskedInTheUsageError() {
        assertUsage(jsonRun("--source-option", "kafka.ssl.key.password:S3cret"),
                "Invalid --source-option 'kafka.ssl.key.password:*****': expected KEY=VALUE");
        assertUsage(jsonRun("--sink-option", "kafka.sasl.jaas.config S3cret"),
                "Invalid --sink-option 'kafka.sasl.jaas.config *****': expected KEY=VALUE");
        // No separator at all: where the value starts cannot be told, so the whole text is hidden.
        assertUsage(jsonRun("--source-option", "kafka.ssl.key.passwordS3cret"),
                "Invalid --source-option '*****': expected KEY=VALUE");
        // Not a secret: shown as typed, so the user sees the mistake.
        assertUsage(jsonRun("--source-option", "maxFilesPerTrigger:5"),
                "Invalid --source-option 'maxFilesPerTrigger:5': expected KEY=VALUE");
        assertUsage(jsonRun("--source-option", "kafka.ssl.keystore.location:/etc/ks.jks"),
                "Invalid --source-option 'kafka.ssl.keystore.location:/etc/ks.jks': expected KEY=VALUE");
    }

    @Test
    void checkpointShowNamesAFolderWhereABatchFileShouldBeAndIgnoresLookalikes() throws IOException {
        Path chk = tmp.resolve("chk");
        Cli.Result run = Cli.run("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=10",
                "--sink", "noop", "--checkpoint", chk.toString(), "--trigger", "availableNow");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Files.createDirectory(chk.resolve("offsets/7"));
        Files.copy(chk.resolve("offsets/0"), chk.resolve("offsets/0005"));
        Files.copy(chk.resolve("offsets/0"), chk.resolve("offsets/+6"));

        Cli.Result r = Cli.run("checkpoint", "show", chk.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Batches: 2 retained (0 to 7)\n").endsWith("Batch 7: not committed\n"
                + "  cannot read offsets/7: it is a folder, not a regular file\n"
                + "Batch a restart re-runs: 7\n");
        assertThat(r.out()).doesNotContain("Batch 5", "Batch 6");
    }

    @Test
    void aTriggerIntervalTooLongForALongSaysSo() {
        String tooLong = "Invalid trigger interval '%s': it is too long; at most 9223372036854775807 ms (about 292 "
                + "million years) is accepted";
        assertUsage(Cli.run("run", "--source", "rate", "--sink", "noop", "--trigger",
                "processingTime=9223372036854775808"), "Invalid --trigger 'processingTime=9223372036854775808': "
                + tooLong.formatted("9223372036854775808"));
        assertUsage(Cli.run("run", "--source", "rate", "--sink", "noop", "--trigger",
                "processingTime=9223372036854775807 days"), "Invalid --trigger 'processingTime=9223372036854775807 "
                + "days': " + tooLong.formatted("9223372036854775807 days"));
    }

    @Test
    void aPathGlobThatDoesNotCompileNamesTheOption() {
        Cli.Result r = jsonRunWithPath("R/[in");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: Invalid value 'R/[in' for option 'path': Illegal file pattern: '[' is "
                + "not closed by ']' in '[in'; a folder, a file or a glob such as /data/*.json or /data/{a,b}/*.csv "
                + "is accepted\n");
    }

    @Test
    void anEmptySourceArchiveDirNamesItselfNotPath() {
        // Already right on main before issue 14's fixes: pinned here.
        Cli.Result r = jsonRun("--source-option", "cleanSource=archive", "--source-option", "sourceArchiveDir=");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: Invalid value '' for option 'sourceArchiveDir': a path is accepted, "
                + "not an empty value\n");
    }

    private Cli.Result jsonRunWithPath(String path) {
        return Cli.run("run", "--source", "json", "--source-option", "path=" + path, "--schema", "id long",
                "--sink", "noop");
    }

    @Test
    void aKafkaClientThatCannotBeCreatedSaysWhyWithoutVerbose() {
        Cli.Result r = Cli.run("run", "--source", "kafka", "--source-option", "kafka.bootstrap.servers=localhost:1",
                "--source-option", "subscribe=t", "--source-option", "kafka.security.protocol=SSL",
                "--source-option", "kafka.ssl.keystore.location=" + tmp.resolve("missing.jks"),
                "--source-option", "kafka.ssl.keystore.password=S3cret", "--sink", "noop");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: Failed to create new KafkaAdminClient for localhost:1 "
                + "(kafka.bootstrap.servers): Failed to create new NetworkClient: Failed to load SSL keystore "
                + tmp.resolve("missing.jks") + " of type JKS\n");

        r = Cli.run("run", "--source", "kafka", "--source-option", "kafka.bootstrap.servers=localhost:1",
                "--source-option", "subscribe=t", "--source-option", "kafka.security.protocol=SASL_PLAINTEXT",
                "--source-option", "kafka.sasl.mechanism=PLAIN", "--sink", "noop");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: Failed to create new KafkaAdminClient for localhost:1 "
                + "(kafka.bootstrap.servers): Failed to create new NetworkClient: Could not find a 'KafkaClient' "
                + "entry in the JAAS configuration. System property 'java.security.auth.login.config' is not set\n");
    }
}
