package io.sluice.examples;

import io.sluice.core.Sluice;
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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Kafka demo pipeline against a real broker, run twice on the same checkpoints. */
class KafkaDemoTest {
    @TempDir
    Path work;

    @Test
    void everyOrderWrittenIsReadOnceAndASecondRunResumes() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (Sluice sluice = Sluice.builder().parallelism(2).build();
             PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            KafkaDemo.Summary first = KafkaDemo.run(sluice, bootstrap, work, 3, out);
            assertThat(first.written()).isGreaterThanOrEqualTo(300).isEqualTo(first.read());
            assertThat(first.distinctKeys()).isEqualTo(first.read());

            KafkaDemo.Summary second = KafkaDemo.run(sluice, bootstrap, work, 2, out);
            assertThat(second.written()).isGreaterThanOrEqualTo(200).isEqualTo(second.read());
            assertThat(second.distinctKeys()).isEqualTo(second.read());
        }
        String text = output.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("writer batch   0:  100 orders in one transaction", "reader batch   0:",
                " 0 read twice");
    }

    @Test
    void refusesATopicHoldingDataItDidNotWrite() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String topic = "demo-foreign-" + System.nanoTime();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
             KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                     bootstrap), new StringSerializer(), new StringSerializer())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
            p.send(new ProducerRecord<>(topic, 0, "k", "someone else's")).get();
            p.send(new ProducerRecord<>(topic, 1, "k", "someone else's")).get();
        }
        try (Sluice sluice = Sluice.local();
             PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            assertThatThrownBy(() -> KafkaDemo.run(sluice, bootstrap, topic, work, 1, out))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("Topic '" + topic + "' at " + bootstrap + " already holds data (2 offsets) that this"
                            + " demo's writer checkpoint " + work.resolve("writer").toAbsolutePath() + " did not"
                            + " write. Run the demo with another topic (its 4th argument) or on a fresh broker"
                            + " (sluice kafka dev --data-dir <another folder>).");
        }
        assertThat(work.resolve("writer")).doesNotExist();
    }
}
