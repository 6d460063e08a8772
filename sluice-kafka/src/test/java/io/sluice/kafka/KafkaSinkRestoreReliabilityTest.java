package io.sluice.kafka;

import io.sluice.api.sink.BatchInfo;
import io.sluice.core.Backups;
import io.sluice.core.LoggedBatch;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;

import static io.sluice.kafka.KafkaTestTopics.bootstrap;
import static io.sluice.kafka.KafkaTestTopics.committedValues;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability (issue 14, item 1) for the exactly-once Kafka sink: the batch marker carries the batch's digest, so
 * a checkpoint restored from an older copy than the topic, which plans a committed batch id again, fails with both
 * digests and the two ways out instead of dropping the batch's rows.
 */
class KafkaSinkRestoreReliabilityTest {
    private static final long T0 = 1_790_899_200_000L;

    @TempDir
    Path tmp;
    private final ManualClock clock = new ManualClock(T0);

    private StreamingQuery runOneBatch(String topic) throws Exception {
        try (Sluice sluice = Sluice.builder().clock(clock).build()) {
            StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 10)
                    .option("numPartitions", 2).load().selectExpr("CAST(value AS STRING) AS value")
                    .writeStream().format("kafka").option("kafka.bootstrap.servers", bootstrap()).option("topic", topic)
                    .option("exactlyOnce", "true").option("checkpointLocation", tmp.resolve("chk").toString())
                    .trigger(Trigger.availableNow()).start();
            try {
                q.awaitTermination();
            } finally {
                q.stop();
            }
            return q;
        }
    }

    @Test
    void aRestoredOlderCheckpointFailsInsteadOfDroppingTheBatchAlreadyMarkedInKafka() throws Exception {
        String topic = KafkaTestTopics.create("sink-restore", 1);
        StreamingQuery first = runOneBatch(topic);
        String id = first.id().toString();
        Backups.copy(tmp.resolve("chk"), tmp.resolve("backup"));
        clock.advance(60_000);
        runOneBatch(topic);
        BatchInfo written = LoggedBatch.of(tmp.resolve("chk"), id, 1);
        assertThat(committedValues(topic)).hasSize(20);

        Backups.restore(tmp.resolve("backup"), tmp.resolve("chk"));
        clock.advance(60_000);

        assertThatThrownBy(() -> runOneBatch(topic)).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(IllegalStateException.class)
                .satisfies(e -> {
                    BatchInfo now = LoggedBatch.of(tmp.resolve("chk"), id, 1);
                    assertThat(now.plannedAtMs()).isEqualTo(T0 + 120_000);
                    assertThat(e.getMessage()).isEqualTo("Batch 1 of query " + id + " is already in the exactly-once "
                            + "Kafka sink (marker in consumer group sluice-" + id + "), written for another plan of "
                            + "that batch: digest " + written.digest() + "; this run's checkpoint plans batch 1 as "
                            + "digest " + now.digest() + " (offsets [" + String.join(", ", now.endOffsets())
                            + "] planned at " + Instant.ofEpochMilli(T0 + 120_000) + "). The checkpoint was restored "
                            + "from an older copy than the sink's output, so skipping the batch would lose its rows "
                            + "and mark them read. Either (a) start over with a fresh checkpoint and a new topic, or "
                            + "(b) restore the sink's output to the same point as the checkpoint (e.g. restore both "
                            + "from the same backup), then restart.");
                });
        assertThat(tmp.resolve("chk/commits/1")).doesNotExist();
        assertThat(committedValues(topic)).hasSize(20);
    }
}
