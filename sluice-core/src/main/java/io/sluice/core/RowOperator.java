package io.sluice.core;

import io.sluice.api.Row;

/**
 * One step of per-row work between a source and the sink (a projection, a filter, a map, a stream-static join).
 * Applied on the reader threads, concurrently: implementations must be stateless or thread-safe.
 *
 * <p>Most steps give at most one row per input row ({@link #apply}). A step that can give several (a join meeting
 * a key the static side holds twice) says so with {@link #fansOut()} and gives them through {@link #forEach}; a
 * chain holding one is driven through {@code forEach} too, so the common one-to-one path keeps its plain loop.
 */
@FunctionalInterface
interface RowOperator {

    /** Where a fanning-out step puts its rows: the next step, or the partition writer. */
    @FunctionalInterface
    interface RowConsumer {
        void accept(Row row) throws Exception;
    }

    /** The row after this step, or null to drop it. A step that {@link #fansOut()} may refuse this. */
    Row apply(Row row);

    /** Gives every row this step makes of {@code row} to {@code out} (none when it drops the row). */
    default void forEach(Row row, RowConsumer out) throws Exception {
        Row r = apply(row);
        if (r != null) {
            out.accept(r);
        }
    }

    /** True when one input row may give several output rows: then use {@link #forEach}, not {@link #apply}. */
    default boolean fansOut() {
        return false;
    }

    /** Runs the steps in order; a null from one step drops the row. */
    static RowOperator chain(java.util.List<RowOperator> steps) {
        if (steps.isEmpty()) {
            return null;
        }
        if (steps.size() == 1) {
            return steps.get(0);
        }
        RowOperator[] ops = steps.toArray(new RowOperator[0]);
        for (RowOperator op : ops) {
            if (op.fansOut()) {
                return new FanOutChain(ops);
            }
        }
        return row -> {
            Row r = row;
            for (RowOperator op : ops) {
                r = op.apply(r);
                if (r == null) {
                    return null;
                }
            }
            return r;
        };
    }

    /** A chain with at least one fanning-out step: each row goes down the steps through {@link #forEach}. */
    final class FanOutChain implements RowOperator {
        private final RowOperator[] ops;

        FanOutChain(RowOperator[] ops) {
            this.ops = ops;
        }

        @Override
        public Row apply(Row row) {
            throw new UnsupportedOperationException("A chain with a join can give several rows per row: use forEach");
        }

        @Override
        public boolean fansOut() {
            return true;
        }

        @Override
        public void forEach(Row row, RowConsumer out) throws Exception {
            emit(0, row, out);
        }

        private void emit(int i, Row row, RowConsumer out) throws Exception {
            if (i == ops.length) {
                out.accept(row);
            } else {
                ops[i].forEach(row, r -> emit(i + 1, r, out));
            }
        }
    }
}
