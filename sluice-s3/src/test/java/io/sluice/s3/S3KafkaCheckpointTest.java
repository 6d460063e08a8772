package io.sluice.s3;

import io.sluice.api.Row;
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
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mission's own shape: a Kafka source with {@code checkpointLocation} on S3 (the real local server and the
 * shared real broker). The source's initial offsets ({@code sources/0/0}, Spark's {@code v1} file) are kept on the
 * store, and a restart on another engine continues from the checkpoint: every record once, the starting option
 * no longer consulted.
 */
class S3KafkaCheckpointTest {
    private final String table = S3TestSupport.tableName("s3kafka_");

    @AfterEach
    void clear() {
        MemorySink.clear(table);
    }

    private static Sluice engine() {
        Sluice.Builder b = Sluice.builder().parallelism(2);
        S3TestSupport.conf().forEach(b::config);
        return b.build();
    }

    private void run(String bootstrap, String topic, String checkpoint, String startingOffsets) throws Exception {
        try (Sluice sluice = engine()) {
            StreamingQuery q = sluice.readStream().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                    .option("subscribe", topic).option("startingOffsets", startingOffsets).load()
                    .selectExpr("CAST(value AS STRING) AS v", "partition", "offset")
                    .writeStream().format("memory").queryName(table).option("checkpointLocation", checkpoint)
                    .trigger(Trigger.availableNow()).start();
            assertThat(q.awaitTermination(120_000)).isTrue();
            assertThat(q.exception()).isEmpty();
        }
    }

    private List<String> values() {
        return MemorySink.rows(table).stream().map((Row r) -> r.getString(0) + "@" + r.getInt(1) + ":" + r.getLong(2))
                .sorted().toList();
    }

    @Test
    void theKafkaSourceKeepsItsInitialOffsetsOnTheS3CheckpointAndARestartReadsEachRecordOnce() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String topic = "s3chk-" + UUID.randomUUID().toString().substring(0, 8);
        String bucket = S3TestSupport.newBucket("kafka");
        String checkpoint = "s3a://" + bucket + "/chk/orders_v1";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 0),
                     new StringSerializer(), new StringSerializer());
             S3Client client = S3TestSupport.client()) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
            for (String v : List.of("a", "b", "c")) {
                producer.send(new ProducerRecord<>(topic, 0, null, v)).get();
            }
            producer.send(new ProducerRecord<>(topic, 1, null, "d")).get();

            run(bootstrap, topic, checkpoint, "earliest");
            assertThat(values()).containsExactly("a@0:0", "b@0:1", "c@0:2", "d@1:0");
            String initial = S3TestSupport.get(client, bucket, "chk/orders_v1/sources/0/0");
            assertThat(initial).isEqualTo("v1\n{\"" + topic + "\":{\"0\":0,\"1\":0}}");

            producer.send(new ProducerRecord<>(topic, 0, null, "e")).get();
            producer.send(new ProducerRecord<>(topic, 1, null, "f")).get();
            // startingOffsets=latest is ignored on a restart: the checkpoint says where to go on.
            run(bootstrap, topic, checkpoint, "latest");
            assertThat(values()).containsExactly("a@0:0", "b@0:1", "c@0:2", "d@1:0", "e@0:3", "f@1:1");
            assertThat(S3TestSupport.keys(client, bucket, "chk/orders_v1/commits/"))
                    .containsExactly("chk/orders_v1/commits/0", "chk/orders_v1/commits/1");
        }
    }
}
