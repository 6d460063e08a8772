package io.sluice.files.format;

import io.sluice.api.Row;

import java.nio.file.Path;
import java.util.List;

/**
 * Applies the parse mode to parsed records (Spark's FailureSafeParser) and queues the resulting rows for a
 * {@link RowIterator}. A good record's rows have a null corrupt-record column; a malformed one gives, in
 * PERMISSIVE, its partial rows (or one row of nulls) with the raw record in that column, nothing in DROPMALFORMED,
 * and a {@link MalformedRecordException} in FAILFAST. Not thread-safe.
 */
final class RecordOutput {
    private final ParseMode mode;
    private final int corruptIndex;
    private final int width;
    private final Path file;
    private Row[] queue = new Row[8];
    private int head;
    private int tail;
    private Row current;
    private boolean warnedLimit;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RecordOutput.class);

    RecordOutput(ParseMode mode, int corruptIndex, int width, Path file) {
        this.mode = mode;
        this.corruptIndex = corruptIndex;
        this.width = width;
        this.file = file;
    }

    void good(Object[] values) {
        good(Row.wrap(values));
    }

    void good(Row row) {
        if (tail == queue.length) {
            compact();
        }
        queue[tail++] = row;
    }

    /**
     * @param partials the rows that could be read in part (values of the failed fields null), or empty
     * @param record   the raw record text
     * @param line     1-based line of the record, for FAILFAST
     */
    void bad(List<Object[]> partials, String record, long line, Throwable cause) throws MalformedRecordException {
        bad(partials, record, line, cause, cause == null ? null : reason(cause));
    }

    /**
     * A record past a bound of the reader ({@link JsonLimits}): malformed, with {@code reason} saying which bound.
     * Outside FAILFAST a warning names the file, the line and the bound, once per file: such a record is real data
     * that the parse mode turns into a null row or drops, which should not go unnoticed.
     */
    void pastLimit(String record, long line, Throwable cause, String reason) throws MalformedRecordException {
        if (mode != ParseMode.FAILFAST && !warnedLimit) {
            warnedLimit = true;
            LOG.warn("File {}, line {}: {}; the record is malformed and parse mode {} {} it (later records of the "
                    + "file past a bound are not warned)", file, line, reason, mode,
                    mode == ParseMode.DROPMALFORMED ? "drops" : "gives a null row (the record in the corrupt-record "
                            + "column, when the schema has it) for");
        }
        bad(List.of(), record, line, cause, reason);
    }

    private void bad(List<Object[]> partials, String record, long line, Throwable cause, String reason)
            throws MalformedRecordException {
        switch (mode) {
            case DROPMALFORMED -> {
            }
            case FAILFAST -> throw new MalformedRecordException(file, line, record, reason, cause);
            case PERMISSIVE -> {
                if (partials.isEmpty()) {
                    Object[] nulls = new Object[width];
                    if (corruptIndex >= 0) {
                        nulls[corruptIndex] = record;
                    }
                    good(nulls);
                } else {
                    for (Object[] p : partials) {
                        if (corruptIndex >= 0) {
                            p[corruptIndex] = record;
                        }
                        good(p);
                    }
                }
            }
        }
    }

    private static String reason(Throwable t) {
        String m = t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        // Jackson appends the source location on later lines; the first line says what is wrong.
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    boolean poll() {
        if (head < tail) {
            current = queue[head];
            queue[head++] = null;
            return true;
        }
        head = 0;
        tail = 0;
        return false;
    }

    Row current() {
        return current;
    }

    private void compact() {
        if (head > 0) {
            System.arraycopy(queue, head, queue, 0, tail - head);
            java.util.Arrays.fill(queue, tail - head, tail, null);
            tail -= head;
            head = 0;
        } else {
            queue = java.util.Arrays.copyOf(queue, queue.length * 2);
        }
    }
}
