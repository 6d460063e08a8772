package io.sluice.core;

import io.sluice.api.Row;

/**
 * One step of per-row work between a source and the sink (a projection, a filter, a map). Applied on the reader
 * threads, concurrently: implementations must be stateless or thread-safe.
 */
@FunctionalInterface
interface RowOperator {

    /** The row after this step, or null to drop it. */
    Row apply(Row row);

    /** Runs the steps in order; a null from one step drops the row. */
    static RowOperator chain(java.util.List<RowOperator> steps) {
        if (steps.isEmpty()) {
            return null;
        }
        if (steps.size() == 1) {
            return steps.get(0);
        }
        RowOperator[] ops = steps.toArray(new RowOperator[0]);
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
}
