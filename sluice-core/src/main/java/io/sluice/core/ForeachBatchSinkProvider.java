package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.types.StructType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The sink behind {@link DataStreamWriter#foreachBatch}: gathers each batch's rows (partitions in order) and calls
 * the function once, on the query thread, when every partition has been read. The batch is committed only when
 * the function returns.
 */
final class ForeachBatchSinkProvider implements SinkProvider {
    /** The options of foreach and foreachBatch. */
    static final OptionSet OPTIONS = OptionSet.of(OptionDef.string("partitionBy",
            "refused: these sinks cannot partition"));
    private final ForeachBatchFunction function;

    ForeachBatchSinkProvider(ForeachBatchFunction function) {
        this.function = Objects.requireNonNull(function, "function");
    }

    /** Takes every output mode, as Spark's equivalent sink. */
    @Override
    public boolean supportsOutputMode(String mode) {
        return true;
    }

    @Override
    public String shortName() {
        return "foreachBatch";
    }

    /** Only the engine's writer options; {@code partitionBy} is declared so that it is refused by name. */
    @Override
    public OptionSet options() {
        return ForeachBatchSinkProvider.OPTIONS;
    }

    @Override
    public void validate(Options options) {
        notPartitioned("foreachBatch", options);
    }

    static void notPartitioned(String sink, Options options) {
        options.get("partitionBy").filter(v -> !v.isBlank()).ifPresent(v -> {
            throw new InvalidOptionException("partitionBy", v, "'" + sink + "' does not support partitioning", true);
        });
    }

    @Override
    public Sink createSink(SinkContext context) {
        StructType schema = context.schema();
        return new Sink() {
            @Override
            public BatchWriter beginBatch(long batchId) {
                return beginBatch(BatchInfo.unknown(context.queryId(), batchId));
            }

            @Override
            public BatchWriter beginBatch(BatchInfo info) {
                long batchId = info.batchId();
                return new BatchWriter() {
                    @Override
                    public PartitionWriter partitionWriter(int partitionId) {
                        return new PartitionWriter() {
                            private final List<Row> rows = new ArrayList<>();

                            @Override
                            public void write(Row row) {
                                rows.add(row.schema() == null ? row.attach(schema) : row);
                            }

                            @Override
                            public Object commit() {
                                return rows;
                            }
                        };
                    }

                    @Override
                    public void commit(List<Object> partitionResults) throws Exception {
                        int n = 0;
                        for (Object r : partitionResults) {
                            n += ((List<?>) r).size();
                        }
                        List<Row> all = new ArrayList<>(n);
                        for (Object r : partitionResults) {
                            @SuppressWarnings("unchecked")
                            List<Row> part = (List<Row>) r;
                            all.addAll(part);
                        }
                        function.call(new BatchData(schema, all, info), batchId);
                    }
                };
            }

            @Override
            public String description() {
                return "ForeachBatchSink";
            }
        };
    }
}
