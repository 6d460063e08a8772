package io.sluice.examples;

import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The reconciliation example counts exactly the committed records of a time window, over every partition. */
class KafkaReconcileExampleTest {

    @Test
    void countsTheCommittedRecordsOfAWindowAcrossPartitions() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String topic = "reconcile-" + System.nanoTime();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            // Old record timestamps: time retention off, or the broker would delete them.
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1).configs(Map.of("retention.ms", "-1"))))
                    .all().get();
        }
        long base = Instant.parse("2024-05-01T00:00:00Z").toEpochMilli();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                topic + "-tx"), new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            // One record per hour over two days, alternating partitions: 24 of them on May 1st.
            for (int h = 0; h < 48; h++) {
                producer.send(new ProducerRecord<>(topic, h % 2, base + h * 3_600_000L, null, "h" + h));
            }
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, base + 60_000L, null, "aborted"));
            producer.flush();
            producer.abortTransaction();
        }
        assertThat(KafkaReconcileExample.count(bootstrap, topic, Instant.parse("2024-05-01T00:00:00Z"),
                Instant.parse("2024-05-02T00:00:00Z"))).isEqualTo(24);
        assertThat(KafkaReconcileExample.count(bootstrap, topic, Instant.parse("2024-05-01T10:00:00Z"),
                Instant.parse("2024-05-01T13:00:00Z"))).isEqualTo(3);
        assertThat(KafkaReconcileExample.count(bootstrap, topic, Instant.parse("2024-06-01T00:00:00Z"),
                Instant.parse("2024-06-02T00:00:00Z"))).isZero();
    }
}
