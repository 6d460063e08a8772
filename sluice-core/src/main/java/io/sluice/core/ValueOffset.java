package io.sluice.core;

import java.util.Optional;
import io.sluice.api.Offset;
import io.sluice.api.datasource.SourceContractException;
import io.sluice.api.source.InputPartition;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * An offset of a high-level data source: its canonical JSON and the value the reader works with. Also the checks
 * every adapter applies to what a reader returns, so a bad source fails with a message naming the rule.
 */
record ValueOffset(String json, Object value) implements Offset {

    @Override
    public String toString() {
        return json;
    }

    /**
     * Writes the reader's value as JSON and reads it back as {@code type}: the JSON must be the same the second
     * time, and a record must be read back as its own class, or the offset log could not restore it.
     */
    static ValueOffset of(String source, String method, Object value, Class<?> type) {
        String prefix = "Data source '" + source + "': the offset from " + method
                + " does not round-trip through JSON: ";
        if (value == null) {
            throw new SourceContractException("Data source '" + source + "': " + method + " returned null");
        }
        if (type == Object.class && (value instanceof Record || value instanceof Enum<?>)) {
            String cls = value.getClass().getSimpleName();
            throw new SourceContractException(prefix + "it is a " + cls + " but offsetType() returns Object, so the "
                    + "offset log would give back a Map: override offsetType() to return " + cls + ".class");
        }
        if (type != Object.class && !type.isInstance(value)) {
            throw new SourceContractException(prefix + "it is a " + value.getClass().getName()
                    + " but offsetType() is " + type.getName());
        }
        String json;
        Object back;
        try {
            json = OffsetJson.write(value);
            back = OffsetJson.read(json, type);
        } catch (IllegalArgumentException e) {
            throw new SourceContractException(prefix + e.getMessage(), e);
        }
        String again;
        try {
            again = OffsetJson.write(back);
        } catch (IllegalArgumentException e) {
            throw new SourceContractException(prefix + e.getMessage(), e);
        }
        if (!again.equals(json)) {
            throw new SourceContractException(prefix + "it is written as " + json + " but reads back as " + again);
        }
        return new ValueOffset(json, back);
    }

    /** An offset from the log (or another stream), read back as the reader's type. */
    static ValueOffset read(String source, Offset offset, Class<?> type) {
        if (offset instanceof ValueOffset v) {
            return v;
        }
        try {
            return new ValueOffset(offset.json(), OffsetJson.read(offset.json(), type));
        } catch (IllegalArgumentException e) {
            throw new SourceContractException("Data source '" + source + "' cannot read back the offset "
                    + offset.json() + " as " + type.getName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Fails when {@code end} is before {@code start}, or before the {@code previous} latest offset, by
     * {@link OffsetJson#compare}; offsets the JSON cannot order pass.
     */
    static void checkForward(String source, String method, ValueOffset previous, ValueOffset start, ValueOffset end) {
        if (previous != null && backwards(end, previous)) {
            throw new SourceContractException("Data source '" + source + "': " + method + " went backwards from "
                    + previous.json() + " to " + end.json() + "; offsets must never go backwards");
        }
        if (start != null && backwards(end, start)) {
            throw new SourceContractException("Data source '" + source + "': " + method + " returned "
                    + end.json() + ", which is before the batch start " + start.json()
                    + "; offsets must never go backwards");
        }
    }

    private static boolean backwards(ValueOffset later, ValueOffset earlier) {
        OffsetJson.Order o = OffsetJson.compare(later.json(), earlier.json());
        return o == OffsetJson.Order.BEFORE || o == OffsetJson.Order.MIXED;
    }

    /** {@code MicroBatchStream.wentBackwards} for data sources, ordered by {@link OffsetJson#compare}. */
    static Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        OffsetJson.Order o = OffsetJson.compare(end.json(), previousEnd.json());
        if (o == OffsetJson.Order.BEFORE || o == OffsetJson.Order.MIXED) {
            return Optional.of(end.json() + " is " + (o == OffsetJson.Order.MIXED ? "partly " : "") + "before "
                    + previousEnd.json());
        }
        return Optional.empty();
    }

    /** Partitions must be Java-serializable so a bridge can ship them; checked when planned. */
    static List<InputPartition> checkPartitions(String source, List<? extends InputPartition> parts, Offset start,
                                                Offset end) {
        String range = (start == null ? "null" : start.json()) + " -> " + (end == null ? "null" : end.json());
        if (parts == null) {
            throw new SourceContractException("Data source '" + source + "': partitions(" + range + ") returned null");
        }
        for (int i = 0; i < parts.size(); i++) {
            InputPartition p = parts.get(i);
            if (p == null) {
                throw new SourceContractException("Data source '" + source + "': partition " + i + " of range "
                        + range + " is null");
            }
            try (ObjectOutputStream out = new ObjectOutputStream(OutputStream.nullOutputStream())) {
                out.writeObject(p);
            } catch (IOException | RuntimeException e) {
                throw new SourceContractException("Data source '" + source + "': partition " + i + " of range "
                        + range + " cannot be serialized (a partition must be a small Serializable value, such as "
                        + "a record of offsets): " + e, e);
            }
        }
        return List.copyOf(parts);
    }
}
