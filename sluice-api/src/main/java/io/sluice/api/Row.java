package io.sluice.api;

import io.sluice.api.types.StructType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One record: an ordered, immutable tuple of values, optionally carrying its schema so fields can be read by
 * name. Values use the Java types listed on {@link io.sluice.api.types.DataType}; SQL NULL is Java {@code null}.
 *
 * <p>Nulls are explicit: the primitive getters ({@link #getLong(int)} and friends) throw
 * {@link NullPointerException} naming the column when the value is null; check {@link #isNullAt(int)} first or
 * use {@link #get(int)}, which returns null. Equality compares values (byte arrays by content), never schemas.
 */
public final class Row {
    private static final Object[] EMPTY = new Object[0];
    private final Object[] values;
    private final StructType schema;

    private Row(Object[] values, StructType schema) {
        this.values = values;
        this.schema = schema;
    }

    /** A row of the given values, without a schema. The array is copied. */
    public static Row of(Object... values) {
        return new Row(values.length == 0 ? EMPTY : values.clone(), null);
    }

    /**
     * A row of the given values that the caller hands over and will not change again: no copy is made. For
     * sources on a hot path.
     */
    public static Row wrap(Object[] values) {
        return new Row(values, null);
    }

    /** A row with a schema, so {@link #getAs(String)} and friends work. The array is copied. */
    public static Row withSchema(StructType schema, Object... values) {
        if (schema.size() != values.length) {
            throw new IllegalArgumentException("Schema " + schema.simpleString() + " has " + schema.size()
                    + " columns but " + values.length + " values were given");
        }
        return new Row(values.clone(), schema);
    }

    /** The same values under a schema (no copy). */
    public Row attach(StructType schema) {
        if (schema.size() != values.length) {
            throw new IllegalArgumentException("Schema " + schema.simpleString() + " has " + schema.size()
                    + " columns but the row has " + values.length + " values");
        }
        return new Row(values, schema);
    }

    /** The schema this row carries, or null when it was built without one. */
    public StructType schema() {
        return schema;
    }

    public int size() {
        return values.length;
    }

    public boolean isNullAt(int i) {
        return values[i] == null;
    }

    /** The value at {@code i}, or null. */
    public Object get(int i) {
        return values[i];
    }

    /** The value at {@code i} cast to the caller's type, or null. */
    @SuppressWarnings("unchecked")
    public <T> T getAs(int i) {
        return (T) values[i];
    }

    /** The value of the named column, or null. Needs a schema. */
    public <T> T getAs(String name) {
        return getAs(fieldIndex(name));
    }

    public int fieldIndex(String name) {
        if (schema == null) {
            throw new UnsupportedOperationException("This row has no schema: read it by index, or build it with Row.withSchema");
        }
        return schema.fieldIndex(name);
    }

    public boolean getBoolean(int i) {
        return (Boolean) nonNull(i);
    }

    public byte getByte(int i) {
        return ((Number) nonNull(i)).byteValue();
    }

    public short getShort(int i) {
        return ((Number) nonNull(i)).shortValue();
    }

    public int getInt(int i) {
        return ((Number) nonNull(i)).intValue();
    }

    public long getLong(int i) {
        return ((Number) nonNull(i)).longValue();
    }

    public float getFloat(int i) {
        return ((Number) nonNull(i)).floatValue();
    }

    public double getDouble(int i) {
        return ((Number) nonNull(i)).doubleValue();
    }

    public String getString(int i) {
        return (String) values[i];
    }

    public BigDecimal getDecimal(int i) {
        return (BigDecimal) values[i];
    }

    public byte[] getBinary(int i) {
        return (byte[]) values[i];
    }

    public LocalDate getDate(int i) {
        return (LocalDate) values[i];
    }

    public Instant getTimestamp(int i) {
        return (Instant) values[i];
    }

    @SuppressWarnings("unchecked")
    public <T> List<T> getList(int i) {
        return (List<T>) values[i];
    }

    @SuppressWarnings("unchecked")
    public <K, V> Map<K, V> getMap(int i) {
        return (Map<K, V>) values[i];
    }

    public Row getStruct(int i) {
        return (Row) values[i];
    }

    public long getLong(String name) {
        return getLong(fieldIndex(name));
    }

    public String getString(String name) {
        return getString(fieldIndex(name));
    }

    /** A copy of the values. */
    public Object[] toArray() {
        return values.clone();
    }

    private Object nonNull(int i) {
        Object v = values[i];
        if (v == null) {
            String col = schema == null ? "at index " + i : "'" + schema.field(i).name() + "' (index " + i + ")";
            throw new NullPointerException("Value of column " + col + " is null; check isNullAt(" + i + ") first");
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row r && Arrays.deepEquals(values, r.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    /** Spark's form: {@code [1,a,null]}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            Object v = values[i];
            sb.append(v instanceof byte[] b ? Arrays.toString(b) : String.valueOf(v));
        }
        return sb.append(']').toString();
    }
}
