package io.sluice.kafka;

import io.sluice.api.ReadLimit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** The Kafka source's admission control as a pure function: exact end offsets per partition, no broker. */
class KafkaAdmissionTest {
    private static final Function<Set<TopicPartition>, Map<TopicPartition, Long>> NO_NEW_PARTITIONS = tps -> {
        throw new AssertionError("earliest offsets asked for " + tps);
    };

    private static TopicPartition p(int partition) {
        return new TopicPartition("t", partition);
    }

    /** Offsets of partitions t-0, t-1... */
    private static Map<TopicPartition, Long> offsets(long... perPartition) {
        Map<TopicPartition, Long> m = PartitionOffsets.newMap();
        for (int i = 0; i < perPartition.length; i++) {
            m.put(p(i), perPartition[i]);
        }
        return m;
    }

    private static KafkaAdmission.Decision next(Map<TopicPartition, Long> from, Map<TopicPartition, Long> latest,
                                                ReadLimit limit, long now, long last) {
        return KafkaAdmission.next(from, latest, limit, false, now, last, NO_NEW_PARTITIONS);
    }

    @Test
    void maxOffsetsPerTriggerIsProratedByBacklogRoundingDownAndSmallSharesUp() {
        // 20 x 100/111 = 18.02 -> 18; 20 x 10/111 = 1.8 -> 1; 20 x 1/111 = 0.18 -> ceil 1 (not starved)
        KafkaAdmission.Decision d = next(offsets(0, 0, 0), offsets(100, 10, 1), ReadLimit.maxRows(20), 0, 0);
        assertThat(d.end()).isEqualTo(offsets(18, 1, 1));
        // backlog 82, 9, 0: 20 x 82/91 = 18.02 -> 18; 20 x 9/91 = 1.98 -> 1; no backlog keeps its end
        assertThat(next(offsets(18, 1, 1), offsets(100, 10, 1), ReadLimit.maxRows(20), 0, 0).end())
                .isEqualTo(offsets(36, 2, 1));
        // Equal backlogs: 10 x 5/15 = 3.33 -> 3 each, 9 in all (Spark rounds each share down, never up to the limit)
        assertThat(KafkaAdmission.rateLimit(10, offsets(0, 0, 0), offsets(5, 5, 5), NO_NEW_PARTITIONS))
                .isEqualTo(offsets(3, 3, 3));
        // Shares under one record are rounded up: 1 x 100/200 = 0.5 -> 1 each, 2 in all
        assertThat(KafkaAdmission.rateLimit(1, offsets(0, 0), offsets(100, 100), NO_NEW_PARTITIONS))
                .isEqualTo(offsets(1, 1));
        // A limit above the backlog ends at the latest offsets
        assertThat(KafkaAdmission.rateLimit(1_000, offsets(7, 0), offsets(10, 4), NO_NEW_PARTITIONS))
                .isEqualTo(offsets(10, 4));
        // Nothing new: the latest offsets as they are
        assertThat(KafkaAdmission.rateLimit(5, offsets(10, 4), offsets(10, 4), NO_NEW_PARTITIONS))
                .isEqualTo(offsets(10, 4));
    }

    @Test
    void aNewPartitionIsProratedFromItsEarliestOffsetAskedOnlyForIt() {
        List<Set<TopicPartition>> asked = new ArrayList<>();
        Map<TopicPartition, Long> end = KafkaAdmission.rateLimit(10, offsets(5), offsets(15, 30), tps -> {
            asked.add(tps);
            return Map.of(p(1), 20L);
        });
        // backlogs 10 and 10: 5 each
        assertThat(end).isEqualTo(offsets(10, 25));
        assertThat(asked).containsExactly(Set.of(p(1)));
    }

    @Test
    void anEndNearLongMaxDoesNotOverflow() {
        long begin = Long.MAX_VALUE - 3;
        assertThat(KafkaAdmission.rateLimit(Long.MAX_VALUE, Map.of(p(0), begin), Map.of(p(0), Long.MAX_VALUE),
                NO_NEW_PARTITIONS)).isEqualTo(Map.of(p(0), Long.MAX_VALUE));
    }

    @Test
    void minOffsetsPerTriggerHoldsTheBatchBackUntilEnoughRecordsOrMaxTriggerDelay() {
        ReadLimit min = ReadLimit.minRows(5, 10_000);
        // 3 new records < 5, 4 s since the last batch < 10 s: no batch, the last batch's time unchanged
        KafkaAdmission.Decision waiting = next(offsets(0, 0), offsets(2, 1), min, 5_000, 1_000);
        assertThat(waiting.end()).isNull();
        assertThat(waiting.lastTriggerMillis()).isEqualTo(1_000);
        // maxTriggerDelay passed (exactly 10 s): a batch of what is there
        KafkaAdmission.Decision late = next(offsets(0, 0), offsets(2, 1), min, 11_000, 1_000);
        assertThat(late.end()).isEqualTo(offsets(2, 1));
        assertThat(late.lastTriggerMillis()).isEqualTo(11_000);
        // 5 new records: a batch at once
        KafkaAdmission.Decision enough = next(offsets(0, 0), offsets(3, 2), min, 2_000, 1_000);
        assertThat(enough.end()).isEqualTo(offsets(3, 2));
        assertThat(enough.lastTriggerMillis()).isEqualTo(2_000);
        // availableNow never waits, and does not move the last batch's time
        KafkaAdmission.Decision drain = KafkaAdmission.next(offsets(0, 0), offsets(2, 1), min, true, 5_000, 1_000,
                NO_NEW_PARTITIONS);
        assertThat(drain.end()).isEqualTo(offsets(2, 1));
        assertThat(drain.lastTriggerMillis()).isEqualTo(1_000);
    }

    @Test
    void minAndMaxTogetherWaitThenProrate() {
        ReadLimit both = ReadLimit.composite(ReadLimit.minRows(5, 10_000), ReadLimit.maxRows(4));
        assertThat(next(offsets(0, 0), offsets(3, 1), both, 2_000, 1_000).end()).isNull();
        // 8 new records >= 5: 4 x 6/8 = 3, 4 x 2/8 = 1
        KafkaAdmission.Decision d = next(offsets(0, 0), offsets(6, 2), both, 2_000, 1_000);
        assertThat(d.end()).isEqualTo(offsets(3, 1));
        assertThat(d.lastTriggerMillis()).isEqualTo(2_000);
        // Without a minimum the time is not tracked
        assertThat(next(offsets(0, 0), offsets(6, 2), ReadLimit.maxRows(4), 2_000, 1_000).lastTriggerMillis())
                .isEqualTo(1_000);
    }

    @Test
    void allAvailableWinsOverEveryOtherLimit() {
        ReadLimit all = ReadLimit.composite(ReadLimit.minRows(100, 10_000), ReadLimit.maxRows(1),
                ReadLimit.allAvailable());
        assertThat(next(offsets(0, 0), offsets(6, 2), all, 2_000, 1_000).end()).isEqualTo(offsets(6, 2));
    }
}
