package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.types.StructType;

import java.util.Collections;
import java.util.List;

/**
 * The rows of one micro-batch, handed to a {@link ForeachBatchFunction}: immutable, in batch order (the input
 * partitions in order, each partition's rows in the order read). Rows carry {@link #schema()}, so
 * {@link Row#getAs(String)} works. The whole batch is held in memory: bound it with the source's read limits
 * (e.g. {@code maxFilesPerTrigger}, {@code rowsPerBatch}).
 */
public final class BatchData {
    private final StructType schema;
    private final List<Row> rows;
    private final BatchInfo info;

    BatchData(StructType schema, List<Row> rows, BatchInfo info) {
        this.schema = schema;
        this.rows = Collections.unmodifiableList(rows);
        this.info = info;
    }

    /**
     * The batch's identity: query id, batch id and the range logged in {@code offsets/N}. An idempotent write
     * that records {@link BatchInfo#digest()} with the batch id can tell a re-run after a crash (same digest: skip)
     * from a checkpoint restored from an older copy (another digest: fail with {@link BatchInfo#rangeConflict}).
     */
    public BatchInfo info() {
        return info;
    }

    /** The schema of the rows. */
    public StructType schema() {
        return schema;
    }

    /** The rows, unmodifiable, in batch order. */
    public List<Row> rows() {
        return rows;
    }

    /** The number of rows. */
    public long count() {
        return rows.size();
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    @Override
    public String toString() {
        return "BatchData[" + schema.simpleString() + ", " + rows.size() + " rows]";
    }
}
