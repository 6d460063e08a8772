package io.sluice.avro;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming query reading Avro values from a real Kafka broker (the shared test broker) and decoding them with
 * {@code from_avro(value, schema)} in {@code selectExpr}: bare datums, and datums in a schema registry's framing.
 */
class AvroKafkaEndToEndTest {
    static final Schema SCHEMA = new Schema.Parser().parse("""
            {"type":"record","name":"payment","fields":[
              {"name":"seq","type":"long"},
              {"name":"account","type":"string"},
              {"name":"note","type":["null","string"],"default":null}]}""");

    @TempDir
    Path tmp;

    @Test
    void fromAvroDecodesKafkaValuesInAQuery() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String plain = "avro-plain-" + UUID.randomUUID();
        String framed = "avro-framed-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(plain, 2, (short) 1), new NewTopic(framed, 1, (short) 1))).all()
                    .get();
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (long seq = 1; seq <= 3; seq++) {
                byte[] datum = AvroFunctionsTest.write(SCHEMA, payment(seq, "acc-" + seq, seq == 2 ? "refund" : null));
                producer.send(new ProducerRecord<>(plain, (int) (seq % 2), null, datum)).get();
                producer.send(new ProducerRecord<>(framed, WireFormat.frame(datum, 7))).get();
            }
        }

        String schema = SCHEMA.toString();
        try (Sluice sluice = Sluice.builder().parallelism(1).build()) {
            StreamingQuery q = sluice.readStream().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                    .option("subscribe", plain).option("startingOffsets", "earliest").load()
                    .selectExpr("from_avro(value, '" + schema + "') AS p").select("p.*")
                    .writeStream().format("memory").queryName("avro_plain")
                    .option("checkpointLocation", tmp.resolve("plain").toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            assertThat(MemorySink.rows("avro_plain")).containsExactlyInAnyOrder(Row.of(1L, "acc-1", null),
                    Row.of(2L, "acc-2", "refund"), Row.of(3L, "acc-3", null));

            StreamingQuery f = sluice.readStream().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                    .option("subscribe", framed).option("startingOffsets", "earliest").load()
                    .selectExpr("offset", "from_avro(value, '" + schema + "', map('wireFormat', 'confluent', "
                            + "'schemaId', '7')).account AS account")
                    .writeStream().format("memory").queryName("avro_framed")
                    .option("checkpointLocation", tmp.resolve("framed").toString())
                    .trigger(Trigger.availableNow()).start();
            f.awaitTermination();
            assertThat(MemorySink.rows("avro_framed")).containsExactly(Row.of(0L, "acc-1"), Row.of(1L, "acc-2"),
                    Row.of(2L, "acc-3"));
        }
    }

    private static GenericRecord payment(long seq, String account, String note) {
        GenericRecord r = new GenericData.Record(SCHEMA);
        r.put("seq", seq);
        r.put("account", account);
        r.put("note", note);
        return r;
    }
}
