package io.sluice.kafka;

import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class KafkaDataLossTest extends KafkaTestBase {
    private static final String ADVICE = ". Some data may have been lost because they are not available in Kafka any"
            + " more; either the data was aged out by Kafka or the topic may have been deleted before all the data in"
            + " the topic was processed. If you don't want your streaming query to fail on such cases, set the source"
            + " option \"failOnDataLoss\" to \"false\".";

    private StreamingQuery run(String t, Path chk, String... kv) throws Exception {
        var reader = kafka().option("subscribe", t);
        for (int i = 0; i < kv.length; i += 2) {
            reader = reader.option(kv[i], kv[i + 1]);
        }
        return toMemory(reader.load(), chk, Trigger.availableNow());
    }

    private static long earliest(String t, int p) throws Exception {
        TopicPartition tp = new TopicPartition(t, p);
        return admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).all().get().get(tp).offset();
    }

    @Test
    void newPartitionsAndNewTopicsStartAtEarliest() throws Exception {
        String t = createTopic("grow", 1);
        send(t, 0, "a");
        StreamingQuery q = toMemory(kafka().option("subscribePattern", t + "(-more)?").load(), tmp.resolve("chk"),
                Trigger.processingTime(0));
        q.processAllAvailable();
        admin.createPartitions(Map.of(t, NewPartitions.increaseTo(2))).all().get();
        send(t, 1, "new-partition");
        admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(t + "-more", 1, (short) 1))).all().get();
        send(t + "-more", 0, "new-topic");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            q.processAllAvailable();
            assertThat(sorted(received())).containsExactly("0:0=new-topic", "1:0=new-partition");
        });
        q.stop();
    }

    @Test
    void offsetsAgedOutByTheRetentionCleanerFailTheQueryOrAreSkipped() throws Exception {
        String t = createTopic("aged", 1, Map.of("retention.ms", "60000", "segment.ms", "100"));
        for (int i = 0; i < 3; i++) {
            // Record times in the past put the segment beyond retention as soon as it rolls.
            producer.send(new ProducerRecord<>(t, 0, 1000L + i, null, "old" + i)).get();
        }
        await().pollDelay(Duration.ofMillis(150)).until(() -> true);
        send(t, 0, "fresh");
        await().atMost(Duration.ofSeconds(30)).until(() -> earliest(t, 0) == 3);
        String start = "{\"" + t + "\":{\"0\":0}}";

        StreamingQuery failing = run(t, tmp.resolve("c1"), "startingOffsets", start);
        assertThatThrownBy(failing::awaitTermination).rootCause()
                .hasMessageStartingWith("Cannot fetch offset 0 (GroupId: spark-kafka-source-")
                .hasMessageEndingWith("-executor, TopicPartition: " + t + "-0). The earliest offset available is 3"
                        + ADVICE);

        StreamingQuery skipping = run(t, tmp.resolve("c2"), "startingOffsets", start, "failOnDataLoss", "false");
        skipping.awaitTermination();
        assertThat(received()).containsExactly("0:3=fresh");
        assertThat(skipping.lastProgress().sources().get(0).metrics()).containsEntry("dataLoss", "1");
    }

    @Test
    void deletedRecordsOfARunningQueryAreDataLoss() throws Exception {
        String t = createTopic("deleted", 1);
        sendRange(t, 0, 0, 2);
        Path chk = tmp.resolve("chk");
        run(t, chk, "startingOffsets", "earliest").awaitTermination();
        sendRange(t, 0, 2, 6);
        admin.deleteRecords(Map.of(new TopicPartition(t, 0), RecordsToDelete.beforeOffset(4))).all().get();
        MemorySink.clear(sinkName);
        StreamingQuery q = run(t, chk, "failOnDataLoss", "false");
        q.awaitTermination();
        assertThat(received()).containsExactly("0:4=0:4", "0:5=0:5");
    }

    @Test
    void aRecreatedTopicIsDataLoss() throws Exception {
        String t = createTopic("recreated", 1);
        sendRange(t, 0, 0, 5);
        Path chk = tmp.resolve("chk");
        run(t, chk, "startingOffsets", "earliest").awaitTermination();
        admin.deleteTopics(List.of(t)).all().get();
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(t, 1, (short) 1))).all().get();
            return true;
        });
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            send(t, 0, "x", "y");
            return true;
        });
        StreamingQuery q = run(t, chk);
        assertThatThrownBy(q::awaitTermination).cause().hasMessageStartingWith("Partition " + t + "-0's offset was"
                + " changed from 5 to ").hasMessageEndingWith(", some data may have been missed" + ADVICE);
        StreamingQuery skipping = run(t, chk, "failOnDataLoss", "false");
        skipping.awaitTermination();
        assertThat(skipping.lastProgress().sources().get(0).metrics()).containsEntry("dataLoss", "1");
    }

    @Test
    void aGonePartitionAndANewPartitionNotStartingAtZeroAreDataLoss() throws Exception {
        String t = createTopic("gone", 1);
        send(t, 0, "a");
        Path chk = tmp.resolve("chk");
        run(t, chk, "startingOffsets", "earliest").awaitTermination();
        admin.createPartitions(Map.of(t, NewPartitions.increaseTo(2))).all().get();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            sendRange(t, 1, 0, 3);
            return true;
        });
        admin.deleteRecords(Map.of(new TopicPartition(t, 1), RecordsToDelete.beforeOffset(2))).all().get();
        StreamingQuery q = run(t, chk);
        assertThatThrownBy(q::awaitTermination).cause()
                .hasMessage("Added partition " + t + "-1 starts from 2 instead of 0. Some data may have been missed"
                        + ADVICE);

        String g = createTopic("gone2", 1);
        send(g, 0, "a");
        Path chk2 = tmp.resolve("chk2");
        StreamingQuery first = toMemory(kafka().option("subscribePattern", g).option("startingOffsets", "earliest")
                .load(), chk2, Trigger.availableNow());
        first.awaitTermination();
        admin.deleteTopics(List.of(g)).all().get();
        await().atMost(Duration.ofSeconds(30)).until(() -> !admin.listTopics().names().get().contains(g));
        StreamingQuery second = toMemory(kafka().option("subscribePattern", g).load(), chk2, Trigger.availableNow());
        assertThatThrownBy(second::awaitTermination).cause()
                .hasMessage("[" + g + "-0] are gone. Some data may have been missed" + ADVICE);
    }

    @Test
    void readCommittedGapsAreNotDataLoss() throws Exception {
        String t = createTopic("tx", 1);
        try (KafkaProducer<String, String> tx = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-" + t), new StringSerializer(), new StringSerializer())) {
            tx.initTransactions();
            tx.beginTransaction();
            tx.send(new ProducerRecord<>(t, 0, null, "c1"));
            tx.send(new ProducerRecord<>(t, 0, null, "c2"));
            tx.commitTransaction();
            tx.beginTransaction();
            tx.send(new ProducerRecord<>(t, 0, null, "aborted1"));
            tx.send(new ProducerRecord<>(t, 0, null, "aborted2"));
            tx.flush();
            tx.abortTransaction();
            tx.beginTransaction();
            tx.send(new ProducerRecord<>(t, 0, null, "c3"));
            tx.commitTransaction();
        }
        StreamingQuery q = run(t, tmp.resolve("chk"), "startingOffsets", "earliest",
                "kafka.isolation.level", "read_committed", "maxOffsetsPerTrigger", "4");
        q.awaitTermination();
        // Offsets: c1 0, c2 1, marker 2, aborted 3-4, marker 5, c3 6, marker 7.
        assertThat(received()).containsExactly("0:0=c1", "0:1=c2", "0:6=c3");
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo("{\"" + t + "\":{\"0\":8}}");
        assertThat(q.lastProgress().sources().get(0).metrics()).doesNotContainKey("dataLoss");
    }
}
