package io.sluice.files.source;

import io.sluice.api.Offset;

import java.util.OptionalLong;

/**
 * The file source's position: the offset of the last batch in its seen-files log, Spark's
 * {@code FileStreamSourceOffset}. JSON {@code {"logOffset":N}}; -1 before the first batch. It advances only when
 * new files are selected, so it is not the query's batch id.
 */
record FileSourceOffset(long logOffset) implements Offset {

    static final FileSourceOffset INITIAL = new FileSourceOffset(-1);

    @Override
    public String json() {
        return "{\"logOffset\":" + logOffset + "}";
    }

    /** Reads {@code {"logOffset":N}}, or a bare number as very old Spark checkpoints hold. */
    static FileSourceOffset parse(String json) {
        String s = json.trim();
        try {
            return new FileSourceOffset(Long.parseLong(s));
        } catch (NumberFormatException notANumber) {
            // the JSON form below
        }
        OptionalLong n = logOffset(s);
        if (n.isEmpty()) {
            throw new IllegalArgumentException("Not a file source offset: '" + json
                    + "'; expected {\"logOffset\":N}");
        }
        return new FileSourceOffset(n.getAsLong());
    }

    /**
     * The N of {@code {"logOffset":N}} (whitespace allowed), the form the file source writes; empty for anything
     * else, a bare number included (the rate and socket sources write those).
     */
    static OptionalLong logOffset(String json) {
        String compact = json.replace(" ", "").replace("\n", "").replace("\t", "").replace("\r", "");
        String prefix = "{\"logOffset\":";
        if (compact.startsWith(prefix) && compact.endsWith("}")) {
            try {
                return OptionalLong.of(Long.parseLong(compact.substring(prefix.length(), compact.length() - 1)));
            } catch (NumberFormatException e) {
                // not a number: not this source's offset
            }
        }
        return OptionalLong.empty();
    }

    static long of(Offset o) {
        if (o == null) {
            return -1;
        }
        return o instanceof FileSourceOffset f ? f.logOffset : parse(o.json()).logOffset;
    }

    @Override
    public String toString() {
        return json();
    }
}
