package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;

import java.time.Instant;

/**
 * {@code window(...)} in a select list, as Spark's TimeWindowing rule: the value at {@code index} (an event time)
 * becomes the struct {@code {start, end}} of each window holding it (one for a tumbling window; a sliding window
 * gives a row per window); a row whose time is null is dropped. Stateless, so thread-safe.
 */
final class WindowAssign implements RowOperator {
    private final int index;
    private final Aggregation.Window window;
    private final StructType schema;

    WindowAssign(int index, Aggregation.Window window, StructType schema) {
        this.index = index;
        this.window = window;
        this.schema = schema;
    }

    @Override
    public boolean fansOut() {
        return window.slide() != window.length();
    }

    @Override
    public Row apply(Row row) {
        if (fansOut()) {
            throw new UnsupportedOperationException("A sliding window can give several rows per row: use forEach");
        }
        Object t = row.get(index);
        if (t == null) {
            return null;
        }
        long ts = EventTimeStats.micros(t);
        long start = ts - Math.floorMod(ts - window.start(), window.slide());
        return with(row, start);
    }

    @Override
    public void forEach(Row row, RowConsumer out) throws Exception {
        if (!fansOut()) {
            Row r = apply(row);
            if (r != null) {
                out.accept(r);
            }
            return;
        }
        Object t = row.get(index);
        if (t == null) {
            return;
        }
        long ts = EventTimeStats.micros(t);
        long lastStart = ts - Math.floorMod(ts - window.start(), window.slide());
        long n = (window.length() + window.slide() - 1) / window.slide();
        // Earliest window first, as Spark's Expand lists them.
        for (long k = n - 1; k >= 0; k--) {
            long start = lastStart - k * window.slide();
            if (start <= ts && ts < start + window.length()) {
                out.accept(with(row, start));
            }
        }
    }

    private Row with(Row row, long startMicros) {
        Object[] v = new Object[row.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = row.get(i);
        }
        v[index] = Row.withSchema(Aggregation.WINDOW_TYPE, instant(startMicros),
                instant(startMicros + window.length()));
        return Row.wrap(v).attach(schema);
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }
}
