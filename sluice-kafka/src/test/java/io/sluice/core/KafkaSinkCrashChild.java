package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.kafka.KafkaSinkProvider;

import java.util.List;

/**
 * The process {@link KafkaSinkCrashTest} kills: rate-micro-batch (100 rows a batch, 2 partitions) into the Kafka
 * sink with {@code exactlyOnce=true}, each row's value the rate's value as text. Halts at the crash point of the
 * chosen batch (in the middle of a partition's sends, or after the sink's commit and before commits/N, or at the
 * engine's points); prints {@code batch N} per batch; stops cleanly on {@code stop} from stdin.
 *
 * <p>Arguments: checkpoint folder, bootstrap servers, topic, crash point, batch.
 */
public final class KafkaSinkCrashChild {
    private KafkaSinkCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        String checkpoint = args[0];
        String bootstrap = args[1];
        String topic = args[2];
        CrashChildMain.arm(CrashPoint.valueOf(args[3]), Long.parseLong(args[4]));
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.registerSource(new CrashChildMain.CrashingRate()).registerSink(new CrashingKafka());
            sluice.addListener(new StreamingQueryListener() {
                @Override
                public void onQueryStarted(QueryStartedEvent event) {
                }

                @Override
                public void onQueryProgress(QueryProgressEvent event) {
                    System.out.println("batch " + event.progress().batchId());
                    System.out.flush();
                }

                @Override
                public void onQueryTerminated(QueryTerminatedEvent event) {
                }
            });
            StreamingQuery q = sluice.readStream().format("crashing-rate")
                    .option("rowsPerBatch", CrashChildMain.ROWS_PER_BATCH).option("numPartitions", 2).load()
                    .selectExpr("CAST(value AS STRING) AS value")
                    .writeStream().format("crashing-kafka").option("kafka.bootstrap.servers", bootstrap)
                    .option("topic", topic).option("exactlyOnce", "true")
                    .option("checkpointLocation", checkpoint).start();
            CrashChildMain.stopOnWord(q);
            try {
                q.awaitTermination();
            } catch (StreamingQueryException e) {
                e.printStackTrace();
                System.exit(2); // the parent sees the failure rather than waiting for a batch that never comes
            }
        }
    }

    /** The real Kafka sink with crash points in the middle of its partition writes and after its commit. */
    static final class CrashingKafka implements SinkProvider {
        private final KafkaSinkProvider delegate = new KafkaSinkProvider();

        @Override
        public String shortName() {
            return "crashing-kafka";
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
                    BatchWriter w = sink.beginBatch(batchId);
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
                public void close() throws Exception {
                    sink.close();
                }
            };
        }
    }
}
