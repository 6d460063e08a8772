package io.sluice.kafka;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Spark's KafkaOffsetRangeCalculator: one task per partition with new data; {@code maxRecordsPerPartition} cuts
 * ranges into pieces of at most that many offsets, then {@code minPartitions}, if still above the count, splits the
 * large ranges in proportion to their size. Each range is cut evenly, the last piece taking the remainder.
 */
final class OffsetRangeCalculator {
    private OffsetRangeCalculator() {
    }

    static List<KafkaInputPartition> ranges(List<KafkaInputPartition> input, Optional<Integer> minPartitions,
                                            Optional<Long> maxRecordsPerPartition) {
        List<KafkaInputPartition> ranges = new ArrayList<>();
        for (KafkaInputPartition r : input) {
            if (r.size() <= 0) {
                continue;
            }
            if (maxRecordsPerPartition.isPresent()) {
                long max = maxRecordsPerPartition.get();
                int parts = (int) Math.min(Integer.MAX_VALUE, (r.size() + max - 1) / max);
                ranges.addAll(divide(r, parts));
            } else {
                ranges.add(r);
            }
        }
        if (minPartitions.isEmpty() || ranges.size() >= minPartitions.get()) {
            return ranges;
        }
        int minP = minPartitions.get();
        long total = ranges.stream().mapToLong(KafkaInputPartition::size).sum();
        Set<KafkaInputPartition> unsplit = new HashSet<>();
        long unsplitTotal = 0;
        for (KafkaInputPartition r : ranges) {
            if (partCount(r.size(), total, minP) == 1) {
                unsplit.add(r);
                unsplitTotal += r.size();
            }
        }
        long splitTotal = total - unsplitTotal;
        int splitMin = Math.max(minP - unsplit.size(), 1);
        List<KafkaInputPartition> out = new ArrayList<>();
        for (KafkaInputPartition r : ranges) {
            int parts = unsplit.contains(r) ? 1 : partCount(r.size(), splitTotal, splitMin);
            out.addAll(divide(r, parts));
        }
        return out;
    }

    private static int partCount(long size, long total, int minParts) {
        return (int) Math.max(Math.round((double) size / total * minParts), 1);
    }

    private static List<KafkaInputPartition> divide(KafkaInputPartition r, int parts) {
        List<KafkaInputPartition> out = new ArrayList<>(parts);
        long remaining = r.size();
        long start = r.fromOffset();
        for (int part = 0; part < parts; part++) {
            long these = remaining / (parts - part);
            remaining -= these;
            long end = Math.min(start + these, r.untilOffset());
            if (end > start) {
                out.add(new KafkaInputPartition(r.topicPartition(), start, end));
            }
            start = end;
        }
        return out;
    }
}
