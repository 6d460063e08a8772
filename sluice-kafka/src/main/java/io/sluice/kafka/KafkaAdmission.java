package io.sluice.kafka;

import io.sluice.api.ReadLimit;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Admission control of the Kafka source, as pure functions of offsets, limits and the time (no broker, no
 * clock): Spark's {@code KafkaMicroBatchStream.latestOffset}, {@code delayBatch} and {@code rateLimit}.
 * {@code maxOffsetsPerTrigger} is shared among partitions in proportion to their backlog (a share under one record
 * rounded up, so small partitions are not starved, others rounded down); {@code minOffsetsPerTrigger} waits for
 * that many new records unless {@code maxTriggerDelay} has passed since the last batch; availableNow never waits.
 */
final class KafkaAdmission {
    private KafkaAdmission() {
    }

    /**
     * The outcome of one trigger.
     *
     * @param end               the next batch's end offsets, or null for no batch (minOffsetsPerTrigger not
     *                          reached and maxTriggerDelay not passed)
     * @param lastTriggerMillis when the last batch was admitted, as the next call must be given it
     */
    record Decision(Map<TopicPartition, Long> end, long lastTriggerMillis) {
    }

    /**
     * The end of the next batch.
     *
     * @param from              the batch's start offsets
     * @param latest            the latest offsets (the availableNow target in an availableNow run)
     * @param limit             the read limit the engine gives
     * @param availableNow      an availableNow run: minOffsetsPerTrigger does not hold back what is there
     * @param now               the injected clock's time
     * @param lastTriggerMillis when the last batch was admitted (0 before the first)
     * @param earliestOf        the earliest offsets of partitions not in {@code from} (new ones), asked only for
     *                          maxOffsetsPerTrigger and only when there are new partitions
     */
    static Decision next(Map<TopicPartition, Long> from, Map<TopicPartition, Long> latest, ReadLimit limit,
                         boolean availableNow, long now, long lastTriggerMillis,
                         Function<Set<TopicPartition>, Map<TopicPartition, Long>> earliestOf) {
        List<ReadLimit> limits = limit instanceof ReadLimit.Composite c ? c.limits() : List.of(limit);
        if (limits.stream().anyMatch(l -> l instanceof ReadLimit.AllAvailable)) {
            return new Decision(latest, lastTriggerMillis);
        }
        Optional<ReadLimit.MinRows> lower = limits.stream().filter(ReadLimit.MinRows.class::isInstance)
                .map(ReadLimit.MinRows.class::cast).findFirst();
        Optional<ReadLimit.MaxRows> upper = limits.stream().filter(ReadLimit.MaxRows.class::isInstance)
                .map(ReadLimit.MaxRows.class::cast).findFirst();
        long last = lastTriggerMillis;
        // availableNow drains what is there: waiting for more would never end.
        if (lower.isPresent() && !availableNow) {
            if (delayBatch(lower.get(), latest, from, now, lastTriggerMillis)) {
                return new Decision(null, lastTriggerMillis);
            }
            last = now;
        }
        if (upper.isPresent()) {
            return new Decision(rateLimit(upper.get().rows(), from, latest, earliestOf), last);
        }
        return new Decision(latest, last);
    }

    /** Whether minOffsetsPerTrigger holds the batch back: too few new records, maxTriggerDelay not passed. */
    static boolean delayBatch(ReadLimit.MinRows min, Map<TopicPartition, Long> latest,
                              Map<TopicPartition, Long> from, long now, long lastTriggerMillis) {
        if (now - lastTriggerMillis >= min.maxTriggerDelayMs()) {
            return false;
        }
        long newRecords = 0;
        for (var e : latest.entrySet()) {
            newRecords += e.getValue() - from.getOrDefault(e.getKey(), 0L);
        }
        return newRecords < min.rows();
    }

    /** Spark's rateLimit: the limit shared in proportion to each partition's backlog. */
    static Map<TopicPartition, Long> rateLimit(long limit, Map<TopicPartition, Long> from,
                                               Map<TopicPartition, Long> until,
                                               Function<Set<TopicPartition>, Map<TopicPartition, Long>> earliestOf) {
        Set<TopicPartition> newOnes = new HashSet<>(until.keySet());
        newOnes.removeAll(from.keySet());
        Map<TopicPartition, Long> fromNew = newOnes.isEmpty() ? Map.of() : earliestOf.apply(newOnes);
        Map<TopicPartition, Long> sizes = new HashMap<>();
        until.forEach((tp, end) -> {
            Long begin = from.containsKey(tp) ? from.get(tp) : fromNew.get(tp);
            if (begin != null && end - begin > 0) {
                sizes.put(tp, end - begin);
            }
        });
        double total = sizes.values().stream().mapToLong(Long::longValue).sum();
        if (total < 1) {
            return until;
        }
        Map<TopicPartition, Long> out = PartitionOffsets.newMap();
        until.forEach((tp, end) -> {
            Long size = sizes.get(tp);
            if (size == null) {
                out.put(tp, end);
                return;
            }
            long begin = from.containsKey(tp) ? from.get(tp) : fromNew.get(tp);
            double prorate = limit * (size / total);
            // Don't completely starve small partitions (Spark's comment).
            long prorateLong = (long) (prorate < 1 ? Math.ceil(prorate) : Math.floor(prorate));
            // Careful of overflow (SPARK-26718).
            long off = prorateLong > Long.MAX_VALUE - begin ? Long.MAX_VALUE : begin + prorateLong;
            out.put(tp, Math.min(end, off));
        });
        return out;
    }
}
