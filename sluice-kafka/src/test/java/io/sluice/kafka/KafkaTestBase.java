package io.sluice.kafka;

import io.sluice.api.Row;
import io.sluice.core.DataStreamReader;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** A real broker (one per JVM), an Admin client, a producer and a fresh Sluice and checkpoint per test. */
abstract class KafkaTestBase {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    static String bootstrap;
    static Admin admin;
    static KafkaProducer<String, String> producer;

    @TempDir
    Path tmp;
    Sluice sluice;
    String sinkName;

    @BeforeAll
    static void broker() {
        if (admin == null) {
            bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
            producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.LINGER_MS_CONFIG, 0, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                    ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1), new StringSerializer(), new StringSerializer());
        }
    }

    @BeforeEach
    void newSluice() {
        sluice = Sluice.builder().parallelism(2).build();
        sinkName = "kafka_" + COUNTER.incrementAndGet();
    }

    @AfterEach
    void closeSluice() {
        sluice.close();
        MemorySink.clear(sinkName);
    }

    static String topic(String hint) {
        return hint + "-" + COUNTER.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static String createTopic(String hint, int partitions, Map<String, String> configs) throws Exception {
        String t = topic(hint);
        admin.createTopics(List.of(new NewTopic(t, partitions, (short) 1).configs(configs))).all().get();
        return t;
    }

    static String createTopic(String hint, int partitions) throws Exception {
        return createTopic(hint, partitions, Map.of());
    }

    /** Sends values to one partition, in order, and waits for all of them. */
    static void send(String topic, int partition, String... values) throws Exception {
        List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
        for (String v : values) {
            fs.add(producer.send(new ProducerRecord<>(topic, partition, null, v)));
        }
        for (var f : fs) {
            f.get();
        }
    }

    static void sendRange(String topic, int partition, int from, int toExclusive) throws Exception {
        List<String> vs = new ArrayList<>();
        for (int i = from; i < toExclusive; i++) {
            vs.add(partition + ":" + i);
        }
        send(topic, partition, vs.toArray(String[]::new));
    }

    DataStreamReader kafka() {
        return sluice.readStream().format("kafka").option("kafka.bootstrap.servers", bootstrap);
    }

    StreamingQuery toMemory(io.sluice.core.StreamFrame frame, Path checkpoint, Trigger trigger) throws Exception {
        return frame.writeStream().format("memory").queryName(sinkName)
                .option("checkpointLocation", checkpoint.toString()).trigger(trigger).start();
    }

    /** The sink's rows as "partition:offset=value", in order of arrival. */
    List<String> received() {
        return describe(MemorySink.rows(sinkName));
    }

    static List<String> describe(List<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(r.getInt(3) + ":" + r.getLong(4) + "=" + new String(r.getBinary(1), StandardCharsets.UTF_8));
        }
        return out;
    }

    static List<String> sorted(List<String> l) {
        List<String> c = new ArrayList<>(l);
        c.sort(null);
        return c;
    }
}
