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
    void devStartsABrokerUntilCtrlC() throws Exception {
        AtomicReference<Runnable> ctrlC = new AtomicReference<>();
        Env env = new Env(false, 80, onShutdown -> {
            ctrlC.set(onShutdown);
            return () -> {
            };
        });
        AtomicReference<Cli.Result> result = new AtomicReference<>();
        Thread t = new Thread(() -> result.set(Cli.run(env, "kafka", "dev", "--port", "0", "--data-dir",
                tmp.toString())), "kafka-dev-test");
        t.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> ctrlC.get() != null);
        ctrlC.get().run();
        t.join(30_000);
        assertThat(result.get().exitCode()).isZero();
        assertThat(result.get().out()).startsWith("Kafka broker running: bootstrap servers localhost:")
                .endsWith("Kafka broker stopped.\n");
    }
}
