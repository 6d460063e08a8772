package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.state.StateStore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A stateful operator of a query (an aggregation or a deduplication): what the reader tasks do with each row of
 * the batch before the rows reach a state partition ({@link Task}), and what each state partition does with its
 * share against its {@link StateStore} ({@link #process}). One per query, between the frame's operators before it
 * and those after it.
 */
abstract class StatefulOp {

    /** Output modes, as Spark's OutputMode. */
    enum Mode {
        APPEND, UPDATE, COMPLETE;

        /** As Spark writes it in messages ({@code Append}, {@code Update}, {@code Complete}). */
        String title() {
            return name().charAt(0) + name().substring(1).toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Spark's operator name in progress and in {@code state/<op>/_metadata}. */
    abstract String operatorName();

    /** The schema of the rows this operator emits. */
    abstract StructType outputSchema();

    /** The state's key and value layout, compared with the checkpoint's on restart. */
    abstract String keySchema();

    abstract String valueSchema();

    /** Whether the state's keys carry an event time, so that a watermark evicts them. */
    abstract boolean evictsByWatermark();

    /** A reader task's share of the batch: rows grouped by state partition. */
    abstract Task newTask(int partitions, long lateWatermarkMs);

    /**
     * One state partition of the batch: folds the tasks' rows for it into the store, and returns the rows to emit.
     * Does not commit.
     */
    abstract List<Row> process(StateStore store, List<Task> tasks, int partition, long lateWatermarkMs,
                               long evictionWatermarkMs, Mode mode, Counters counters);

    /** What one state partition counted in one batch. */
    static final class Counters {
        long updated;
        long removed;
        long droppedByWatermark;
        long droppedDuplicates;
        long updatesNanos;
        long removalsNanos;
        long commitNanos;
    }

    /** A byte-array key compared by content. */
    static final class Key {
        final byte[] bytes;
        final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** The rows of one reader task, as the operator keeps them before they meet the state. */
    abstract static class Task {
        long droppedByWatermark;
        long droppedDuplicates;

        abstract void add(Row row);

        /** Called once the task has read its last row (e.g. to filter late partial aggregates). */
        void finish() {
        }
    }

    static <T> List<List<T>> lists(int n) {
        List<List<T>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new ArrayList<>());
        }
        return out;
    }
}
