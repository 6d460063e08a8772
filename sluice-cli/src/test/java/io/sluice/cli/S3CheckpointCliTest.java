package io.sluice.cli;

import io.sluice.s3.server.SharedLocalS3Server;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sluice run} reading from and checkpointing to S3 (the real server) with the settings given once, engine-wide,
 * by {@code --conf}; then {@code sluice checkpoint show s3a://...} on that checkpoint, secrets never printed.
 */
class S3CheckpointCliTest {
    private static final String SECRET = "cli-secret-never-shown";
    private final HttpClient http = HttpClient.newHttpClient();
    private final String endpoint = SharedLocalS3Server.get().endpoint();
    private final String bucket = "cli-" + UUID.randomUUID();

    private void put(String path, String body) throws Exception {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(endpoint + "/" + path))
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    private String[] conf(String... args) {
        String[] c = {"--conf", "fs.s3a.endpoint=" + endpoint, "--conf", "spark.hadoop.fs.s3a.path.style.access=true",
                "--conf", "fs.s3a.access.key=dev", "--conf", "fs.s3a.secret.key=" + SECRET};
        String[] all = new String[args.length + c.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(c, 0, all, args.length, c.length);
        return all;
    }

    @Test
    void runReadsAndCheckpointsOnS3WithConfAndCheckpointShowReadsIt() throws Exception {
        put(bucket, "");
        put(bucket + "/in/a.json", "{\"id\":1}\n{\"id\":2}\n");
        put(bucket + "/in/b.json", "{\"id\":3}\n");
        String chk = "s3a://" + bucket + "/chk";
        Cli.Result r = Cli.run(conf("run", "--source", "json", "--schema", "id long", "--source-option",
                "path=s3a://" + bucket + "/in", "--sink", "json", "--sink-option", "path=s3a://" + bucket + "/out",
                "--checkpoint", chk, "--trigger", "availableNow", "--plain"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out() + r.err()).doesNotContain(SECRET);

        Cli.Result show = Cli.run(conf("checkpoint", "show", chk));
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).startsWith("Checkpoint: " + chk + "\n").contains("Query id: ")
                .contains("s3a://" + bucket + "/in/a.json").contains("s3a://" + bucket + "/in/b.json")
                .doesNotContain(SECRET);
        Cli.Result json = Cli.run(conf("checkpoint", "show", chk, "--json"));
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"checkpoint\" : \"" + chk + "\"").contains("\"logOffset\" : 0")
                .contains("\"files\" : [ \"s3a://" + bucket + "/in/a.json\", \"s3a://" + bucket + "/in/b.json\" ]")
                .doesNotContain(SECRET);

        Cli.Result none = Cli.run(conf("checkpoint", "show", "s3a://" + bucket + "/nothing-here"));
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.err()).contains("No checkpoint at s3a://" + bucket + "/nothing-here: no object under s3a://"
                + bucket + "/nothing-here/").doesNotContain(SECRET);
    }

    @Test
    void checkpointShowOnS3ShowsEachStatefulOperatorsStateAsForALocalCheckpoint() throws Exception {
        put(bucket, "");
        String chk = "s3a://" + bucket + "/chk";
        String store = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";
        // As CheckpointShowTest#showsEachStatefulOperatorsStateSizeWithTheInMemoryStore, the checkpoint on S3.
        for (int i = 0; i < 3; i++) {
            Cli.Result r = Cli.run(conf("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=6",
                    "--source-option", "numPartitions=1", "--sql",
                    "SELECT value % 3 AS k, count(*) AS n FROM source GROUP BY value % 3", "--output-mode", "update",
                    "--sink", "noop", "--checkpoint", chk, "--trigger", "availableNow", "--plain",
                    "--conf", "spark.sql.shuffle.partitions=2",
                    "--conf", "spark.sql.streaming.stateStore.providerClass=" + store));
            assertThat(r.exitCode()).as(r.err()).isZero();
        }

        Cli.Result show = Cli.run(conf("checkpoint", "show", chk));

        assertThat(show.exitCode()).as(show.err()).isZero();
        // The same figures as on the local disk: 3 deltas per partition, _metadata/metadata and _metadata/schema.
        assertThat(show.out()).endsWith("Batch a restart re-runs: none\n"
                + "State: 1 operator, store " + store + "\n"
                + "  operator 0 (stateStoreSave): 2 partitions, version 3, 8 files, 628 bytes, 3 rows\n"
                + "    partition 0: version 3, 3 files, 261 bytes, 2 rows\n"
                + "    partition 1: version 3, 3 files, 153 bytes, 1 row\n").doesNotContain(SECRET);
        Cli.Result json = Cli.run(conf("checkpoint", "show", chk, "--json"));
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"operatorName\" : \"stateStoreSave\"").contains("\"rows\" : 3");
    }
}
