package io.sluice.kafka;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.source.StreamContext;
import io.sluice.core.ManualClock;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaAdmissionControlTest extends KafkaTestBase {

    private KafkaMicroBatchStream stream(String t, ManualClock clock, String... kv) {
        Map<String, String> o = new HashMap<>(Map.of("kafka.bootstrap.servers", bootstrap, "subscribe", t,
                "startingOffsets", "earliest"));
        for (int i = 0; i < kv.length; i += 2) {
            o.put(kv[i], kv[i + 1]);
        }
        return (KafkaMicroBatchStream) new KafkaSourceProvider().createStream(new StreamContext(Options.of(o),
                KafkaSourceProvider.SCHEMA, tmp, clock, "q", 0));
    }

    @Test
    void maxOffsetsPerTriggerIsSharedByBacklogAndSmallPartitionsAreNotStarved() throws Exception {
        String t = createTopic("max", 3);
        sendRange(t, 0, 0, 100);
        sendRange(t, 1, 0, 10);
        sendRange(t, 2, 0, 1);
        KafkaMicroBatchStream s = stream(t, new ManualClock(0), "maxOffsetsPerTrigger", "20");
        try {
            Offset start = s.initialOffset();
            assertThat(s.defaultReadLimit()).isEqualTo(ReadLimit.maxRows(20));
            Offset end = s.latestOffset(start, s.defaultReadLimit());
            // 20 x 100/111 = 18.0 -> 18; 20 x 10/111 = 1.8 -> 1; 20 x 1/111 = 0.18 -> ceil 1
            assertThat(end.json()).isEqualTo("{\"" + t + "\":{\"0\":18,\"1\":1,\"2\":1}}");
            assertThat(s.reportLatestOffset().json()).isEqualTo("{\"" + t + "\":{\"0\":100,\"1\":10,\"2\":1}}");
            Offset next = s.latestOffset(end, s.defaultReadLimit());
            // backlog 82, 9, 0: 20 x 82/91 = 18.02 -> 18; 20 x 9/91 = 1.98 -> 1
            assertThat(next.json()).isEqualTo("{\"" + t + "\":{\"0\":36,\"1\":2,\"2\":1}}");
            Map<String, String> m = s.metrics(java.util.Optional.of(next));
            assertThat(m).containsEntry("minOffsetsBehindLatest", "0").containsEntry("maxOffsetsBehindLatest", "64")
                    .containsEntry("avgOffsetsBehindLatest", Double.toString(72.0 / 3));
        } finally {
            s.stop();
        }
    }

    @Test
    void minOffsetsPerTriggerWaitsForDataOrForMaxTriggerDelay() throws Exception {
        String t = createTopic("min", 2);
        sendRange(t, 0, 0, 3);
        ManualClock clock = new ManualClock(1_000_000);
        KafkaMicroBatchStream s = stream(t, clock, "minOffsetsPerTrigger", "5", "maxTriggerDelay", "10s");
        try {
            assertThat(s.defaultReadLimit()).isEqualTo(ReadLimit.minRows(5, 10_000));
            Offset start = s.initialOffset();
            // The first trigger always fires.
            Offset first = s.latestOffset(start, s.defaultReadLimit());
            assertThat(first.json()).isEqualTo("{\"" + t + "\":{\"0\":3,\"1\":0}}");
            sendRange(t, 1, 0, 4);
            clock.advance(9_999);
            assertThat(s.latestOffset(first, s.defaultReadLimit())).isSameAs(first);
            sendRange(t, 0, 3, 4);
            // 5 new offsets now: enough.
            Offset second = s.latestOffset(first, s.defaultReadLimit());
            assertThat(second.json()).isEqualTo("{\"" + t + "\":{\"0\":4,\"1\":4}}");
            sendRange(t, 0, 4, 5);
            clock.advance(9_999);
            assertThat(s.latestOffset(second, s.defaultReadLimit())).isSameAs(second);
            clock.advance(1);
            assertThat(s.latestOffset(second, s.defaultReadLimit()).json())
                    .isEqualTo("{\"" + t + "\":{\"0\":5,\"1\":4}}");
        } finally {
            s.stop();
        }
    }

    @Test
    void minAndMaxTogetherMakeACompositeLimit() throws Exception {
        String t = createTopic("minmax", 1);
        KafkaMicroBatchStream s = stream(t, new ManualClock(0), "minOffsetsPerTrigger", "5",
                "maxOffsetsPerTrigger", "7");
        try {
            assertThat(s.defaultReadLimit()).isEqualTo(ReadLimit.composite(ReadLimit.minRows(5, 15 * 60_000),
                    ReadLimit.maxRows(7)));
            sendRange(t, 0, 0, 20);
            Offset start = s.initialOffset();
            assertThat(s.latestOffset(start, s.defaultReadLimit()).json()).isEqualTo("{\"" + t + "\":{\"0\":7}}");
        } finally {
            s.stop();
        }
    }

    @Test
    void availableNowFixesTheTargetOnceAndHonoursTheCap() throws Exception {
        String t = createTopic("now", 2);
        sendRange(t, 0, 0, 10);
        sendRange(t, 1, 0, 5);
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest")
                .option("maxOffsetsPerTrigger", "6").load(), tmp.resolve("chk"), Trigger.availableNow());
        q.awaitTermination();
        Map<Long, List<String>> batches = MemorySink.batches(sinkName).entrySet().stream().collect(
                Collectors.toMap(Map.Entry::getKey, e -> sorted(describe(e.getValue()))));
        // 6 x 10/15 = 4, 6 x 5/15 = 2; then 6 x 6/9 = 4, 6 x 3/9 = 2; then 2 and 1 left.
        assertThat(batches.get(0L)).containsExactly("0:0=0:0", "0:1=0:1", "0:2=0:2", "0:3=0:3", "1:0=1:0", "1:1=1:1");
        assertThat(batches.get(1L)).hasSize(6);
        assertThat(batches.get(2L)).containsExactly("0:8=0:8", "0:9=0:9", "1:4=1:4");
        assertThat(batches).hasSize(3);
        assertThat(q.recentProgress().get(0).sources().get(0).latestOffset())
                .isEqualTo("{\"" + t + "\":{\"0\":10,\"1\":5}}");
    }

    @Test
    void availableNowIgnoresRecordsThatArriveAfterItStarts() throws Exception {
        String t = createTopic("now2", 1);
        sendRange(t, 0, 0, 4);
        KafkaMicroBatchStream s = stream(t, new ManualClock(0), "maxOffsetsPerTrigger", "3");
        try {
            s.prepareForTriggerAvailableNow();
            Offset start = s.initialOffset();
            Offset first = s.latestOffset(start, s.defaultReadLimit());
            sendRange(t, 0, 4, 10);
            Offset second = s.latestOffset(first, s.defaultReadLimit());
            assertThat(first.json()).isEqualTo("{\"" + t + "\":{\"0\":3}}");
            assertThat(second.json()).isEqualTo("{\"" + t + "\":{\"0\":4}}");
            assertThat(s.latestOffset(second, s.defaultReadLimit()).json()).isEqualTo(second.json());
        } finally {
            s.stop();
        }
    }
}
