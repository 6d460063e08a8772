package io.sluice.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructType;

import java.math.BigDecimal;
import java.util.List;

/**
 * Rows of atomic values as a Kernel batch, one array per column in Kernel's representation (dates as epoch days,
 * timestamps as epoch microseconds). Kernel's own row-based batch refuses {@code getLong} on timestamp columns,
 * which its Parquet writer calls.
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
        DataType type = schema.at(ordinal).getDataType();
        Object[] values = columns[ordinal];
        return new ColumnVector() {
            @Override
            public DataType getDataType() {
                return type;
            }

            @Override
            public int getSize() {
                return size;
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
        };
    }

    @Override
    public int getSize() {
        return size;
    }
}
