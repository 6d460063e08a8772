package io.sluice.bench;

import io.sluice.core.DataStreamReader;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Kafka workload: a 4-partition topic of N records of 200 bytes (produced once), then the raw KafkaConsumer's
 * fetch rate (assign all partitions, poll to the end) and Sluice's Kafka source (availableNow to noop), on the same
 * broker, one after the other.
 *
 * <pre>
 * KafkaBench prepare BOOTSTRAP|local:DATADIR TOPIC [records=2000000]   creates and fills the topic if it is new
 * KafkaBench raw BOOTSTRAP TOPIC [one|tasks] [sluice|large|defaults] the raw consumer (see raw): one result line
 * KafkaBench sluice BOOTSTRAP TOPIC                                   Sluice availableNow to noop: one result line
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
            case "raw" -> raw(args[1], args[2], args.length > 3 ? args[3] : "one",
                    args.length > 4 ? args[4] : "sluice");
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

    /**
     * The executor consumers' fetch settings of Sluice's Kafka source (KafkaMicroBatchStream.consumerParams), so the
     * raw consumer is measured with the same ones; {@code large} is the same with {@code max.poll.records} 10,000
     * (Sluice's setting until it was found to cost the reader its young generation, kept as the raw consumer's best
     * case); {@code defaults} leaves the client's defaults instead.
     */
    static Map<String, Object> consumerSettings(String bootstrap, String settings) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "sluice-bench-raw");
        if (settings.equals("sluice") || settings.equals("large")) {
            c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.equals("sluice") ? 1_000 : 10_000);
            c.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
            c.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 1024 * 1024);
        } else if (!settings.equals("defaults")) {
            throw new IllegalArgumentException("settings: sluice, large or defaults, not " + settings);
        }
        c.putAll(overrides());
        return c;
    }

    /** Consumer settings to try, for both sides: system properties {@code -Dkafka.X=Y} set client setting X. */
    static Map<String, String> overrides() {
        Map<String, String> out = new HashMap<>();
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("kafka."))
                .forEach(k -> out.put(k.substring("kafka.".length()), System.getProperty(k)));
        return out;
    }

    /**
     * The raw KafkaConsumer, no engine. {@code one}: one consumer, the 4 partitions assigned, polled to the end (what
     * kafka-consumer-perf-test measures). {@code tasks}: what Sluice's reader does without the engine: one consumer
     * per partition, assigned and sought, polled to the partition's end, the 4 partitions on a pool of
     * {@code nproc} threads. Every record's key and value are touched, as a row would hold them.
     */
    static void raw(String bootstrap, String topic, String layout, String settings) throws Exception {
        Map<String, Object> c = consumerSettings(bootstrap, settings);
        List<TopicPartition> tps = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            tps.add(new TopicPartition(topic, i));
        }
        Map<TopicPartition, Long> end;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<TopicPartition, OffsetSpec> req = new HashMap<>();
            tps.forEach(tp -> req.put(tp, OffsetSpec.latest()));
            end = new HashMap<>();
            admin.listOffsets(req).all().get().forEach((tp, r) -> end.put(tp, r.offset()));
        }
        long t0 = System.nanoTime();
        AtomicLong firstRecordAt = new AtomicLong();
        long[] counts;
        if (layout.equals("one")) {
            counts = drain(c, tps, end, firstRecordAt);
        } else if (layout.equals("tasks")) {
            ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
            try {
                List<Future<long[]>> fs = new ArrayList<>();
                for (TopicPartition tp : tps) {
                    fs.add(pool.submit(() -> drain(c, List.of(tp), end, firstRecordAt)));
                }
                counts = new long[2];
                for (Future<long[]> f : fs) {
                    counts[0] += f.get()[0];
                    counts[1] += f.get()[1];
                }
            } finally {
                pool.shutdown();
            }
        } else {
            throw new IllegalArgumentException("layout: one or tasks, not " + layout);
        }
        long t1 = System.nanoTime();
        double total = (t1 - t0) / 1e9;
        double fetch = (t1 - firstRecordAt.get()) / 1e9;
        System.out.printf(Locale.ROOT, "raw kafka layout=%s settings=%s rows=%d seconds=%.3f rows_per_s=%.0f"
                        + " fetch_rows_per_s=%.0f mb_per_s=%.1f%n", layout, settings, counts[0], total,
                counts[0] / total, counts[0] / fetch, counts[1] / 1e6 / fetch);
    }

    /** Polls {@code tps} from 0 to their end offsets: rows and value bytes. */
    private static long[] drain(Map<String, Object> settings, List<TopicPartition> tps,
                                Map<TopicPartition, Long> end, AtomicLong firstRecordAt) {
        long rows = 0;
        long bytes = 0;
        long target = tps.stream().mapToLong(end::get).sum();
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(tps);
            tps.forEach(tp -> consumer.seek(tp, 0));
            while (rows < target) {
                ConsumerRecords<byte[], byte[]> rs = consumer.poll(Duration.ofSeconds(5));
                if (!rs.isEmpty()) {
                    firstRecordAt.compareAndSet(0, System.nanoTime());
                }
                for (var r : rs) {
                    rows++;
                    bytes += r.value().length + (r.key() == null ? 0 : r.key().length);
                }
            }
        }
        return new long[] {rows, bytes};
    }

    static void sluice(String bootstrap, String topic) throws Exception {
        Path chk = Files.createTempDirectory("sluice-kafka-bench-");
        try (Sluice sluice = Sluice.builder().parallelism(Runtime.getRuntime().availableProcessors()).build()) {
            long t0 = System.nanoTime();
            DataStreamReader reader = sluice.readStream().format("kafka");
            overrides().forEach((k, v) -> reader.option("kafka." + k, v));
            StreamingQuery q = reader.option("kafka.bootstrap.servers", bootstrap)
                    .option("subscribe", topic).option("startingOffsets", "earliest").load()
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            double seconds = (System.nanoTime() - t0) / 1e9;
            long rows = q.recentProgress().stream().mapToLong(p -> p.numInputRows()).sum();
            long batchMs = q.recentProgress().stream().mapToLong(p -> p.batchDuration()).sum();
            // The read alone (addBatch: every task from consumer creation to its last row), as comparable to the
            // raw consumer's fetch rate; latestOffset (the Admin client's first calls) is the rest of the batch.
            long addBatchMs = q.recentProgress().stream().mapToLong(p -> p.durationMs().getOrDefault("addBatch", 0L))
                    .sum();
            System.out.printf(Locale.ROOT, "sluice kafka rows=%d batches=%d seconds=%.3f rows_per_s=%.0f batch_ms=%d"
                    + " batch_rows_per_s=%.0f add_batch_ms=%d read_rows_per_s=%.0f%n", rows, q.recentProgress().size(),
                    seconds, rows / seconds, batchMs, rows * 1000.0 / Math.max(1, batchMs), addBatchMs,
                    rows * 1000.0 / Math.max(1, addBatchMs));
        } finally {
            Measure.deleteRecursively(chk);
        }
    }
}
