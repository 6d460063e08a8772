package io.sluice.delta;

import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Operation;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionBuilder;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One Delta commit per batch, with {@code txn(appId = query id, version = batch id)}: Kernel's transaction builder
 * refuses a batch the table already holds for this query (ConcurrentTransactionException), so a re-run batch is
 * skipped, and its conflict checker does the same when a racing writer committed it first. In the {@code complete}
 * output mode the commit also removes every file of the version it read (an overwrite).
 */
final class DeltaSink implements Sink {

    private static final Logger LOG = LoggerFactory.getLogger(DeltaSink.class);
    private static final String ENGINE_INFO = "Sluice";

    private final DeltaTable table;
    private final StructType schema;
    private final io.delta.kernel.types.StructType kernelSchema;
    private final List<String> partitionBy;
    private final String appId;
    private final boolean complete;

    DeltaSink(DeltaTable table, StructType schema, List<String> partitionBy, String appId) {
        this(table, schema, partitionBy, appId, false);
    }

    /**
     * @param complete the query's output mode is {@code complete}: each batch holds the whole result, and its
     *                 commit removes every file of the table it read before adding the batch's, as delta-spark's
     *                 sink does in that mode (the same transaction, so exactly once by the same txn id)
     */
    DeltaSink(DeltaTable table, StructType schema, List<String> partitionBy, String appId, boolean complete) {
        this.complete = complete;
        this.table = table;
        this.schema = schema;
        this.kernelSchema = DeltaTypes.toKernel(schema, true);
        this.partitionBy = partitionBy;
        this.appId = appId;
        for (String c : partitionBy) {
            if (schema.indexOf(c) < 0) {
                throw new IllegalArgumentException("[DELTA_PARTITION_COLUMN_NOT_FOUND] Partition column `" + c
                        + "` not found in schema " + schema.toDDL());
            }
        }
        for (String c : partitionBy) {
            var f = schema.field(schema.indexOf(c));
            if (!(f.dataType() instanceof AtomicType || f.dataType() instanceof DecimalType)) {
                // delta-spark's message (its PartitionUtils.validatePartitionColumn), Spark's type form included
                throw new IllegalArgumentException("[DELTA_INVALID_PARTITION_COLUMN_TYPE] Using column " + f.name()
                        + " of type " + f.dataType().sparkString() + " as a partition column is not supported.");
            }
        }
    }

    @Override
    public BatchWriter beginBatch(long batchId) {
        Optional<SnapshotImpl> existing = table.latest();
        if (existing.isPresent()) {
            SnapshotImpl s = existing.get();
            Optional<Long> done = s.getLatestTransactionVersion(table.engine, appId);
            if (done.isPresent() && done.get() >= batchId) {
                LOG.info("Batch {} of query {} is already in the Delta table {} (its txn version is {}): skipped",
                        batchId, appId, table.where, done.get());
                return BatchWriter.discarding(0);
            }
            StructType tableSchema = DeltaTypes.toSluice(s.getSchema());
            // Names compared case-insensitively, as delta-spark does by default (spark.sql.caseSensitive=false); the
            // rows are written under the table's names (writeSchema below).
            if (!tableSchema.simpleString().toLowerCase(java.util.Locale.ROOT)
                    .equals(schema.simpleString().toLowerCase(java.util.Locale.ROOT))) {
                throw new IllegalStateException("[DELTA_FAILED_TO_MERGE_FIELDS] A schema mismatch detected when "
                        + "writing to the Delta table " + table.where + ".\nTable schema: " + tableSchema.toDDL()
                        + "\nData schema: " + schema.toDDL() + "\nSluice does not merge schemas (mergeSchema) yet.");
            }
            if (!partitionBy.isEmpty() && !lower(partitionBy).equals(lower(s.getPartitionColumnNames()))) {
                throw new IllegalStateException("[DELTA_PARTITION_COLUMN_MISMATCH] The Delta table " + table.where
                        + " is partitioned by " + s.getPartitionColumnNames() + ", not by " + partitionBy);
            }
        }
        TransactionBuilder b = table.table.createTransactionBuilder(table.engine, ENGINE_INFO,
                Operation.STREAMING_UPDATE).withTransactionId(table.engine, appId, batchId);
        if (existing.isEmpty()) {
            b = b.withSchema(table.engine, kernelSchema).withPartitionColumns(table.engine, partitionBy);
        }
        // The table's NOT NULL columns (delta-spark's constraint): checked on each row, as delta-spark's writer
        // does; a stream's own schema is written all-nullable, so only a table made elsewhere has any.
        List<NotNull> notNull = existing.map(s -> notNullColumns(s.getSchema())).orElse(List.of());
        // Rows are handed to Kernel in the table's own schema (its nullability and field metadata), which Kernel
        // requires of the data it writes; the names and types are the stream's, checked equal above.
        io.delta.kernel.types.StructType writeSchema = existing.map(SnapshotImpl::getSchema).orElse(kernelSchema);
        Transaction txn;
        try {
            txn = b.build(table.engine);
        } catch (ConcurrentTransactionException e) {
            LOG.info("Batch {} of query {} is already in the Delta table {}: skipped", batchId, appId, table.where);
            return BatchWriter.discarding(0);
        }
        return new Batch(batchId, txn, complete ? existing.map(this::removeAll).orElse(List.of()) : List.of(),
                notNull, writeSchema);
    }

    /**
     * A NOT NULL column of the table: its dotted name and the field ordinals from the top-level column down. A nested
     * one is violated by a null at any level of its path, a null parent struct included, as delta-spark's invariant
     * checker does; fields inside arrays and maps are not checked (delta-spark does not enforce those either).
     */
    private record NotNull(String name, int[] path) {
        boolean violatedBy(Row row) {
            Object v = row;
            for (int i : path) {
                v = v == null ? null : ((Row) v).get(i);
            }
            return v == null;
        }
    }

    private static List<NotNull> notNullColumns(io.delta.kernel.types.StructType tableSchema) {
        List<NotNull> out = new ArrayList<>();
        addNotNull(tableSchema, "", new int[0], out);
        return out;
    }

    private static void addNotNull(io.delta.kernel.types.StructType struct, String prefix, int[] parent,
                                   List<NotNull> out) {
        for (int i = 0; i < struct.length(); i++) {
            io.delta.kernel.types.StructField f = struct.at(i);
            int[] path = java.util.Arrays.copyOf(parent, parent.length + 1);
            path[parent.length] = i;
            if (!f.isNullable()) {
                out.add(new NotNull(prefix + f.getName(), path));
            }
            if (f.getDataType() instanceof io.delta.kernel.types.StructType nested) {
                addNotNull(nested, prefix + f.getName() + ".", path, out);
            }
        }
    }

    /**
     * Whether the table's type holds a NOT NULL position inside an array or a map (an element, a map value, a
     * struct field there): delta-spark leaves those unchecked, but Kernel's Parquet writer writes such a column as
     * required and a null there makes a file no reader can read, so rows are walked for them ({@link #nullInside}).
     */
    private static boolean notNullInside(io.delta.kernel.types.DataType t, boolean inside) {
        if (t instanceof io.delta.kernel.types.StructType st) {
            for (io.delta.kernel.types.StructField f : st.fields()) {
                if ((inside && !f.isNullable()) || notNullInside(f.getDataType(), inside)) {
                    return true;
                }
            }
        } else if (t instanceof io.delta.kernel.types.ArrayType a) {
            return !a.containsNull() || notNullInside(a.getElementType(), true);
        } else if (t instanceof io.delta.kernel.types.MapType m) {
            return !m.isValueContainsNull() || notNullInside(m.getKeyType(), true)
                    || notNullInside(m.getValueType(), true);
        }
        return false;
    }

    /** The path of the first null of {@code v} where the table's type {@code t} has none, or null. */
    private static String nullInside(Object v, io.delta.kernel.types.DataType t, String path) {
        if (t instanceof io.delta.kernel.types.StructType st) {
            Row r = (Row) v;
            for (int i = 0; i < st.length(); i++) {
                String found = nullOrInside(r.get(i), st.at(i).isNullable(), st.at(i).getDataType(),
                        path.isEmpty() ? st.at(i).getName() : path + "." + st.at(i).getName());
                if (found != null) {
                    return found;
                }
            }
        } else if (t instanceof io.delta.kernel.types.ArrayType a) {
            for (Object e : (List<?>) v) {
                String found = nullOrInside(e, a.containsNull(), a.getElementType(), path + ".element");
                if (found != null) {
                    return found;
                }
            }
        } else if (t instanceof io.delta.kernel.types.MapType m) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                String found = nullOrInside(e.getKey(), false, m.getKeyType(), path + ".key");
                found = found != null ? found
                        : nullOrInside(e.getValue(), m.isValueContainsNull(), m.getValueType(), path + ".value");
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static String nullOrInside(Object v, boolean nullable, io.delta.kernel.types.DataType t, String path) {
        if (v == null) {
            return nullable ? null : path;
        }
        return nullInside(v, t, path);
    }

    /** A remove action (dataChange) for every file of the snapshot: the overwrite of a complete-mode batch. */
    private List<io.delta.kernel.data.Row> removeAll(SnapshotImpl s) {
        List<io.delta.kernel.data.Row> removes = new ArrayList<>();
        Optional<Long> now = Optional.of(System.currentTimeMillis());
        try (CloseableIterator<FilteredColumnarBatch> it = s.getScanBuilder().build().getScanFiles(table.engine)) {
            while (it.hasNext()) {
                try (CloseableIterator<io.delta.kernel.data.Row> rows = it.next().getRows()) {
                    while (rows.hasNext()) {
                        io.delta.kernel.data.Row add = rows.next().getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL);
                        removes.add(SingleAction.createRemoveFileSingleAction(
                                new AddFile(add).toRemoveFileRow(true, now)));
                    }
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return removes;
    }

    private static List<String> lower(List<String> l) {
        return l.stream().map(s -> s.toLowerCase(java.util.Locale.ROOT)).toList();
    }

    @Override
    public String description() {
        return "DeltaSink[" + table.uri + "]";
    }

    @Override
    public void close() {
        table.close();
    }

    private final class Batch implements BatchWriter {
        private final long batchId;
        private final Transaction txn;
        private final List<io.delta.kernel.data.Row> removes;
        private final io.delta.kernel.data.Row txnState;
        private final List<String> partitionColumns;
        private final java.util.concurrent.atomic.AtomicLong rows = new java.util.concurrent.atomic.AtomicLong();
        private final List<NotNull> notNull;
        /** Whether rows are walked for nulls at NOT NULL positions inside arrays and maps (see notNullInside). */
        private final boolean walkInside;
        private final io.delta.kernel.types.StructType writeSchema;
        /** The column index of each partition column (of Kernel's, the table's names). */
        private final int[] partitionIndexes;

        Batch(long batchId, Transaction txn, List<io.delta.kernel.data.Row> removes, List<NotNull> notNull,
              io.delta.kernel.types.StructType writeSchema) {
            this.notNull = notNull;
            this.writeSchema = writeSchema;
            this.walkInside = notNullInside(writeSchema, false);
            this.batchId = batchId;
            this.txn = txn;
            this.removes = removes;
            this.txnState = txn.getTransactionState(table.engine);
            this.partitionColumns = txn.getPartitionColumns(table.engine);
            this.partitionIndexes = new int[partitionColumns.size()];
            for (int i = 0; i < partitionIndexes.length; i++) {
                partitionIndexes[i] = -1;
                for (int j = 0; j < writeSchema.length() && partitionIndexes[i] < 0; j++) {
                    if (writeSchema.at(j).getName().equalsIgnoreCase(partitionColumns.get(i))) {
                        partitionIndexes[i] = j;
                    }
                }
                if (partitionIndexes[i] < 0) { // Kernel's names are the table's own, so this is a broken table
                    throw new IllegalStateException("The Delta table " + table.where + " is partitioned by `"
                            + partitionColumns.get(i) + "`, which its schema does not hold");
                }
            }
        }

        @Override
        public PartitionWriter partitionWriter(int partitionId) {
            return new PartitionWriter() {
                private final Map<List<Object>, List<Object[]>> groups = new LinkedHashMap<>();

                @Override
                public void write(Row row) {
                    for (NotNull c : notNull) {
                        if (c.violatedBy(row)) {
                            throw new IllegalStateException("[DELTA_NOT_NULL_CONSTRAINT_VIOLATED] NOT NULL constraint "
                                    + "violated for column: " + c.name() + ".");
                        }
                    }
                    String inside = walkInside ? nullInside(row, writeSchema, "") : null;
                    if (inside != null) {
                        throw new IllegalStateException("The Delta table " + table.where + " declares `" + inside
                                + "` NOT NULL and a row holds a null there: Kernel's Parquet writer would write a "
                                + "file no reader can read");
                    }
                    List<Object> key = new ArrayList<>(partitionColumns.size());
                    for (int idx : partitionIndexes) {
                        key.add(row.get(idx));
                    }
                    groups.computeIfAbsent(key, k -> new ArrayList<>()).add(kernelRow(row));
                }

                @Override
                public Object commit() throws Exception {
                    List<io.delta.kernel.data.Row> actions = new ArrayList<>();
                    for (Map.Entry<List<Object>, List<Object[]>> g : groups.entrySet()) {
                        actions.addAll(writeFiles(g.getKey(), g.getValue()));
                        rows.addAndGet(g.getValue().size());
                    }
                    groups.clear();
                    return actions;
                }
            };
        }

        private List<io.delta.kernel.data.Row> writeFiles(List<Object> key, List<Object[]> data)
                throws java.io.IOException {
            Map<String, Literal> partitionValues = new HashMap<>();
            for (int i = 0; i < partitionColumns.size(); i++) {
                String c = partitionColumns.get(i);
                int idx = partitionIndexes[i];
                partitionValues.put(c, literal(key.get(i), schema.field(idx).dataType(),
                        writeSchema.at(idx).getDataType()));
            }
            FilteredColumnarBatch batch = new FilteredColumnarBatch(
                    new RowsBatch(writeSchema, data), Optional.empty());
            CloseableIterator<FilteredColumnarBatch> physical = Transaction.transformLogicalData(table.engine,
                    txnState, Utils.singletonCloseableIterator(batch), partitionValues);
            DataWriteContext ctx = Transaction.getWriteContext(table.engine, txnState, partitionValues);
            CloseableIterator<DataFileStatus> files = table.engine.getParquetHandler()
                    .writeParquetFiles(ctx.getTargetDirectory(), physical, ctx.getStatisticsColumns());
            List<io.delta.kernel.data.Row> out = new ArrayList<>();
            try (CloseableIterator<io.delta.kernel.data.Row> actions =
                         Transaction.generateAppendActions(table.engine, txnState, files, ctx)) {
                actions.forEachRemaining(out::add);
            }
            return out;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void commit(List<Object> partitionResults) throws Exception {
            List<io.delta.kernel.data.Row> actions = new ArrayList<>(removes);
            for (Object r : partitionResults) {
                if (r != null) {
                    actions.addAll((List<io.delta.kernel.data.Row>) r);
                }
            }
            try {
                io.delta.kernel.TransactionCommitResult result = txn.commit(table.engine,
                        CloseableIterable.inMemoryIterable(Utils.toCloseableIterator(actions.iterator())));
                long v = result.getVersion();
                LOG.debug("Batch {} of query {} committed as version {} of {}", batchId, appId, v, table.where);
                // Kernel leaves its post-commit work to the writer: without the checkpoint it asks for every
                // delta.checkpointInterval (10) commits, as delta-spark writes them, each later snapshot lists
                // and replays the log from version 0. A failed hook does not undo the commit.
                for (io.delta.kernel.hook.PostCommitHook hook : result.getPostCommitHooks()) {
                    try {
                        hook.threadSafeInvoke(table.engine);
                    } catch (java.io.IOException | RuntimeException e) {
                        LOG.warn("The {} hook after version {} of {} failed (the commit stands): {}",
                                hook.getType(), v, table.where, e.toString());
                    }
                }
            } catch (ConcurrentTransactionException e) {
                // Another writer with this query id committed this batch first: it is in the table once.
                LOG.info("Batch {} of query {} was committed to {} by another writer: this attempt is dropped",
                        batchId, appId, table.where);
                rows.set(0);
            }
        }

        @Override
        public long numOutputRows() {
            return rows.get();
        }
    }

    private Object[] kernelRow(Row row) {
        Object[] values = new Object[schema.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = DeltaTypes.kernelValue(row.get(i), schema.field(i).dataType());
        }
        return values;
    }

    private static Literal literal(Object v, DataType t, io.delta.kernel.types.DataType kt) {
        if (v == null) {
            return Literal.ofNull(kt);
        }
        if (t instanceof DecimalType d) {
            return Literal.ofDecimal((BigDecimal) v, d.precision(), d.scale());
        }
        return switch ((AtomicType) t) {
            case BOOLEAN_TYPE -> Literal.ofBoolean((Boolean) v);
            case BYTE_TYPE -> Literal.ofByte((Byte) v);
            case SHORT_TYPE -> Literal.ofShort((Short) v);
            case INT_TYPE -> Literal.ofInt((Integer) v);
            case LONG_TYPE -> Literal.ofLong((Long) v);
            case FLOAT_TYPE -> Literal.ofFloat((Float) v);
            case DOUBLE_TYPE -> Literal.ofDouble((Double) v);
            case STRING_TYPE -> Literal.ofString((String) v);
            case BINARY_TYPE -> Literal.ofBinary((byte[]) v);
            case DATE_TYPE -> Literal.ofDate((int) ((LocalDate) v).toEpochDay());
            case TIMESTAMP_TYPE -> Literal.ofTimestamp(DeltaTypes.toMicros((Instant) v));
        };
    }
}
