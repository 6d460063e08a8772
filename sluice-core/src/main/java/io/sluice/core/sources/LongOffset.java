package io.sluice.core.sources;

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
