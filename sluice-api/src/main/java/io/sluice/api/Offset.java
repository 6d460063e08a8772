package io.sluice.api;

/**
 * A position in a source, durable and ordered. The engine writes {@link #json()} to the offset log
 * ({@code offsets/N}) and reads it back with the stream's {@code deserializeOffset}; it never interprets the JSON.
 *
 * <p>Two offsets are the same position exactly when their JSON strings are equal: the engine compares offsets
 * only that way (as Spark does), so a source must produce one canonical JSON form per position (stable key
 * order, no insignificant white space). Implementations should be immutable values.
 */
public interface Offset {

    /** The canonical JSON of this position: an object, array, number or string, never null or empty. */
    String json();

    /** An offset that is nothing but its JSON, for sources that keep their position as a JSON string. */
    static Offset of(String json) {
        return new JsonOffset(json);
    }

    /** True when both are null, or both have the same JSON. */
    static boolean same(Offset a, Offset b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.json().equals(b.json());
    }
}
