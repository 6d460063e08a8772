package io.sluice.delta;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructType;

import java.math.BigDecimal;
import java.util.List;

/**
 * Rows as a Kernel batch, one array per column of values in Kernel's representation ({@link DeltaTypes#kernelValue}:
 * dates as epoch days, timestamps as epoch microseconds, nested values as arrays). Kernel's own row-based batch
 * refuses {@code getLong} on timestamp columns, which its Parquet writer calls.
 */
final class RowsBatch implements ColumnarBatch {

    private final StructType schema;
    private final Object[][] columns;
    private final int size;

    RowsBatch(StructType schema, List<Object[]> rows) {
        this.schema = schema;
        this.size = rows.size();
        this.columns = new Object[schema.length()][size];
        for (int r = 0; r < size; r++) {
            Object[] row = rows.get(r);
            for (int c = 0; c < columns.length; c++) {
                columns[c][r] = row[c];
            }
        }
    }

    private RowsBatch(StructType schema, Object[][] columns, int size) {
        this.schema = schema;
        this.columns = columns;
        this.size = size;
    }

    /** Kernel drops the partition columns from the logical data this way before writing. */
    @Override
    public ColumnarBatch withDeletedColumnAt(int ordinal) {
        StructType kept = new StructType();
        Object[][] cols = new Object[columns.length - 1][];
        for (int c = 0, k = 0; c < columns.length; c++) {
            if (c != ordinal) {
                kept = kept.add(schema.at(c));
                cols[k++] = columns[c];
            }
        }
        return new RowsBatch(kept, cols, size);
    }

    @Override
    public StructType getSchema() {
        return schema;
    }

    @Override
    public ColumnVector getColumnVector(int ordinal) {
        return new ValuesVector(schema.at(ordinal).getDataType(), columns[ordinal]);
    }

    @Override
    public int getSize() {
        return size;
    }

    /** A map value in Kernel's representation: its keys and its values, in the same order. */
    record MapEntries(Object[] keys, Object[] values) {
    }

    /**
     * A vector of values in the representation {@link DeltaTypes#kernelValue} gives (a struct an array of its field
     * values, an array an array of elements, a map {@link MapEntries}): Kernel's Parquet writer reads a struct's
     * fields through {@link #getChild}, an array's elements through {@link #getArray} and a map's through
     * {@link #getMap}, each again a vector of this kind.
     */
    private static final class ValuesVector implements ColumnVector {
        private final DataType type;
        private final Object[] values;
        private ColumnVector[] children;

        ValuesVector(DataType type, Object[] values) {
            this.type = type;
            this.values = values;
        }

        @Override
        public DataType getDataType() {
            return type;
        }

        @Override
        public int getSize() {
            return values.length;
        }

        @Override
        public void close() {
        }

        @Override
        public boolean isNullAt(int rowId) {
            return values[rowId] == null;
        }

        @Override
        public boolean getBoolean(int rowId) {
            return (Boolean) values[rowId];
        }

        @Override
        public byte getByte(int rowId) {
            return (Byte) values[rowId];
        }

        @Override
        public short getShort(int rowId) {
            return (Short) values[rowId];
        }

        @Override
        public int getInt(int rowId) {
            return (Integer) values[rowId];
        }

        @Override
        public long getLong(int rowId) {
            return (Long) values[rowId];
        }

        @Override
        public float getFloat(int rowId) {
            return (Float) values[rowId];
        }

        @Override
        public double getDouble(int rowId) {
            return (Double) values[rowId];
        }

        @Override
        public byte[] getBinary(int rowId) {
            return (byte[]) values[rowId];
        }

        @Override
        public String getString(int rowId) {
            return (String) values[rowId];
        }

        @Override
        public BigDecimal getDecimal(int rowId) {
            return (BigDecimal) values[rowId];
        }

        /** The i-th field of each struct of this vector (null where the struct is null). */
        @Override
        public ColumnVector getChild(int ordinal) {
            if (children == null) {
                children = new ColumnVector[((StructType) type).length()];
            }
            if (children[ordinal] == null) {
                Object[] field = new Object[values.length];
                for (int r = 0; r < values.length; r++) {
                    field[r] = values[r] == null ? null : ((Object[]) values[r])[ordinal];
                }
                children[ordinal] = new ValuesVector(((StructType) type).at(ordinal).getDataType(), field);
            }
            return children[ordinal];
        }

        @Override
        public ArrayValue getArray(int rowId) {
            Object[] elements = (Object[]) values[rowId];
            ColumnVector v = new ValuesVector(((ArrayType) type).getElementType(), elements);
            return new ArrayValue() {
                @Override
                public int getSize() {
                    return elements.length;
                }

                @Override
                public ColumnVector getElements() {
                    return v;
                }
            };
        }

        @Override
        public MapValue getMap(int rowId) {
            MapEntries m = (MapEntries) values[rowId];
            MapType mt = (MapType) type;
            ColumnVector keys = new ValuesVector(mt.getKeyType(), m.keys());
            ColumnVector vals = new ValuesVector(mt.getValueType(), m.values());
            return new MapValue() {
                @Override
                public int getSize() {
                    return m.keys().length;
                }

                @Override
                public ColumnVector getKeys() {
                    return keys;
                }

                @Override
                public ColumnVector getValues() {
                    return vals;
                }
            };
        }
    }
}
