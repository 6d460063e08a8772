package io.sluice.cli;

import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class KafkaCommandTest {
    @TempDir
    Path tmp;

    @Test
    void reconcileCountsATimeWindowAndComparesIt() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String t = "reconcile-" + System.nanoTime();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
             KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                     bootstrap), new StringSerializer(), new StringSerializer())) {
            // The timestamps are from 1970: with the default retention.ms (7 days) the broker's retention task (every
            // second, from 30 s after it starts) would delete these records at once, so lookups would find nothing.
            admin.createTopics(List.of(new NewTopic(t, 2, (short) 1).configs(Map.of("retention.ms", "-1"))))
                    .all().get();
            p.send(new ProducerRecord<>(t, 0, 1000L, null, "a")).get();
            p.send(new ProducerRecord<>(t, 0, 2000L, null, "b")).get();
            p.send(new ProducerRecord<>(t, 1, 2500L, null, "c")).get();
            p.send(new ProducerRecord<>(t, 1, 5000L, null, "d")).get();
        }
        Cli.Result ok = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--from", "1970-01-01T00:00:02Z", "--to", "3000", "--expected", "2");
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(ok.out()).isEqualTo("Records in " + t + " with timestamps in [1970-01-01T00:00:02Z,"
                + " 1970-01-01T00:00:03Z):\n  " + t + "-0: 1\n  " + t + "-1: 1\n  total: 2\n"
                + "MATCH: Kafka holds 2 records, as expected.\n");
        Cli.Result bad = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--expected", "3");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.out()).endsWith("  total: 4\nMISMATCH: Kafka holds 4 records, expected 3 (difference 1).\n");
        Cli.Result usage = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--from", "yesterday");
        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.err()).contains("Invalid value 'yesterday' for option '--from': epoch milliseconds or an"
                + " ISO-8601 instant (e.g. 2024-05-01T00:00:00Z) is accepted");
    }

    @Test
    void reconcileComparesTheWindowWithADeltaTablesRowsInIt() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String t = "reconcile-table-" + System.nanoTime();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
             KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                     bootstrap), new StringSerializer(), new StringSerializer())) {
            admin.createTopics(List.of(new NewTopic(t, 2, (short) 1).configs(Map.of("retention.ms", "-1"))))
                    .all().get();
            p.send(new ProducerRecord<>(t, 0, 1000L, null, "a")).get();
            p.send(new ProducerRecord<>(t, 0, 2000L, null, "b")).get();
            p.send(new ProducerRecord<>(t, 1, 2500L, null, "c")).get();
            p.send(new ProducerRecord<>(t, 1, 5000L, null, "d")).get();
        }
        // The table the Delta sink wrote: the same events, and one more at 2.9 s (a duplicate, say).
        Path table = tmp.resolve("orders");
        io.sluice.core.sources.MemoryStream in = io.sluice.core.sources.MemoryStream.create(
                io.sluice.api.types.StructType.fromDDL("id string, ts timestamp"));
        try (io.sluice.core.Sluice sluice = io.sluice.core.Sluice.local()) {
            io.sluice.core.StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load()
                    .writeStream().format("delta").option("checkpointLocation", tmp.resolve("chk").toString())
                    .start(table.toString());
            in.addData(io.sluice.api.Row.of("a", java.time.Instant.ofEpochMilli(1000)),
                    io.sluice.api.Row.of("b", java.time.Instant.ofEpochMilli(2000)));
            q.processAllAvailable();
            in.addData(io.sluice.api.Row.of("c", java.time.Instant.ofEpochMilli(2500)),
                    io.sluice.api.Row.of("c2", java.time.Instant.ofEpochMilli(2900)),
                    io.sluice.api.Row.of("d", java.time.Instant.ofEpochMilli(5000)));
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        Cli.Result bad = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--from", "2000", "--to", "3000", "--table-format", "delta", "--table", table.toString(),
                "--table-time-column", "ts");
        assertThat(bad.exitCode()).as(bad.err()).isEqualTo(1);
        assertThat(bad.out()).isEqualTo("Records in " + t + " with timestamps in [1970-01-01T00:00:02Z,"
                + " 1970-01-01T00:00:03Z):\n  " + t + "-0: 1\n  " + t + "-1: 1\n  total: 2\n"
                + "Rows in table " + table + " with ts in [1970-01-01T00:00:02Z, 1970-01-01T00:00:03Z): 3\n"
                + "MISMATCH: Kafka holds 2 records, the table 3 rows (difference -1).\n");
        Cli.Result ok = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--from", "2000", "--to", "2600", "--table-format", "delta", "--table", table.toString(),
                "--table-time-column", "ts");
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(ok.out()).endsWith("  total: 2\nRows in table " + table + " with ts in [1970-01-01T00:00:02Z, "
                + "1970-01-01T00:00:02.600Z): 2\nMATCH: Kafka holds 2 records and the table 2 rows.\n");
        Cli.Result all = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--table-format", "delta", "--table", table.toString(), "--table-time-column", "ts");
        assertThat(all.exitCode()).as(all.err()).isEqualTo(1);
        assertThat(all.out()).endsWith("MISMATCH: Kafka holds 4 records, the table 5 rows (difference -1).\n");

        Cli.Result noColumn = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--table-format", "delta", "--table", table.toString(), "--table-time-column", "when");
        assertThat(noColumn.exitCode()).isEqualTo(1);
        assertThat(noColumn.err()).contains("--table-time-column when: the table " + table + " has no such column "
                + "(its columns: id STRING, ts TIMESTAMP)");
        Cli.Result notTime = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--table-format", "delta", "--table", table.toString(), "--table-time-column", "id");
        assertThat(notTime.err()).contains("--table-time-column id: the column is string, not a timestamp");
        Cli.Result noTimeColumn = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--table-format", "delta", "--table", table.toString());
        assertThat(noTimeColumn.exitCode()).isEqualTo(2);
        assertThat(noTimeColumn.err()).contains("--table needs --table-time-column");
        Cli.Result both = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--expected", "2", "--table", table.toString(), "--table-time-column", "ts");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("--expected and --table are two ways");
    }

    @Test
    void devStartsABrokerThatCreatesTopicsOnFirstWriteUntilCtrlC() throws Exception {
        AtomicReference<Runnable> ctrlC = new AtomicReference<>();
        Env env = new Env(false, 80, onShutdown -> {
            ctrlC.set(onShutdown);
            return () -> {
            };
        });
        int port = freePort();
        String servers = "localhost:" + port;
        AtomicReference<Cli.Result> result = new AtomicReference<>();
        Thread t = new Thread(() -> result.set(Cli.run(env, "kafka", "dev", "--port", String.valueOf(port),
                "--data-dir", tmp.toString())), "kafka-dev-test");
        t.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> ctrlC.get() != null);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                servers), new StringSerializer(), new StringSerializer());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
            p.send(new ProducerRecord<>("never-created", "v")).get();
            assertThat(admin.describeTopics(List.of("never-created")).allTopicNames().get().get("never-created")
                    .partitions()).hasSize(1);
        } finally {
            ctrlC.get().run();
            t.join(30_000);
        }
        assertThat(result.get().exitCode()).isZero();
        assertThat(result.get().out()).isEqualTo(devOutput(servers, tmp));
    }

    /** What {@code kafka dev} prints from start to stop with the default settings. */
    static String devOutput(String servers, Path dataDir) {
        return "Kafka broker running: bootstrap servers " + servers + " (data in "
                + dataDir.toAbsolutePath().normalize() + "). Ctrl-C stops it.\n"
                + "Topics are created on first write, with 1 partition(s); to choose: sluice kafka topics"
                + " --bootstrap-servers " + servers + " create NAME --partitions N\n"
                + "Try: sluice run --source kafka --source-option kafka.bootstrap.servers=" + servers
                + " ... (see docs/sources/kafka.md)\n"
                + "Kafka broker stopped.\n";
    }

    @Test
    void devOnABusyPortSaysSoInOneLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.Result r = Cli.run("kafka", "dev", "--port", String.valueOf(taken.getLocalPort()), "--data-dir",
                    tmp.resolve("data").toString());
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).isEqualTo("sluice: port " + taken.getLocalPort() + " is already in use; choose"
                    + " another with --port PORT\n");
        }
    }

    @Test
    void topicsCreatesListsAndDescribes() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String t = "topics-" + System.nanoTime();
        Cli.Result created = Cli.run("kafka", "topics", "--bootstrap-servers", bootstrap, "create", t,
                "--partitions", "2");
        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(created.out()).isEqualTo("Created topic '" + t + "' at " + bootstrap
                + ": 2 partitions, replication factor 1\n");
        try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 3; i++) {
                p.send(new ProducerRecord<>(t, 1, null, "v" + i)).get();
            }
        }
        Cli.Result listed = Cli.run("kafka", "topics", "--bootstrap-servers", bootstrap, "list");
        assertThat(listed.exitCode()).isZero();
        assertThat(listed.out().lines().toList()).contains(t).isSorted().doesNotContain("__consumer_offsets");

        Cli.Result described = Cli.run("kafka", "topics", "--bootstrap-servers", bootstrap, "describe", t);
        assertThat(described.exitCode()).as(described.err()).isZero();
        assertThat(described.out()).isEqualTo("Topic '" + t + "' at " + bootstrap
                + ": 2 partitions, replication factor 1\n"
                + "  partition 0: leader 1, earliest 0, latest 0\n"
                + "  partition 1: leader 1, earliest 0, latest 3\n");

        Cli.Result again = Cli.run("kafka", "topics", "--bootstrap-servers", bootstrap, "create", t);
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).isEqualTo("sluice: topic '" + t + "' already exists at " + bootstrap + "\n");
        Cli.Result missing = Cli.run("kafka", "topics", "--bootstrap-servers", bootstrap, "describe", t + "-x");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).isEqualTo("sluice: topic '" + t + "-x' does not exist at " + bootstrap + "\n");
        Cli.Result zero = Cli.run("kafka", "topics", "--bootstrap-servers", bootstrap, "create", t + "-z",
                "--partitions", "0");
        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.err()).isEqualTo("sluice: Invalid value '0' for option '--partitions': a whole number of at"
                + " least 1 is accepted; see 'sluice kafka topics create --help'\n");
    }

    @Test
    void topicsAndReconcileOnUnreachableBrokersFailWithinTheTimeout() throws Exception {
        String servers = "localhost:" + freePort();
        Cli.Result topics = Cli.run("kafka", "topics", "--bootstrap-servers", servers, "--timeout-ms", "1000",
                "list");
        assertThat(topics.exitCode()).isEqualTo(1);
        assertThat(topics.err()).isEqualTo("sluice: Could not reach the Kafka brokers at " + servers
                + " (--bootstrap-servers) within 1 s (--timeout-ms): org.apache.kafka.common.errors.TimeoutException:"
                + " Timed out waiting for a node assignment. Call: listTopics\n");
        Cli.Result unresolvable = Cli.run("kafka", "topics", "--bootstrap-servers", "no-such-host.invalid:9092",
                "list");
        assertThat(unresolvable.exitCode()).isEqualTo(1);
        assertThat(unresolvable.err()).isEqualTo("sluice: Cannot connect to the Kafka brokers at"
                + " no-such-host.invalid:9092 (--bootstrap-servers): No resolvable bootstrap urls given in"
                + " bootstrap.servers\n");
        Cli.Result reconcile = Cli.run("kafka", "reconcile", "--bootstrap-servers", servers, "--topic", "t",
                "--option", "kafka.default.api.timeout.ms=1000");
        assertThat(reconcile.exitCode()).isEqualTo(1);
        assertThat(reconcile.err()).isEqualTo("sluice: Could not reach the Kafka brokers at " + servers
                + " (--bootstrap-servers) within 1 s (kafka.default.api.timeout.ms):"
                + " org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment."
                + " Call: listTopics\n");
    }

    @Test
    void reconcileOnATopicThatDoesNotExistIsAnError() {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String t = "no-such-topic-" + System.nanoTime();
        Cli.Result r = Cli.run("kafka", "reconcile", "--bootstrap-servers", bootstrap, "--topic", t,
                "--expected", "0");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("sluice: topic '" + t + "' does not exist at " + bootstrap + "\n");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
