package io.sluice.kafka;

import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** Topics on the shared test broker: unique names, creation, and reading back everything a topic holds. */
final class KafkaTestTopics {
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private KafkaTestTopics() {
    }

    static String bootstrap() {
        return SharedLocalKafkaBroker.get().bootstrapServers();
    }

    /** A new topic with a unique name starting with {@code prefix}. */
    static String create(String prefix, int partitions) throws Exception {
        return create(prefix, partitions, Map.of());
    }

    /** A new topic with a unique name starting with {@code prefix} and the given topic configs. */
    static String create(String prefix, int partitions, Map<String, String> configs) throws Exception {
        String name = prefix + "-" + COUNTER.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all().get();
        }
        return name;
    }

    /**
     * Every record the topic holds up to its end now, ordered by partition then offset, read with the given
     * {@code isolation.level}.
     */
    static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, String isolation) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic)) {
                tps.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            // With read_committed, endOffsets is the last stable offset: nothing beyond it can be read yet.
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Could not read " + topic + " up to " + end + " in 30 s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            out.sort(Comparator.<ConsumerRecord<byte[], byte[]>>comparingInt(ConsumerRecord::partition)
                    .thenComparingLong(ConsumerRecord::offset));
            return out;
        }
    }

    /** The values of every committed record, as UTF-8 strings. */
    static List<String> committedValues(String topic) {
        return readAll(topic, "read_committed").stream().map(r -> text(r.value())).toList();
    }

    static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
