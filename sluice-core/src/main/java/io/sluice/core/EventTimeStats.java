package io.sluice.core;

import io.sluice.api.Row;

import java.time.Instant;

/**
 * The event times one reader task saw at a {@code withWatermark} point, as Spark's EventTimeStats: max, min, sum
 * and count in epoch milliseconds. A reader task collects its own ({@link #current()}, set for the task's thread
 * while the stateful writer of a batch is open); the batch merges them.
 */
final class EventTimeStats {
    private static final ThreadLocal<EventTimeStats[]> CURRENT = new ThreadLocal<>();

    long max = Long.MIN_VALUE;
    long min = Long.MAX_VALUE;
    double sum;
    long count;

    void add(long ms) {
        if (ms > max) {
            max = ms;
        }
        if (ms < min) {
            min = ms;
        }
        sum += ms;
        count++;
    }

    void merge(EventTimeStats o) {
        if (o.count == 0) {
            return;
        }
        max = Math.max(max, o.max);
        min = Math.min(min, o.min);
        sum += o.sum;
        count += o.count;
    }

    /** The stats of the current reader thread's task, one per watermark of the query, or null outside a batch. */
    static EventTimeStats[] current() {
        return CURRENT.get();
    }

    static void setCurrent(EventTimeStats[] stats) {
        if (stats == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(stats);
        }
    }

    /**
     * The row operator of {@code withWatermark}: records the event time of column {@code column} in the current
     * task's stats slot {@code slot}; passes every row through.
     */
    static RowOperator recorder(int slot, int column) {
        return new Recorder(slot, column);
    }

    /**
     * A {@code withWatermark} step; a record so that a union can find it and move it to another slot (each input's
     * watermarks after the ones of the inputs before it).
     */
    record Recorder(int slot, int column) implements RowOperator {
        @Override
        public Row apply(Row row) {
            EventTimeStats[] s = CURRENT.get();
            if (s != null && slot < s.length) {
                Object v = row.get(column);
                if (v instanceof Instant t) {
                    s[slot].add(t.toEpochMilli());
                }
            }
            return row;
        }

        Recorder shifted(int by) {
            return new Recorder(slot + by, column);
        }
    }

    static long micros(Object v) {
        Instant t = (Instant) v;
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    static long micros(Row r, int i) {
        return micros(r.get(i));
    }
}
