package io.sluice.kafka;

import io.sluice.testkit.SourceContract;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** The source contract kit (sluice-testkit) on the Kafka source, with records produced before each trigger. */
class KafkaSourceContractTest extends KafkaTestBase {

    @Test
    void allAvailableFromEarliest() throws Exception {
        String t = createTopic("contract", 2);
        sendRange(t, 0, 0, 3);
        SourceContract.forFormat("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", t)
                .option("startingOffsets", "earliest")
                .beforeEachTrigger(n -> {
                    sendRange(t, 0, 3 * n, 3 * n + 3);
                    sendRange(t, 1, 2 * n, 2 * n + 2);
                })
                .check();
    }

    @Test
    void cappedSplitWithHeadersAndAGroupCommit() throws Exception {
        String t = createTopic("contract-capped", 3);
        SourceContract.forFormat("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", t)
                .option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", "7")
                .option("minPartitions", "5").option("includeHeaders", "true")
                .option("commitOffsetsToGroup", "contract-" + t)
                .beforeEachTrigger(n -> {
                    for (int p = 0; p < 3; p++) {
                        producer.send(new ProducerRecord<>(t, p, null, "k" + n, "v" + n + "-" + p,
                                List.of(new RecordHeader("n", Integer.toString(n).getBytes(StandardCharsets.UTF_8)))))
                                .get();
                    }
                    sendRange(t, 0, 10 * n, 10 * n + 4);
                })
                .batches(4)
                .check();
    }

    /** Aborted records and transaction markers leave offset gaps: replays must still give the same rows. */
    @Test
    void readCommittedWithAbortedTransactions() throws Exception {
        String t = createTopic("contract-txn", 2);
        try (KafkaProducer<String, String> tx = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "contract-" + t), new StringSerializer(), new StringSerializer())) {
            tx.initTransactions();
            SourceContract.forFormat("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", t)
                    .option("startingOffsets", "earliest").option("kafka.isolation.level", "read_committed")
                    .beforeEachTrigger(n -> {
                        for (boolean commit : new boolean[] {true, false}) {
                            tx.beginTransaction();
                            for (int p = 0; p < 2; p++) {
                                tx.send(new ProducerRecord<>(t, p, null, (commit ? "kept" : "aborted") + n));
                            }
                            if (commit) {
                                tx.commitTransaction();
                            } else {
                                tx.flush();
                                tx.abortTransaction();
                            }
                        }
                    })
                    .check();
        }
    }
}
