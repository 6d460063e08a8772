package io.sluice.delta;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.internal.deletionvectors.DeletionVectorUtils;
import io.delta.kernel.internal.deletionvectors.RoaringBitmapArray;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.sluice.api.Row;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Reads one data file through Kernel's Parquet reader (the default engine's, which also fills columns a file lacks
 * with nulls, as an additive schema change needs), adding the partition columns from the log's values. Under column
 * mapping the file is read by its physical column names or field ids; a deletion vector's rows are left out.
 */
final class DeltaFileReader implements PartitionReader {

    private final DeltaTable table;
    private final DeltaFile file;
    private final StructType schema;
    /** For each output column: its index in the physical batch, or -1 for a partition column. */
    private final int[] physicalIndex;
    private final Object[] partitionValues;
    private final io.delta.kernel.types.StructType physical;
    private final int rowIndexColumn;
    private RoaringBitmapArray deleted;
    private CloseableIterator<ColumnarBatch> batches;
    private ColumnarBatch batch;
    private int rowId;
    private Row current;

    DeltaFileReader(DeltaTable table, DeltaFile file, StructType schema, List<String> partitionColumns,
                    io.delta.kernel.types.StructType physicalData) {
        this.table = table;
        this.file = file;
        this.schema = schema;
        this.physicalIndex = new int[schema.size()];
        this.partitionValues = new Object[schema.size()];
        int data = 0;
        for (int i = 0; i < schema.size(); i++) {
            StructField f = schema.field(i);
            if (partitionColumns.stream().anyMatch(c -> c.equalsIgnoreCase(f.name()))) {
                physicalIndex[i] = -1;
                String text = null;
                for (java.util.Map.Entry<String, String> e : file.partitionValues().entrySet()) {
                    if (e.getKey().equalsIgnoreCase(f.name())) {
                        text = e.getValue();
                    }
                }
                partitionValues[i] = DeltaTypes.partitionValue(text, f.dataType(), f.name());
            } else {
                physicalIndex[i] = data++;
            }
        }
        // The row index (Kernel's _metadata.row_index column, filled by its Parquet reader) says which rows the
        // deletion vector deletes, as in Kernel's own scan.
        this.physical = file.deletionVector() == null ? physicalData
                : physicalData.add(io.delta.kernel.types.StructField.METADATA_ROW_INDEX_COLUMN);
        this.rowIndexColumn = file.deletionVector() == null ? -1 : physicalData.length();
    }

    @Override
    public boolean next() throws IOException {
        if (batches == null) {
            if (file.deletionVector() != null) {
                deleted = DeletionVectorUtils.loadNewDvAndBitmap(table.engine, table.uri,
                        file.deletionVector().toKernel())._2;
            }
            batches = table.engine.getParquetHandler().readParquetFiles(Utils.singletonCloseableIterator(
                    FileStatus.of(file.path(), file.size(), file.modificationTime())), physical, Optional.empty());
        }
        while (true) {
            while (batch == null || rowId >= batch.getSize()) {
                if (!batches.hasNext()) {
                    return false;
                }
                batch = batches.next();
                rowId = 0;
            }
            if (deleted == null || !deleted.contains(batch.getColumnVector(rowIndexColumn).getLong(rowId))) {
                break;
            }
            rowId++;
        }
        Object[] values = new Object[schema.size()];
        for (int i = 0; i < values.length; i++) {
            int p = physicalIndex[i];
            values[i] = p < 0 ? partitionValues[i]
                    : DeltaTypes.value(batch.getColumnVector(p), rowId, schema.field(i).dataType());
        }
        rowId++;
        current = Row.withSchema(schema, values);
        return true;
    }

    @Override
    public Row get() {
        return current;
    }

    @Override
    public void close() throws IOException {
        if (batches != null) {
            batches.close();
        }
    }
}
