package io.sluice.core.sources;

import java.util.Optional;
import io.sluice.api.Offset;

/** A position that is one whole number, written as a bare JSON number (Spark's {@code LongOffset}). */
record LongOffset(long value) implements Offset {

    @Override
    public String json() {
        return Long.toString(value);
    }

    @Override
    public String toString() {
        return json();
    }

    /** Reads a bare JSON number back; {@code what} names the source in the error. */
    static LongOffset parse(String json, String what) {
        try {
            return new LongOffset(Long.parseLong(json.trim()));
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException("Invalid " + what + " offset '" + json
                    + "': a whole number (JSON number) was expected", e);
        }
    }

    /**
     * {@link io.sluice.api.source.MicroBatchStream#wentBackwards} for streams whose offsets are one number:
     * {@code "<name> 3 is before 7"}.
     */
    static Optional<String> wentBackwards(Offset previousEnd, Offset end, String what, String name) {
        long before = of(previousEnd, what);
        long after = of(end, what);
        return after < before ? Optional.of(name + " " + after + " is before " + before)
                : Optional.empty();
    }

    /** The number behind any offset of this kind, also one handed back as a plain JSON offset. */
    static long of(Offset offset, String what) {
        if (offset instanceof LongOffset l) {
            return l.value;
        }
        if (offset == null) {
            throw new IllegalArgumentException("A " + what + " offset must not be null");
        }
        return parse(offset.json(), what).value;
    }
}
