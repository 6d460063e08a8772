package io.sluice.core;

import java.lang.reflect.Type;

/**
 * How offsets of the high-level API ({@link io.sluice.api.datasource.DataSource}) become JSON and back, and how two
 * offsets are ordered. The engine does this for a data source: its offsets are plain values (records, maps...), and
 * the engine writes them to the offset log and reads them back. Part of the engine's public API (sluice-core), for
 * tools and tests that handle such offsets or JSON of the same rules (the contract test kit, the examples' HTTP
 * servers); sluice-api only names the rules.
 *
 * <p>A JSON value is: {@code null}; a {@link String}; a {@link Boolean}; a finite {@link Number} (Byte, Short,
 * Integer, Long, BigInteger, Float, Double, BigDecimal); an enum (written as its name); a {@link java.util.List}; a
 * {@link java.util.Map} with String keys (written with its keys sorted, so equal maps give equal JSON); or a
 * record, written as an object of its components in declaration order and read back through its canonical
 * constructor, whatever its visibility. Anything else (a {@code java.time.Instant}, a Set, a NaN) is refused.
 *
 * <p>The JSON is canonical: no white space, stable key order; the engine compares offsets by it. Read back as
 * {@code Object.class}, objects become {@link java.util.LinkedHashMap}s, arrays {@link java.util.ArrayList}s, whole
 * numbers {@link Long}s (or {@link java.math.BigInteger}s), other numbers {@link Double}s. Read back as a record
 * (or a {@code List<..>}/{@code Map<String, ..>} component of one), values are converted to the declared types.
 */
public final class OffsetJson {
    private OffsetJson() {
    }

    /**
     * The canonical JSON of a value.
     *
     * @throws IllegalArgumentException naming the part that is not a JSON value
     */
    public static String write(Object value) {
        return JsonCodec.write(value);
    }

    /** Parses JSON into Maps, Lists, Strings, Longs, Doubles, Booleans and nulls. */
    public static Object read(String json) {
        return JsonCodec.read(json, Object.class);
    }

    /**
     * Parses JSON into the given type: a record, a boxed or primitive number, String, Boolean, an enum, or a
     * parameterized {@code List}/{@code Map}.
     *
     * @throws IllegalArgumentException when the JSON does not fit the type
     */
    @SuppressWarnings("unchecked")
    public static <T> T read(String json, Class<T> type) {
        return (T) JsonCodec.read(json, type);
    }

    /** As {@link #read(String, Class)}, for a generic type such as {@code List<Long>}. */
    public static Object read(String json, Type type) {
        return JsonCodec.read(json, type);
    }

    /** How two offsets relate, by their JSON. */
    public enum Order {
        /** The first is before the second: every number is lower or equal, at least one lower. */
        BEFORE,
        /** Equal JSON values. */
        SAME,
        /** The first is after the second. */
        AFTER,
        /** Some numbers went up, some down: no order, and for a position, some part went backwards. */
        MIXED,
        /** Different shapes, keys or strings: the JSON alone cannot order them. */
        UNORDERED
    }

    /**
     * Orders two offsets by their JSON, part by part: numbers by value; objects with the same keys and arrays of
     * the same length by each element; equal strings, booleans and nulls are the same; anything else is
     * {@link Order#UNORDERED}. The engine and the contract test kit use it to catch an offset going backwards
     * ({@link Order#BEFORE} or {@link Order#MIXED} where it should not).
     */
    public static Order compare(String jsonA, String jsonB) {
        return JsonCodec.compare(read(jsonA), read(jsonB));
    }
}
