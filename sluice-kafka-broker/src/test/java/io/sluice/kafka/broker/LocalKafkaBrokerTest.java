package io.sluice.kafka.broker;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalKafkaBrokerTest {

    @TempDir
    Path dir;

    @Test
    void servesTransactionalWritesAndKeepsRecordsAcrossARestart() throws Exception {
        try (LocalKafkaBroker broker = LocalKafkaBroker.builder(dir).start()) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-1"), new StringSerializer(), new StringSerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("t", 0, "k", "committed"));
                producer.commitTransaction();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("t", 0, "k", "aborted"));
                producer.flush();
                producer.abortTransaction();
            }
            assertThat(readAll(broker, "read_committed")).containsExactly("committed");
        }
        try (LocalKafkaBroker again = LocalKafkaBroker.builder(dir).start()) {
            assertThat(readAll(again, "read_uncommitted")).containsExactly("committed", "aborted");
        }
    }

    @Test
    void aBusyPortFailsStartBeforeTheDataFolderIsTouched() throws Exception {
        Path data = dir.resolve("data");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            LocalKafkaBroker.Builder b = LocalKafkaBroker.builder(data).port(taken.getLocalPort());
            assertThatThrownBy(b::start).isInstanceOf(LocalKafkaBroker.PortInUseException.class)
                    .hasMessage("port " + taken.getLocalPort() + " is already in use");
        }
        assertThat(data).doesNotExist();
    }

    private static List<String> readAll(LocalKafkaBroker broker, String isolation) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition("t", 0);
            consumer.assign(Set.of(tp));
            consumer.seekToBeginning(Set.of(tp));
            List<String> values = new ArrayList<>();
            long end = consumer.endOffsets(Set.of(tp)).get(tp);
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    values.add(r.value());
                }
            }
            return values;
        }
    }
}
