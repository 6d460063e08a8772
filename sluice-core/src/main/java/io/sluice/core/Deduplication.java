package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.state.StateEntry;
import io.sluice.core.state.StateStore;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dropDuplicates(cols)} (Spark's {@code dedupe}) and {@code dropDuplicatesWithinWatermark(cols)}
 * ({@code dedupeWithinWatermark}): the first row of each key passes, later ones are dropped and counted. With a
 * watermark, rows at or before the previous batch's watermark are dropped as late; {@code dropDuplicates} evicts
 * keys whose event time (a key column) is at or before the batch's watermark, {@code ...WithinWatermark} keeps a
 * key until the watermark reaches the first row's event time plus the delay.
 */
final class Deduplication extends StatefulOp {
    private final StructType input;
    private final int[] keyColumns;
    /** The input's watermarked column, or -1. */
    private final int eventTimeColumn;
    /** Whether {@link #eventTimeColumn} is one of the keys (then keys are evicted by it). */
    private final boolean eventTimeInKeys;
    /** For {@code dropDuplicatesWithinWatermark}: the watermark's delay in micros; -1 for {@code dropDuplicates}. */
    private final long withinDelayMicros;

    Deduplication(StructType input, int[] keyColumns, int eventTimeColumn, long withinDelayMicros) {
        this.input = input;
        this.keyColumns = keyColumns;
        this.eventTimeColumn = eventTimeColumn;
        boolean in = false;
        for (int k : keyColumns) {
            in |= k == eventTimeColumn && k >= 0;
        }
        this.eventTimeInKeys = in;
        this.withinDelayMicros = withinDelayMicros;
    }

    /** {@code dropDuplicatesWithinWatermark} on a frame without a watermark: refused at start, as in Spark. */
    boolean lacksWatermark() {
        return withinDelayMicros >= 0 && eventTimeColumn < 0;
    }

    @Override
    String operatorName() {
        return withinDelayMicros >= 0 ? "dedupeWithinWatermark" : "dedupe";
    }

    @Override
    StructType outputSchema() {
        return input;
    }

    @Override
    String keySchema() {
        StringBuilder sb = new StringBuilder();
        for (int k : keyColumns) {
            sb.append(sb.length() == 0 ? "" : ",").append(input.field(k).name()).append(':')
                    .append(input.field(k).dataType().simpleString());
        }
        return "struct<" + sb + ">";
    }

    @Override
    String valueSchema() {
        return withinDelayMicros >= 0 ? "struct<expiresAtMicros:bigint>" : "struct<>";
    }

    @Override
    boolean evictsByWatermark() {
        return withinDelayMicros >= 0 || eventTimeInKeys;
    }

    private final class DedupTask extends Task {
        final List<LinkedHashMap<Key, Row>> byPartition;
        final int partitions;
        final long lateMicros;

        DedupTask(int partitions, long lateWatermarkMs) {
            this.partitions = partitions;
            this.byPartition = new ArrayList<>(partitions);
            for (int i = 0; i < partitions; i++) {
                byPartition.add(new LinkedHashMap<>());
            }
            this.lateMicros = lateWatermarkMs * 1000;
        }

        @Override
        void add(Row row) {
            if (eventTimeColumn >= 0 && lateMicros > 0) {
                Object t = row.get(eventTimeColumn);
                if (t != null && EventTimeStats.micros(t) <= lateMicros) {
                    droppedByWatermark++;
                    return;
                }
            }
            Object[] key = new Object[keyColumns.length];
            for (int i = 0; i < key.length; i++) {
                key[i] = row.get(keyColumns[i]);
            }
            byte[] bytes = StateCodec.encode(key);
            Map<Key, Row> map = byPartition.get(StateCodec.partition(bytes, partitions));
            if (map.putIfAbsent(new Key(bytes), row) != null) {
                droppedDuplicates++;
            }
        }
    }

    @Override
    Task newTask(int partitions, long lateWatermarkMs) {
        return new DedupTask(partitions, lateWatermarkMs);
    }

    @Override
    List<Row> process(StateStore store, List<Task> tasks, int partition, long lateWatermarkMs,
                      long evictionWatermarkMs, Mode mode, Counters counters) {
        long t0 = System.nanoTime();
        List<Row> out = new ArrayList<>();
        for (Task t : tasks) {
            for (Map.Entry<Key, Row> e : ((DedupTask) t).byPartition.get(partition).entrySet()) {
                byte[] key = e.getKey().bytes;
                if (store.get(key) != null) {
                    counters.droppedDuplicates++;
                    continue;
                }
                Object[] value;
                if (withinDelayMicros >= 0) {
                    Object ts = e.getValue().get(eventTimeColumn);
                    value = new Object[]{ts == null ? Long.MAX_VALUE : EventTimeStats.micros(ts) + withinDelayMicros};
                } else {
                    value = new Object[0];
                }
                store.put(key, StateCodec.encode(value));
                counters.updated++;
                out.add(e.getValue());
            }
        }
        long t1 = System.nanoTime();
        counters.updatesNanos += t1 - t0;
        if (evictsByWatermark()) {
            long wm = evictionWatermarkMs * 1000;
            int at = -1;
            for (int i = 0; i < keyColumns.length; i++) {
                if (keyColumns[i] == eventTimeColumn) {
                    at = i;
                }
            }
            for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
                StateEntry e = it.next();
                long eventTime;
                if (withinDelayMicros >= 0) {
                    eventTime = (Long) StateCodec.decode(e.value())[0];
                } else {
                    Object ts = StateCodec.decode(e.key())[at];
                    eventTime = ts == null ? Long.MAX_VALUE : EventTimeStats.micros(ts);
                }
                if (eventTime <= wm) {
                    it.remove();
                    counters.removed++;
                }
            }
        }
        counters.removalsNanos += System.nanoTime() - t1;
        return out;
    }
}
