package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.core.CrashChildMain.CrashPoint;

import java.util.List;

/**
 * A real sink with crash points ({@link CrashChildMain#crashIf}) in the middle of its partition writes (after a
 * quarter of a batch per partition) and after its batch commit, before the engine writes {@code commits/N}: shared by
 * the crash tests of the file sink and of the Kafka sink.
 */
final class CrashingSink implements SinkProvider {
    private final SinkProvider delegate;

    CrashingSink(SinkProvider delegate) {
        this.delegate = delegate;
    }

    @Override
    public String shortName() {
        return "crashing-" + delegate.shortName();
    }

    @Override
    public void validate(Options options) {
        delegate.validate(options);
    }

    @Override
    public Sink createSink(SinkContext context) {
        Sink sink = delegate.createSink(context);
        return new Sink() {
            @Override
            public BatchWriter beginBatch(long batchId) {
                return beginBatch(BatchInfo.unknown(context.queryId(), batchId));
            }

            @Override
            public BatchWriter beginBatch(BatchInfo info) {
                // The identity goes through, so the crash tests also check a re-run's range against the record.
                long batchId = info.batchId();
                BatchWriter w = sink.beginBatch(info);
                return new BatchWriter() {
                    @Override
                    public PartitionWriter partitionWriter(int partitionId) {
                        PartitionWriter pw = w.partitionWriter(partitionId);
                        return new PartitionWriter() {
                            private int written;

                            @Override
                            public void write(Row row) throws Exception {
                                pw.write(row);
                                if (++written == CrashChildMain.ROWS_PER_BATCH / 4) {
                                    CrashChildMain.crashIf(CrashPoint.DURING_SINK_WRITE, batchId);
                                }
                            }

                            @Override
                            public Object commit() throws Exception {
                                return pw.commit();
                            }

                            @Override
                            public void abort() {
                                pw.abort();
                            }
                        };
                    }

                    @Override
                    public void commit(List<Object> partitionResults) throws Exception {
                        w.commit(partitionResults);
                        CrashChildMain.crashIf(CrashPoint.BEFORE_COMMIT_LOG, batchId);
                    }

                    @Override
                    public void abort(Throwable cause) {
                        w.abort(cause);
                    }

                    @Override
                    public long numOutputRows() {
                        return w.numOutputRows();
                    }
                };
            }

            @Override
            public String description() {
                return sink.description();
            }

            @Override
            public void close() throws Exception {
                sink.close();
            }
        };
    }
}
