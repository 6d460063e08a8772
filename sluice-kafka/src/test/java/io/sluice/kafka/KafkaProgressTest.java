package io.sluice.kafka;

import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class KafkaProgressTest extends KafkaTestBase {

    @Test
    void progressShowsOffsetsAndLagPerPartition() throws Exception {
        String t = createTopic("lag", 2);
        sendRange(t, 0, 0, 8);
        sendRange(t, 1, 0, 2);
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest")
                .option("maxOffsetsPerTrigger", "5").load(), tmp.resolve("chk"), Trigger.availableNow());
        q.awaitTermination();
        SourceProgress first = q.recentProgress().get(0).sources().get(0);
        assertThat(first.startOffset()).isNull();
        // 5 x 8/10 = 4, 5 x 2/10 = 1
        assertThat(first.endOffset()).isEqualTo("{\"" + t + "\":{\"0\":4,\"1\":1}}");
        assertThat(first.latestOffset()).isEqualTo("{\"" + t + "\":{\"0\":8,\"1\":2}}");
        assertThat(first.numInputRows()).isEqualTo(5);
        assertThat(first.metrics()).containsEntry("minOffsetsBehindLatest", "1")
                .containsEntry("maxOffsetsBehindLatest", "4").containsEntry("avgOffsetsBehindLatest", "2.5")
                .doesNotContainKey("minRetentionBytesLeft");
        SourceProgress last = q.lastProgress().sources().get(0);
        assertThat(last.metrics()).containsEntry("minOffsetsBehindLatest", "0")
                .containsEntry("maxOffsetsBehindLatest", "0").containsEntry("avgOffsetsBehindLatest", "0.0");
    }

    @Test
    void committedBatchesAreVisibleToLagToolsThroughANamedConsumerGroup() throws Exception {
        String t = createTopic("group", 2);
        sendRange(t, 0, 0, 3);
        sendRange(t, 1, 0, 1);
        String group = "lag-" + t;
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest")
                .option("commitOffsetsToGroup", group).load(), tmp.resolve("chk"), Trigger.processingTime(0));
        q.processAllAvailable();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()).isEqualTo(Map.of(
                        new TopicPartition(t, 0), new OffsetAndMetadata(3), new TopicPartition(t, 1),
                        new OffsetAndMetadata(1))));
        sendRange(t, 1, 1, 4);
        q.processAllAvailable();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                        .get(new TopicPartition(t, 1)).offset()).isEqualTo(4));
        q.stop();
    }

    @Test
    void retentionMetricSaysHowLongTheOldestUnreadRecordHasLeft() throws Exception {
        String t = createTopic("retention", 1, Map.of("retention.ms", "3600000"));
        long now = System.currentTimeMillis();
        for (int i = 0; i < 4; i++) {
            // The third record (first unread after batch 0) is 10 minutes old.
            producer.send(new ProducerRecord<>(t, 0, now - 600_000L, null, "v" + i)).get();
        }
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest")
                .option("maxOffsetsPerTrigger", "2").load(), tmp.resolve("chk"), Trigger.availableNow());
        q.awaitTermination();
        Map<String, String> m = q.recentProgress().get(0).sources().get(0).metrics();
        long left = Long.parseLong(m.get("minRetentionMsLeft"));
        assertThat(left).isBetween(3_000_000L - 120_000L, 3_000_000L);
        assertThat(q.lastProgress().sources().get(0).metrics()).doesNotContainKey("minRetentionMsLeft");
    }

    @Test
    void retentionBytesMetricSaysHowManyBytesThePartitionCanTakeBeforeTheOldestUnreadRecordMayGo() throws Exception {
        String t = createTopic("retention-bytes", 1);
        for (int i = 0; i < 10; i++) {
            // One record per batch, all of one size: the log's size is ten times one record's.
            producer.send(new ProducerRecord<>(t, 0, null, "v" + i)).get();
        }
        TopicPartition tp = new TopicPartition(t, 0);
        long size = admin.describeLogDirs(List.of(1)).allDescriptions().get().get(1).values().stream()
                .map(d -> d.replicaInfos().get(tp)).filter(java.util.Objects::nonNull).findFirst().orElseThrow().size();
        assertThat(size % 10).isZero();
        long record = size / 10;
        // The limit is what the log holds now: a single segment, so nothing is deleted (only rolled segments are).
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, t), List.of(
                new AlterConfigOp(new ConfigEntry("retention.bytes", Long.toString(size)), AlterConfigOp.OpType.SET))))
                .all().get();
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest")
                .option("maxOffsetsPerTrigger", "4").load(), tmp.resolve("chk"), Trigger.availableNow());
        q.awaitTermination();
        // After batch 0 six records (offsets 4 to 9) are unread: the partition can take the other four's bytes.
        assertThat(q.recentProgress().get(0).sources().get(0).metrics())
                .containsEntry("minRetentionBytesLeft", Long.toString(4 * record));
        assertThat(q.recentProgress().get(1).sources().get(0).metrics())
                .containsEntry("minRetentionBytesLeft", Long.toString(8 * record));
        assertThat(q.lastProgress().sources().get(0).metrics()).doesNotContainKey("minRetentionBytesLeft");
    }
}
