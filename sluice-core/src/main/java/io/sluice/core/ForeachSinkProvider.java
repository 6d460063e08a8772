package io.sluice.core;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.types.StructType;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The sink behind {@link DataStreamWriter#foreach}: one {@link ForeachWriter} per partition of each batch (from
 * the supplier; the same instance when the user gave one), driven as Spark's ForeachDataWriter drives it.
 */
final class ForeachSinkProvider implements SinkProvider {
    private final Supplier<? extends ForeachWriter> writers;

    ForeachSinkProvider(Supplier<? extends ForeachWriter> writers) {
        this.writers = Objects.requireNonNull(writers, "writers");
    }

    /** Takes every output mode, as Spark's equivalent sink. */
    @Override
    public boolean supportsOutputMode(String mode) {
        return true;
    }

    @Override
    public String shortName() {
        return "foreach";
    }

    /** Only the engine's writer options; {@code partitionBy} is declared so that it is refused by name. */
    @Override
    public OptionSet options() {
        return ForeachBatchSinkProvider.OPTIONS;
    }

    @Override
    public void validate(Options options) {
        ForeachBatchSinkProvider.notPartitioned("foreach", options);
    }

    @Override
    public Sink createSink(SinkContext context) {
        StructType schema = context.schema();
        return new Sink() {
            @Override
            public BatchWriter beginBatch(long batchId) {
                return new BatchWriter() {
                    private volatile long numOutputRows = -1;

                    @Override
                    public PartitionWriter partitionWriter(int partitionId) {
                        ForeachWriter w = Objects.requireNonNull(writers.get(),
                                "The ForeachWriter supplier returned null");
                        return new Partition(w, partitionId, batchId, schema);
                    }

                    @Override
                    public void commit(List<Object> partitionResults) {
                        long n = 0;
                        for (Object r : partitionResults) {
                            n += (Long) r;
                        }
                        numOutputRows = n;
                    }

                    @Override
                    public long numOutputRows() {
                        return numOutputRows;
                    }
                };
            }

            @Override
            public String description() {
                return "ForeachSink";
            }
        };
    }

    private static final class Partition implements PartitionWriter {
        private final ForeachWriter writer;
        private final StructType schema;
        private final boolean opened;
        private Throwable error;
        private boolean closed;
        private long rows;

        Partition(ForeachWriter writer, int partitionId, long batchId, StructType schema) {
            this.writer = writer;
            this.schema = schema;
            try {
                this.opened = writer.open(partitionId, batchId);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("ForeachWriter.open failed for partition " + partitionId
                        + " of batch " + batchId + ": " + e, e);
            }
        }

        @Override
        public void write(Row row) throws Exception {
            if (!opened) {
                return;
            }
            try {
                writer.process(row.schema() == null ? row.attach(schema) : row);
                rows++;
            } catch (Exception | Error e) {
                error = e;
                throw e;
            }
        }

        @Override
        public Object commit() throws Exception {
            close();
            return rows;
        }

        @Override
        public void abort() {
            if (error == null) {
                error = new IllegalStateException("Foreach writer has been aborted due to a task failure");
            }
            try {
                close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("ForeachWriter.close failed: " + e, e);
            }
        }

        private void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            writer.close(error);
        }
    }
}
