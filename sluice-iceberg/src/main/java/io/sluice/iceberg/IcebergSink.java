package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.parquet.InternalWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run of the Iceberg sink. Each partition writer writes Parquet data files (one per table partition it sees);
 * the batch's commit is one fast append carrying iceberg-spark's summary keys {@code spark.sql.streaming.queryId}
 * and {@code spark.sql.streaming.epochId}. Before committing, the current snapshot's ancestors are walked to the
 * first one written by this query: a batch id at or below its epoch id was committed already (a re-run after a
 * crash between the table's commit and {@code commits/N}) and is skipped, as iceberg-spark's SparkWrite does.
 * Iceberg retries a commit that lost a race ({@code commit.retry.num-retries}) by re-applying the append on the
 * new metadata; only this query writes its query id, so that retry cannot apply a batch twice. In the
 * {@code complete} output mode the commit is an overwrite of every row ({@code overwriteByRowFilter(true)}) with the
 * same summary keys and the same check, as iceberg-spark's streaming overwrite.
 */
final class IcebergSink implements Sink {
    static final String QUERY_ID = "spark.sql.streaming.queryId";
    static final String EPOCH_ID = "spark.sql.streaming.epochId";
    private static final Logger LOG = LoggerFactory.getLogger(IcebergSink.class);

    private final SinkContext context;
    private final IcebergTables tables;
    private final Table table;
    private final StructType rowType;
    private final Types.StructType struct;
    private final AtomicLong fileCount = new AtomicLong();

    IcebergSink(SinkContext context) {
        this.context = context;
        this.tables = IcebergTables.of(context.options(), context.storageConf());
        this.rowType = context.schema();
        Schema streamSchema = IcebergSchemas.toIceberg(rowType);
        PartitionSpec.Builder spec = PartitionSpec.builderFor(streamSchema);
        for (String col : IcebergOptions.SINK.get(context.options(), IcebergOptions.PARTITION_BY).map(v -> v.split(","))
                .orElse(new String[0])) {
            if (!col.isBlank()) {
                if (streamSchema.findField(col.trim()) == null) {
                    throw new IllegalArgumentException("partitionBy column '" + col.trim() + "' is not in the "
                            + "stream's schema (" + rowType.toDDL() + ")");
                }
                spec.identity(col.trim());
            }
        }
        this.table = tables.loadOrCreate(streamSchema, spec.build());
        this.struct = table.schema().asStruct();
        for (StructField f : rowType.fields()) {
            if (struct.field(f.name()) == null) {
                throw new IllegalArgumentException("Cannot write to table " + tables.describe() + ": the stream's "
                        + "column '" + f.name() + "' is not in the table's schema (" + table.schema() + ")");
            }
        }
    }

    @Override
    public BatchWriter beginBatch(long batchId) {
        return beginBatch(BatchInfo.unknown(context.queryId(), batchId));
    }

    @Override
    public BatchWriter beginBatch(BatchInfo batch) {
        return new IcebergBatch(batch.batchId());
    }

    private final class IcebergBatch implements BatchWriter {
        private final long batchId;
        private final AtomicLong rows = new AtomicLong();

        IcebergBatch(long batchId) {
            this.batchId = batchId;
        }

        @Override
        public PartitionWriter partitionWriter(int partitionId) {
            OutputFileFactory files = OutputFileFactory.builderFor(table, partitionId, fileCount.incrementAndGet())
                    .format(FileFormat.PARQUET).operationId(context.queryId() + "-" + batchId).build();
            PartitionSpec spec = table.spec();
            PartitionKey key = new PartitionKey(spec, table.schema());
            RowStruct view = RowStruct.of(rowType, struct);
            // One open data file per table partition this writer sees (a fan-out), closed at commit.
            Map<PartitionKey, DataWriter<StructLike>> writers = new HashMap<>();
            return new PartitionWriter() {
                @Override
                public void write(Row row) {
                    view.wrap(row);
                    DataWriter<StructLike> w;
                    if (spec.isUnpartitioned()) {
                        w = writers.get(null);
                        if (w == null) {
                            w = newDataWriter(files.newOutputFile(), null);
                            writers.put(null, w);
                        }
                    } else {
                        key.partition(view);
                        w = writers.get(key);
                        if (w == null) {
                            PartitionKey copy = key.copy();
                            w = newDataWriter(files.newOutputFile(spec, copy), copy);
                            writers.put(copy, w);
                        }
                    }
                    w.write(view);
                    rows.incrementAndGet();
                }

                @Override
                public Object commit() throws IOException {
                    List<DataFile> out = new ArrayList<>();
                    for (DataWriter<StructLike> w : writers.values()) {
                        w.close();
                        out.add(w.toDataFile());
                    }
                    return out;
                }

                @Override
                public void abort() {
                    for (DataWriter<StructLike> w : writers.values()) {
                        try {
                            w.close();
                            table.io().deleteFile(w.toDataFile().location());
                        } catch (IOException | RuntimeException e) {
                            LOG.warn("Could not remove a file of an aborted partition of batch {}", batchId, e);
                        }
                    }
                }
            };
        }

        @Override
        public void commit(List<Object> partitionResults) {
            table.refresh();
            long committed = lastCommittedEpoch();
            if (batchId <= committed) {
                LOG.info("Batch {} of query {} is already in Iceberg table {} (its latest epoch is {}): skipped",
                        batchId, context.queryId(), tables.describe(), committed);
                return;
            }
            List<DataFile> files = new ArrayList<>();
            for (Object r : partitionResults) {
                @SuppressWarnings("unchecked")
                List<DataFile> part = (List<DataFile>) r;
                files.addAll(part);
            }
            if ("complete".equals(context.outputMode())) {
                // iceberg-spark's streaming complete mode: an overwrite of every row by the batch's files. On a
                // lost race Iceberg re-applies the filter on the new metadata, so the result is still this batch.
                OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(Expressions.alwaysTrue());
                files.forEach(overwrite::addFile);
                overwrite.set(QUERY_ID, context.queryId()).set(EPOCH_ID, Long.toString(batchId)).commit();
                return;
            }
            AppendFiles append = table.newFastAppend();
            files.forEach(append::appendFile);
            append.set(QUERY_ID, context.queryId()).set(EPOCH_ID, Long.toString(batchId)).commit();
        }

        @Override
        public long numOutputRows() {
            return rows.get();
        }
    }

    /**
     * GenericAppenderFactory's Parquet data writer (the table's schema, spec and write properties), writing the rows' {@link RowStruct} views with InternalWriter instead of generic records.
     */
    private DataWriter<StructLike> newDataWriter(EncryptedOutputFile file, StructLike partition) {
        try {
            // The table's write properties (write.parquet.compression-codec, row group and page sizes, the
            // write.metadata.metrics.* modes), as iceberg-spark's writer applies them.
            FileAppender<StructLike> appender = Parquet.write(file).schema(table.schema())
                    .createWriterFunc(InternalWriter::createWriter)
                    .setAll(table.properties())
                    .metricsConfig(MetricsConfig.forTable(table))
                    .overwrite().build();
            return new DataWriter<>(appender, FileFormat.PARQUET, file.encryptingOutputFile().location(),
                    table.spec(), partition, file.keyMetadata());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The epoch id of this query's newest commit among the current snapshot's ancestors, or -1. */
    private long lastCommittedEpoch() {
        if (table.currentSnapshot() == null) {
            return -1;
        }
        for (Snapshot s : SnapshotUtil.currentAncestors(table)) {
            if (context.queryId().equals(s.summary().get(QUERY_ID))) {
                String epoch = s.summary().get(EPOCH_ID);
                return epoch == null ? -1 : Long.parseLong(epoch);
            }
        }
        return -1;
    }

    @Override
    public String description() {
        return "IcebergSink[" + tables.describe() + "]";
    }

    @Override
    public void close() throws IOException {
        tables.close();
    }
}
