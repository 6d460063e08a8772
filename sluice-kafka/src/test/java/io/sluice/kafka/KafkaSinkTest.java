package io.sluice.kafka;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.StructType;
import io.sluice.core.DataStreamWriter;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import io.sluice.core.sources.MemoryStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static io.sluice.kafka.KafkaTestTopics.bootstrap;
import static io.sluice.kafka.KafkaTestTopics.committedValues;
import static io.sluice.kafka.KafkaTestTopics.readAll;
import static io.sluice.kafka.KafkaTestTopics.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/** The Kafka sink against a real broker: exact records, option and column errors, and its two guarantees. */
class KafkaSinkTest {
    private static final String HEADERS = "array<struct<key:string,value:binary>>";

    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();

    @AfterEach
    void tearDown() {
        sluice.close();
    }

    @Test
    void writesKeyValueHeadersPartitionTimestampAndTheTopicOfEachRow() throws Exception {
        // The rows' timestamps are from 1970: with the default retention.ms (7 days) the broker would delete the
        // records at its first retention check (every second, from 30 s after it starts).
        Map<String, String> keep = Map.of("retention.ms", "-1");
        String a = KafkaTestTopics.create("sink-cols-a", 3, keep);
        String b = KafkaTestTopics.create("sink-cols-b", 1, keep);
        MemoryStream input = MemoryStream.create(StructType.fromDDL(
                "topic string, key string, value binary, partition int, headers " + HEADERS + ", timestamp timestamp"));
        StreamingQuery q = kafka(sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream()).start();
        input.addData(
                Row.of(a, "k1", bytes("v1"), 2, List.of(Row.of("h", bytes("x")), Row.of("h2", null)),
                        Instant.ofEpochMilli(1_000)),
                Row.of(a, null, bytes("v2"), 0, null, Instant.ofEpochMilli(2_000)),
                Row.of(b, "k3", null, null, List.of(), Instant.ofEpochMilli(3_000)));
        q.processAllAvailable();
        q.stop();

        List<ConsumerRecord<byte[], byte[]>> inA = readAll(a, "read_uncommitted");
        assertThat(inA).extracting(r -> r.partition(), r -> r.offset(), r -> text(r.key()), r -> text(r.value()),
                        ConsumerRecord::timestamp)
                .containsExactly(tuple(0, 0L, null, "v2", 2_000L), tuple(2, 0L, "k1", "v1", 1_000L));
        Header[] headers = inA.get(1).headers().toArray();
        assertThat(headers).extracting(Header::key, h -> text(h.value()))
                .containsExactly(tuple("h", "x"), tuple("h2", null));
        assertThat(inA.get(0).headers().toArray()).isEmpty();
        assertThat(readAll(b, "read_uncommitted")).extracting(r -> text(r.key()), r -> r.value(), ConsumerRecord::timestamp)
                .containsExactly(tuple("k3", null, 3_000L));
        assertThat(q.lastProgress().sink().description()).isEqualTo("KafkaSink");
    }

    @Test
    void theTopicOptionWinsOverTheColumnAndStringValuesAreUtf8() throws Exception {
        String topic = KafkaTestTopics.create("sink-option", 1);
        MemoryStream input = MemoryStream.create(StructType.fromDDL("topic string, value string, id long"));
        StreamingQuery q = kafka(sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream()).option("topic", " " + topic + " ").start();
        input.addData(Row.of("elsewhere", "héllo", 1L), Row.of(null, "wörld", 2L));
        q.processAllAvailable();
        q.stop();

        assertThat(committedValues(topic)).containsExactly("héllo", "wörld");
    }

    @Test
    void aNullTopicInARowFailsTheQueryWithSparksMessage() throws Exception {
        String topic = KafkaTestTopics.create("sink-null-topic", 1);
        MemoryStream input = MemoryStream.create(StructType.fromDDL("topic string, value string"));
        StreamingQuery q = kafka(sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream()).start();
        input.addData(Row.of(topic, "a"), Row.of(null, "b"));
        assertThatThrownBy(q::processAllAvailable).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(NullPointerException.class)
                .hasMessage("null topic present in the data. Use the topic option for setting a default topic.");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "key string, topic string|Required attribute 'value' not found",
        "value int, topic string|value attribute unsupported type int. value must be a(n) string or binary",
        "value string|topic option required when no 'topic' attribute is present. Use the topic option for setting a topic.",
        "value string, topic binary|topic attribute unsupported type binary. topic must be a(n) string",
        "value string, topic string, key long|key attribute unsupported type bigint. key must be a(n) string or binary",
        "value string, topic string, partition long|partition attribute unsupported type bigint. partition must be a(n) int",
        "value string, topic string, headers map<string,binary>|headers attribute unsupported type map<string,binary>. headers must be a(n) " + HEADERS,
        "value string, topic string, headers array<struct<key:string,value:string>>|headers attribute unsupported type array<struct<key:string,value:string>>. headers must be a(n) " + HEADERS,
        "value string, topic string, timestamp string|timestamp attribute unsupported type string. timestamp must be a(n) double or timestamp",
    })
    void columnsOfTheWrongTypeOrMissingFailStart(String ddl, String message) {
        MemoryStream input = MemoryStream.create(StructType.fromDDL(ddl));
        DataStreamWriter w = kafka(sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream());
        assertThatThrownBy(w::start).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
        assertThat(sluice.activeQueries()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "kafka.key.serializer|x|kafka.key.serializer|Kafka option 'key.serializer' is not supported as keys are serialized with ByteArraySerializer.",
        "kafka.VALUE.serializer|x|kafka.value.serializer|Kafka option 'value.serializer' is not supported as value are serialized with ByteArraySerializer.",
        "kafka.transactional.id|t|kafka.transactional.id|Kafka option 'transactional.id' is not supported: the sink runs its own transactions. Set the sink option 'exactlyOnce' to true (and optionally 'transactionalIdPrefix') to write each batch in one Kafka transaction.",
        "exactlyOnce|yes|exactlyOnce|Invalid value 'yes' for option 'exactlyOnce': true or false is accepted",
        "transactionalIdPrefix|p|transactionalIdPrefix|Option 'transactionalIdPrefix' only applies when 'exactlyOnce' is true",
        "topic|' '|topic|Invalid value ' ' for option 'topic': a topic name is accepted (or leave the option out and give each row a 'topic' column)",
    })
    void badOptionsFailStart(String key, String value, String option, String message) {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("value string, topic string"));
        DataStreamWriter w = kafka(sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream()).option(key, value);
        assertThatThrownBy(w::start).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> assertThat(e.option()).isEqualTo(option)).hasMessage(message);
    }

    @Test
    void exactlyOnceRefusesProducerSettingsThatCannotRunTransactions() {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("value string, topic string"));
        DataStreamWriter acks = kafka(sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream()).option("exactlyOnce", "true").option("kafka.acks", "1");
        assertThatThrownBy(acks::start).isInstanceOf(InvalidOptionException.class).hasMessage(
                "Invalid value '1' for option 'kafka.acks': with exactlyOnce=true only all (or -1) is accepted: "
                        + "Kafka transactions need the idempotent producer");
        DataStreamWriter idempotence = kafka(sluice.readStream().format("memory").option("name", input.name())
                .load().writeStream()).option("exactlyOnce", "true").option("kafka.enable.idempotence", "false");
        assertThatThrownBy(idempotence::start).isInstanceOf(InvalidOptionException.class).hasMessage(
                "Invalid value 'false' for option 'kafka.enable.idempotence': with exactlyOnce=true only true is "
                        + "accepted: Kafka transactions need the idempotent producer");
    }

    @Test
    void bootstrapServersAreRequired() {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("value string"));
        DataStreamWriter w = sluice.readStream().format("memory").option("name", input.name()).load().writeStream()
                .format("kafka").option("topic", "t").option("checkpointLocation", tmp.resolve("c").toString());
        assertThatThrownBy(w::start).isInstanceOf(InvalidOptionException.class)
                .hasMessage("Option 'kafka.bootstrap.servers' must be specified for configuring Kafka producer");
    }

    /**
     * A crash after the sink wrote batch 0 and before commits/0 (simulated by deleting commits/0) makes the engine
     * re-run batch 0: at-least-once writes its records again, as Spark does; exactly-once does not.
     */
    @ParameterizedTest
    @CsvSource({"false, 30", "true, 20"})
    void aReRunBatchIsWrittenTwiceAtLeastOnceAndOnceExactlyOnce(boolean exactlyOnce, int expectedRecords)
            throws Exception {
        String topic = KafkaTestTopics.create("sink-rerun-" + exactlyOnce, 2);
        Path checkpoint = tmp.resolve("chk");
        runOneRateBatch(topic, checkpoint, exactlyOnce);
        assertThat(committedValues(topic)).hasSize(10);
        Files.delete(checkpoint.resolve("commits").resolve("0"));

        StreamingQuery again = runOneRateBatch(topic, checkpoint, exactlyOnce);

        List<String> values = committedValues(topic);
        assertThat(values).hasSize(expectedRecords);
        List<String> expected = IntStream.range(0, 20).mapToObj(Integer::toString).toList();
        if (exactlyOnce) {
            assertThat(values).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(again.recentProgress().get(0).sink().numOutputRows()).isZero();
        } else {
            assertThat(values).containsAll(expected);
            assertThat(values.stream().filter(v -> Integer.parseInt(v) < 10)).hasSize(20);
        }
        assertThat(again.recentProgress()).extracting(p -> p.batchId()).containsExactly(0L, 1L);
    }

    @Test
    void exactlyOnceKeepsAnAbortedBatchFromReadCommittedReaders() throws Exception {
        String topic = KafkaTestTopics.create("sink-aborted", 1);
        MemoryStream input = MemoryStream.create(StructType.fromDDL("topic string, value string"));
        StreamingQuery q = kafka(sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream()).option("exactlyOnce", "true").start();
        input.addData(Row.of(topic, "committed"));
        q.processAllAvailable();
        input.addData(Row.of(topic, "sent then aborted"), Row.of(null, "fails the batch"));
        assertThatThrownBy(q::processAllAvailable).isInstanceOf(StreamingQueryException.class);

        // Whether the first row reached the broker before the abort is up to the producer; either way it is not
        // committed.
        assertThat(committedValues(topic)).containsExactly("committed");
    }

    @Test
    void aFreshCheckpointReusingATransactionalIdPrefixStillWritesItsBatches() throws Exception {
        String topic = KafkaTestTopics.create("sink-prefix", 1);
        for (int run = 0; run < 2; run++) {
            MemoryStream input = MemoryStream.create(StructType.fromDDL("value string"));
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("kafka").option("kafka.bootstrap.servers", bootstrap())
                    .option("topic", topic).option("exactlyOnce", "true").option("transactionalIdPrefix", "shared")
                    .option("checkpointLocation", tmp.resolve("chk-" + run).toString()).start();
            input.addData(Row.of("run " + run));
            q.processAllAvailable();
            input.addData(Row.of("run " + run));
            q.processAllAvailable();
            q.stop();
        }
        // The second run's batches 0 and 1 are not mistaken for the first run's: the marker carries the query id.
        assertThat(committedValues(topic)).containsExactly("run 0", "run 0", "run 1", "run 1");
    }

    /**
     * A writer restarted with the same transactional id (the successor of a run that is still alive, a zombie)
     * fences the old one: the zombie's open transaction is aborted and its commit fails.
     */
    @Test
    void aNewWriterWithTheSameTransactionalIdFencesTheOldOne() throws Exception {
        String topic = KafkaTestTopics.create("sink-fence", 1);
        SinkContext context = new SinkContext(Options.of(Map.of("kafka.bootstrap.servers", bootstrap(),
                "topic", topic, "exactlyOnce", "true", "transactionalIdPrefix", "fence-" + topic)),
                StructType.fromDDL("value string"), tmp, "query-1", null, SluiceClock.system());
        KafkaSinkProvider provider = new KafkaSinkProvider();
        try (Sink zombie = provider.createSink(context); Sink successor = provider.createSink(context)) {
            BatchWriter zombieBatch = zombie.beginBatch(0);
            Object zombieResult = writeOne(zombieBatch, "zombie");

            BatchWriter successorBatch = successor.beginBatch(0);
            successorBatch.commit(List.of(writeOne(successorBatch, "successor")));

            assertThatThrownBy(() -> zombieBatch.commit(List.of(zombieResult))).isInstanceOf(KafkaException.class);
            zombieBatch.abort(new IllegalStateException("commit failed"));
        }
        assertThat(committedValues(topic)).containsExactly("successor");
    }

    private static Object writeOne(BatchWriter batch, String value) throws Exception {
        PartitionWriter w = batch.partitionWriter(0);
        w.write(Row.of(value));
        return w.commit();
    }

    private StreamingQuery runOneRateBatch(String topic, Path checkpoint, boolean exactlyOnce) throws Exception {
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 10)
                .option("numPartitions", 2).load().selectExpr("CAST(value AS STRING) AS value")
                .writeStream().format("kafka").option("kafka.bootstrap.servers", bootstrap()).option("topic", topic)
                .option("exactlyOnce", Boolean.toString(exactlyOnce))
                .option("checkpointLocation", checkpoint.toString()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        return q;
    }

    private DataStreamWriter kafka(DataStreamWriter w) {
        return w.format("kafka").option("kafka.bootstrap.servers", bootstrap())
                .option("checkpointLocation", tmp.resolve("chk").toString());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
