package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test sink that keeps each committed batch by id (a re-run replaces it: idempotent) and records every batch
 * it was asked to write. Option {@code name} selects the shared state; the test can make a batch fail.
 */
final class RecordingSink implements SinkProvider {
    private static final Map<String, State> STATES = new ConcurrentHashMap<>();

    static final class State {
        final Map<Long, List<Row>> committed = Collections.synchronizedMap(new TreeMap<>());
        final List<Long> begun = Collections.synchronizedList(new ArrayList<>());
        final List<Long> aborted = Collections.synchronizedList(new ArrayList<>());
        volatile long failBatch = -1;
        /** Blocks batch commits until released, to stop a query in the middle of a batch. */
        volatile java.util.concurrent.CountDownLatch gate;

        List<Row> allRows() {
            synchronized (committed) {
                List<Row> out = new ArrayList<>();
                committed.values().forEach(out::addAll);
                return out;
            }
        }
    }

    static State state(String name) {
        return STATES.computeIfAbsent(name, n -> new State());
    }

    static void reset(String name) {
        STATES.remove(name);
    }

    @Override
    public String shortName() {
        return "recording";
    }

    @Override
    public void validate(Options options) {
        options.require("name");
    }

    @Override
    public Sink createSink(SinkContext context) {
        State state = state(context.options().require("name"));
        return new Sink() {
            @Override
            public BatchWriter beginBatch(long batchId) {
                state.begun.add(batchId);
                List<List<Row>> parts = Collections.synchronizedList(new ArrayList<>());
                return new BatchWriter() {
                    @Override
                    public PartitionWriter partitionWriter(int partitionId) {
                        List<Row> rows = new ArrayList<>();
                        return new PartitionWriter() {
                            @Override
                            public void write(Row row) {
                                if (state.failBatch == batchId) {
                                    throw new IllegalStateException("sink failure in batch " + batchId);
                                }
                                rows.add(row);
                            }

                            @Override
                            public Object commit() {
                                return rows;
                            }
                        };
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public void commit(List<Object> partitionResults) throws InterruptedException {
                        if (state.gate != null) {
                            state.gate.await();
                        }
                        List<Row> all = new ArrayList<>();
                        partitionResults.forEach(r -> all.addAll((List<Row>) r));
                        state.committed.put(batchId, all);
                    }

                    @Override
                    public void abort(Throwable cause) {
                        state.aborted.add(batchId);
                    }

                    @Override
                    public long numOutputRows() {
                        List<Row> rows = state.committed.get(batchId);
                        return rows == null ? -1 : rows.size();
                    }
                };
            }

            @Override
            public String description() {
                return "RecordingSink";
            }
        };
    }
}
