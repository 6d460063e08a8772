package io.sluice.kafka;

import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaStartingPositionTest extends KafkaTestBase {

    /** Records with timestamps 1000, 2000, 3000 on partition 0 and 1500, 2500 on partition 1. */
    private String timedTopic() throws Exception {
        // The timestamps are from 1970: with the default retention.ms (7 days) the broker's retention task (every
        // second, from 30 s after it starts) would delete these records at once, so lookups would find nothing.
        String t = createTopic("timed", 2, java.util.Map.of("retention.ms", "-1"));
        producer.send(new ProducerRecord<>(t, 0, 1000L, null, "a")).get();
        producer.send(new ProducerRecord<>(t, 0, 2000L, null, "b")).get();
        producer.send(new ProducerRecord<>(t, 0, 3000L, null, "c")).get();
        producer.send(new ProducerRecord<>(t, 1, 1500L, null, "x")).get();
        producer.send(new ProducerRecord<>(t, 1, 2500L, null, "y")).get();
        return t;
    }

    private java.util.List<String> readOnce(String t, Path chk, String... kv) throws Exception {
        var reader = kafka().option("subscribe", t);
        for (int i = 0; i < kv.length; i += 2) {
            reader = reader.option(kv[i], kv[i + 1]);
        }
        StreamingQuery q = toMemory(reader.load(), chk, Trigger.availableNow());
        q.awaitTermination();
        return sorted(received());
    }

    @Test
    void latestIsTheStreamingDefault() throws Exception {
        String t = createTopic("latest", 1);
        send(t, 0, "old");
        StreamingQuery q = toMemory(kafka().option("subscribe", t).load(), tmp.resolve("chk"),
                Trigger.processingTime(0));
        q.processAllAvailable();
        send(t, 0, "new");
        q.processAllAvailable();
        assertThat(received()).containsExactly("0:1=new");
        q.stop();
    }

    @Test
    void jsonOffsetsWithEarliestAndLatestMarkers() throws Exception {
        String t = timedTopic();
        assertThat(readOnce(t, tmp.resolve("c1"), "startingOffsets", "{\"" + t + "\":{\"0\":1,\"1\":-2}}"))
                .containsExactly("0:1=b", "0:2=c", "1:0=x", "1:1=y");
    }

    @Test
    void jsonOffsetsMustNameEveryPartition() throws Exception {
        String t = timedTopic();
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "{\"" + t + "\":{\"0\":1}}")
                .load(), tmp.resolve("chk"), Trigger.availableNow());
        assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
                .cause().hasMessage("If startingOffsets contains specific offsets, you must specify all TopicPartitions.\n"
                        + "Use -1 for latest, -2 for earliest.\nSpecified: [" + t + "-0] Assigned: [" + t + "-0, "
                        + t + "-1]");
    }

    @Test
    void timestampsResolveToTheFirstOffsetAtOrAfterThem() throws Exception {
        String t = timedTopic();
        assertThat(readOnce(t, tmp.resolve("c1"), "startingTimestamp", "2000"))
                .containsExactly("0:1=b", "0:2=c", "1:1=y");
    }

    @Test
    void startingTimestampBeatsByTimestampBeatsOffsets() throws Exception {
        String t = timedTopic();
        assertThat(readOnce(t, tmp.resolve("c1"), "startingOffsets", "earliest",
                "startingOffsetsByTimestamp", "{\"" + t + "\":{\"0\":3000,\"1\":0}}"))
                .containsExactly("0:2=c", "1:0=x", "1:1=y");
        clearSink();
        assertThat(readOnce(t, tmp.resolve("c2"), "startingOffsets", "earliest",
                "startingOffsetsByTimestamp", "{\"" + t + "\":{\"0\":3000,\"1\":0}}", "startingTimestamp", "2500"))
                .containsExactly("0:2=c", "1:1=y");
    }

    @Test
    void noMatchingTimestampFailsOrStartsAtLatest() throws Exception {
        String t = timedTopic();
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingTimestamp", "2800").load(),
                tmp.resolve("c1"), Trigger.availableNow());
        assertThatThrownBy(q::awaitTermination).cause()
                .hasMessage("No offset matched from request of topic-partition " + t + "-1 and timestamp 2800.");
        clearSink();
        assertThat(readOnce(t, tmp.resolve("c2"), "startingTimestamp", "2800",
                "startingOffsetsByTimestampStrategy", "latest")).containsExactly("0:2=c");
    }

    @Test
    void startingOptionsAreIgnoredOnRestart() throws Exception {
        String t = createTopic("restart", 1);
        sendRange(t, 0, 0, 3);
        Path chk = tmp.resolve("chk");
        assertThat(readOnce(t, chk, "startingOffsets", "earliest")).containsExactly("0:0=0:0", "0:1=0:1", "0:2=0:2");
        clearSink();
        sendRange(t, 0, 3, 5);
        // A different start on the same checkpoint does nothing: the query resumes where it stopped.
        assertThat(readOnce(t, chk, "startingOffsets", "latest")).containsExactly("0:3=0:3", "0:4=0:4");
        clearSink();
        sendRange(t, 0, 5, 6);
        assertThat(readOnce(t, chk, "startingOffsets", "{\"" + t + "\":{\"0\":0}}", "startingTimestamp", "0"))
                .containsExactly("0:5=0:5");
    }

    @Test
    void aReRunOfBatchZeroKeepsTheRecordedStart() throws Exception {
        String t = createTopic("rerun", 1);
        sendRange(t, 0, 0, 2);
        Path chk = tmp.resolve("chk");
        java.nio.file.Files.createDirectories(chk.resolve("sources/0"));
        // As if a first run had logged its start (offset 1) and died before batch 0 was committed.
        java.nio.file.Files.writeString(chk.resolve("sources/0/0"), "v1\n{\"" + t + "\":{\"0\":1}}");
        assertThat(readOnce(t, chk, "startingOffsets", "earliest")).containsExactly("0:1=0:1");
    }

    private void clearSink() {
        io.sluice.core.sinks.MemorySink.clear(sinkName);
    }
}
