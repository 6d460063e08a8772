package io.sluice.core.sources;

import java.util.Optional;
import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SupportsTriggerAvailableNow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Batch k covers values {@code [k*rowsPerBatch, (k+1)*rowsPerBatch)}; each row's timestamp is the batch's start
 * timestamp. The read limit is ignored, as in Spark; under availableNow exactly one batch beyond the start.
 */
final class RatePerMicroBatchStream implements SupportsTriggerAvailableNow {
    private final RatePerMicroBatchProvider.Settings settings;
    private boolean availableNow;
    private Offset availableNowTarget;

    RatePerMicroBatchStream(RatePerMicroBatchProvider.Settings settings) {
        this.settings = settings;
    }

    @Override
    public Offset initialOffset() {
        return new RatePerMicroBatchOffset(0, settings.startTimestamp());
    }

    @Override
    public Offset deserializeOffset(String json) {
        return RatePerMicroBatchOffset.parse(json);
    }

    @Override
    public Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        long before = RatePerMicroBatchOffset.of(previousEnd).offset();
        long after = RatePerMicroBatchOffset.of(end).offset();
        return after < before ? Optional.of("offset " + after + " is before " + before) : Optional.empty();
    }

    /** Spark declares {@code maxRows(rowsPerBatch)}, though every batch has exactly that many rows anyway. */
    @Override
    public ReadLimit defaultReadLimit() {
        return ReadLimit.maxRows(settings.rowsPerBatch());
    }

    @Override
    public void prepareForTriggerAvailableNow() {
        availableNow = true;
    }

    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        if (availableNow) {
            if (availableNowTarget == null) {
                availableNowTarget = next(start);
            }
            return availableNowTarget;
        }
        return next(start);
    }

    private Offset next(Offset start) {
        RatePerMicroBatchOffset s = RatePerMicroBatchOffset.of(start);
        long end = s.offset() > Long.MAX_VALUE - settings.rowsPerBatch()
                ? Long.MAX_VALUE : s.offset() + settings.rowsPerBatch();
        return new RatePerMicroBatchOffset(end, s.timestamp() + settings.advanceMillisPerBatch());
    }

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        RatePerMicroBatchOffset s = RatePerMicroBatchOffset.of(start);
        RatePerMicroBatchOffset e = RatePerMicroBatchOffset.of(end);
        if (s.offset() > e.offset()) {
            throw new IllegalArgumentException("startOffset(" + s.offset() + ") > endOffset(" + e.offset() + ")");
        }
        if (s.timestamp() > e.timestamp()) {
            throw new IllegalArgumentException(
                    "startTimestamp(" + s.timestamp() + ") > endTimestamp(" + e.timestamp() + ")");
        }
        if (s.offset() == e.offset()) {
            return List.of();
        }
        int n = settings.numPartitions();
        List<InputPartition> parts = new ArrayList<>(n);
        for (int p = 0; p < n; p++) {
            parts.add(new Partition(p, n, s.offset(), s.timestamp(), e.offset(), e.timestamp()));
        }
        return parts;
    }

    @Override
    public PartitionReader createReader(InputPartition partition) {
        return new Reader((Partition) partition);
    }

    @Override
    public void stop() {
    }

    @Override
    public String description() {
        return "RatePerMicroBatchStream[rowsPerBatch=" + settings.rowsPerBatch() + ", numPartitions="
                + settings.numPartitions() + ", startTimestamp=" + settings.startTimestamp()
                + ", advanceMsPerBatch=" + settings.advanceMillisPerBatch() + "]";
    }

    @Override
    public String toString() {
        return description();
    }

    /** Values {@code startOffset + partitionId + k * numPartitions} below {@code endOffset}. */
    record Partition(int partitionId, int numPartitions, long startOffset, long startTimestamp, long endOffset,
                     long endTimestamp) implements InputPartition {
    }

    /** One Object[] and one Row per row; the batch's single Instant is shared by all of them. */
    private static final class Reader implements PartitionReader {
        private final Instant timestamp;
        private final long step;
        private long remaining;
        private long value;
        private Row current;

        Reader(Partition p) {
            this.timestamp = Instant.ofEpochMilli(p.startTimestamp());
            this.step = p.numPartitions();
            long first = p.startOffset() + p.partitionId();
            this.remaining = first < p.endOffset() ? (p.endOffset() - 1 - first) / step + 1 : 0;
            this.value = first;
        }

        @Override
        public boolean next() {
            if (remaining <= 0) {
                current = null;
                return false;
            }
            long v = value;
            current = Row.wrap(new Object[] {timestamp, v});
            value = v + step;
            remaining--;
            return true;
        }

        @Override
        public Row get() {
            return current;
        }

        @Override
        public void close() {
        }
    }
}
