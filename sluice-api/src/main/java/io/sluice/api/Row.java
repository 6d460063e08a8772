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
    /** The values: an {@code Object[]} of this row alone, or the {@link RowBlock} that a {@link RowBuilder} shares. */
    private final Object data;
    private final StructType schema;
    /** The row's index in its block; 0 for an array. */
    private final int index;

    private Row(Object data, StructType schema, int index) {
        this.data = data;
        this.schema = schema;
        this.index = index;
    }

    private Row(Object[] values, StructType schema) {
        this(values, schema, 0);
    }

    /** A row of a {@link RowBuilder}'s block, whose cells for it are written and final. */
    static Row inBlock(RowBlock block, int index) {
        return new Row(block, null, index);
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
        if (schema.size() != size()) {
            throw new IllegalArgumentException("Schema " + schema.simpleString() + " has " + schema.size()
                    + " columns but the row has " + size() + " values");
        }
        return new Row(data, schema, index);
    }

    /** The schema this row carries, or null when it was built without one. */
    public StructType schema() {
        return schema;
    }

    public int size() {
        return data instanceof Object[] v ? v.length : ((RowBlock) data).width;
    }

    public boolean isNullAt(int i) {
        return data instanceof Object[] v ? v[i] == null : ((RowBlock) data).isNull(index, i);
    }

    /**
     * The value at {@code i}, or null. For a row made by a {@link RowBuilder}, each call returns a new object
     * equal to the previous one.
     */
    public Object get(int i) {
        return data instanceof Object[] v ? v[i] : ((RowBlock) data).get(index, i);
    }

    /** The value at {@code i} cast to the caller's type, or null. */
    @SuppressWarnings("unchecked")
    public <T> T getAs(int i) {
        return (T) get(i);
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
        if (data instanceof RowBlock b && b.isIntegralWord(index, i)) {
            return b.word(index, i);
        }
        return ((Number) nonNull(i)).longValue();
    }

    public float getFloat(int i) {
        return ((Number) nonNull(i)).floatValue();
    }

    public double getDouble(int i) {
        return ((Number) nonNull(i)).doubleValue();
    }

    public String getString(int i) {
        return (String) get(i);
    }

    public BigDecimal getDecimal(int i) {
        return (BigDecimal) get(i);
    }

    public byte[] getBinary(int i) {
        return (byte[]) get(i);
    }

    public LocalDate getDate(int i) {
        return (LocalDate) get(i);
    }

    public Instant getTimestamp(int i) {
        return (Instant) get(i);
    }

    @SuppressWarnings("unchecked")
    public <T> List<T> getList(int i) {
        return (List<T>) get(i);
    }

    @SuppressWarnings("unchecked")
    public <K, V> Map<K, V> getMap(int i) {
        return (Map<K, V>) get(i);
    }

    public Row getStruct(int i) {
        return (Row) get(i);
    }

    public long getLong(String name) {
        return getLong(fieldIndex(name));
    }

    public String getString(String name) {
        return getString(fieldIndex(name));
    }

    /**
     * This row holding only its own values: the row itself when it already does (any row but a
     * {@link RowBuilder}'s), otherwise an equal row of its values under the same schema. A RowBuilder's row keeps
     * the block it shares with up to 255 other rows alive; copy it before keeping few rows of many for long.
     */
    public Row copy() {
        return data instanceof Object[] ? this : new Row(values(), schema, 0);
    }

    /** A copy of the values. */
    public Object[] toArray() {
        return data instanceof Object[] v ? v.clone() : values();
    }

    /** The values, not to be changed: the row's own array, or a new one for a block's row. */
    private Object[] values() {
        if (data instanceof Object[] v) {
            return v;
        }
        Object[] out = new Object[size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = get(i);
        }
        return out;
    }

    private Object nonNull(int i) {
        Object v = get(i);
        if (v == null) {
            String col = schema == null ? "at index " + i : "'" + schema.field(i).name() + "' (index " + i + ")";
            throw new NullPointerException("Value of column " + col + " is null; check isNullAt(" + i + ") first");
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row r && Arrays.deepEquals(values(), r.values());
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values());
    }

    /** Spark's form: {@code [1,a,null]}. */
    @Override
    public String toString() {
        Object[] values = values();
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
