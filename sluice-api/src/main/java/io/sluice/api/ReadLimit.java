package io.sluice.api;

import java.util.List;

/**
 * How much one micro-batch may take from a source (admission control), passed to
 * {@link io.sluice.api.source.MicroBatchStream#latestOffset(Offset, ReadLimit)}. A source honours the kinds it
 * understands and treats the others as {@link #allAvailable()}. Mirrors Spark's ReadLimit family.
 */
public sealed interface ReadLimit {

    /** Everything available now. */
    static ReadLimit allAvailable() {
        return AllAvailable.INSTANCE;
    }

    /** At most {@code rows} rows (records, offsets). */
    static ReadLimit maxRows(long rows) {
        return new MaxRows(rows);
    }

    /** At most {@code files} files. */
    static ReadLimit maxFiles(int files) {
        return new MaxFiles(files);
    }

    /** At most {@code bytes} bytes, but always at least one whole unit (file) so a batch can make progress. */
    static ReadLimit maxBytes(long bytes) {
        return new MaxBytes(bytes);
    }

    /**
     * Wait until at least {@code rows} rows are available, but no longer than {@code maxTriggerDelayMs} after the
     * last batch: then take what there is.
     */
    static ReadLimit minRows(long rows, long maxTriggerDelayMs) {
        return new MinRows(rows, maxTriggerDelayMs);
    }

    /** All of the given limits at once (e.g. a minimum and a maximum). */
    static ReadLimit composite(ReadLimit... limits) {
        return new Composite(List.of(limits));
    }

    /** Everything available. */
    enum AllAvailable implements ReadLimit {
        INSTANCE;

        @Override
        public String toString() {
            return "ReadAllAvailable";
        }
    }

    record MaxRows(long rows) implements ReadLimit {
        public MaxRows {
            positive("rows", rows);
        }
    }

    record MaxFiles(int files) implements ReadLimit {
        public MaxFiles {
            positive("files", files);
        }
    }

    record MaxBytes(long bytes) implements ReadLimit {
        public MaxBytes {
            positive("bytes", bytes);
        }
    }

    record MinRows(long rows, long maxTriggerDelayMs) implements ReadLimit {
        public MinRows {
            positive("rows", rows);
            if (maxTriggerDelayMs < 0) {
                throw new IllegalArgumentException("maxTriggerDelayMs must not be negative: " + maxTriggerDelayMs);
            }
        }
    }

    record Composite(List<ReadLimit> limits) implements ReadLimit {
        public Composite {
            limits = List.copyOf(limits);
            if (limits.isEmpty()) {
                throw new IllegalArgumentException("A composite read limit needs at least one limit");
            }
        }
    }

    private static void positive(String what, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException("A read limit's " + what + " must be positive: " + v);
        }
    }
}
