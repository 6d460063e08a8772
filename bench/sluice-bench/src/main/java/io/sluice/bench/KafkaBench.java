package io.sluice.bench;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.kafka.broker.LocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Kafka workload: a 4-partition topic of N records of 200 bytes (produced once), then the raw KafkaConsumer's
 * fetch rate (assign all partitions, poll to the end) and Sluice's Kafka source (availableNow to noop), on the same
 * broker, one after the other.
 *
 * <pre>
 * KafkaBench prepare BOOTSTRAP|local:DATADIR TOPIC [records=2000000]   creates and fills the topic if it is new
 * KafkaBench raw BOOTSTRAP TOPIC | sluice BOOTSTRAP TOPIC              one measurement, one result line
 * KafkaBench broker DATADIR                                            runs a broker until stdin closes
 * </pre>
 */
public final class KafkaBench {
    private KafkaBench() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "broker" -> broker(Path.of(args[1]));
            case "prepare" -> prepare(args[1], args[2], Measure.longArg(args, 3, 2_000_000));
            case "raw" -> raw(args[1], args[2]);
            case "sluice" -> sluice(args[1], args[2]);
            default -> throw new IllegalArgumentException("usage: KafkaBench broker|prepare|raw|sluice ...");
        }
    }

    static void broker(Path dir) throws Exception {
        try (LocalKafkaBroker b = LocalKafkaBroker.builder(dir).start()) {
            System.out.println("bootstrap " + b.bootstrapServers());
            System.out.flush();
            while (System.in.read() >= 0) {
                // Runs until the parent closes stdin.
            }
        }
    }

    static void prepare(String bootstrap, String topic, long records) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            if (admin.listTopics().names().get().contains(topic)) {
                System.err.println("topic " + topic + " exists: " + total(admin, topic) + " records");
                return;
            }
            admin.createTopics(List.of(new NewTopic(topic, 4, (short) 1))).all().get();
            Map<String, Object> p = new HashMap<>();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
            p.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
            p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
            byte[] value = new byte[200];
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) ('a' + i % 26);
            }
            try (KafkaProducer<byte[], byte[]> producer =
                         new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (long i = 0; i < records; i++) {
                    producer.send(new ProducerRecord<>(topic, (int) (i % 4), null, value));
                }
                producer.flush();
            }
            System.err.println("topic " + topic + " filled: " + total(admin, topic) + " records");
        }
    }

    private static long total(Admin admin, String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> req = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            req.put(new TopicPartition(topic, i), OffsetSpec.latest());
        }
        return admin.listOffsets(req).all().get().values().stream().mapToLong(r -> r.offset()).sum();
    }

    /** What kafka-consumer-perf-test measures: one consumer, all partitions assigned, polled to the end. */
    static void raw(String bootstrap, String topic) throws Exception {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        long t0 = System.nanoTime();
        long rows = 0;
        long bytes = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                tps.add(new TopicPartition(topic, i));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            long target = end.values().stream().mapToLong(Long::longValue).sum();
            long firstRecordAt = 0;
            while (rows < target) {
                ConsumerRecords<byte[], byte[]> rs = consumer.poll(Duration.ofSeconds(5));
                if (firstRecordAt == 0 && !rs.isEmpty()) {
                    firstRecordAt = System.nanoTime();
                }
                for (var r : rs) {
                    rows++;
                    bytes += r.value().length;
                }
            }
            double total = (System.nanoTime() - t0) / 1e9;
            double fetch = (System.nanoTime() - firstRecordAt) / 1e9;
            System.out.printf(Locale.ROOT, "raw kafka rows=%d seconds=%.3f rows_per_s=%.0f fetch_rows_per_s=%.0f"
                    + " mb_per_s=%.1f%n", rows, total, rows / total, rows / fetch, bytes / 1e6 / fetch);
        }
    }

    static void sluice(String bootstrap, String topic) throws Exception {
        Path chk = Files.createTempDirectory("sluice-kafka-bench-");
        try (Sluice sluice = Sluice.builder().parallelism(Runtime.getRuntime().availableProcessors()).build()) {
            long t0 = System.nanoTime();
            StreamingQuery q = sluice.readStream().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                    .option("subscribe", topic).option("startingOffsets", "earliest").load()
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            double seconds = (System.nanoTime() - t0) / 1e9;
            long rows = q.recentProgress().stream().mapToLong(p -> p.numInputRows()).sum();
            long batchMs = q.recentProgress().stream().mapToLong(p -> p.batchDuration()).sum();
            System.out.printf(Locale.ROOT, "sluice kafka rows=%d seconds=%.3f rows_per_s=%.0f batch_ms=%d"
                    + " batch_rows_per_s=%.0f%n", rows, seconds, rows / seconds, batchMs,
                    rows * 1000.0 / Math.max(1, batchMs));
        } finally {
            Measure.deleteRecursively(chk);
        }
    }
}
