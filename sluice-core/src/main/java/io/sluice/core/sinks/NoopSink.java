package io.sluice.core.sinks;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;

import java.util.List;

/** The {@code noop} sink: reads every row and keeps none, counting them for progress. For benchmarks. */
public final class NoopSink implements Sink {

    @Override
    public BatchWriter beginBatch(long batchId) {
        return new BatchWriter() {
            private volatile long numOutputRows = -1;

            @Override
            public PartitionWriter partitionWriter(int partitionId) {
                return new Counter();
            }

            @Override
            public void commit(List<Object> partitionResults) {
                long n = 0;
                for (Object r : partitionResults) {
                    if (r instanceof Long c) {
                        n += c;
                    }
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
        return "NoopSink";
    }

    @Override
    public void close() {
    }

    private static final class Counter implements PartitionWriter {
        private long count;

        @Override
        public void write(Row row) {
            count++;
        }

        @Override
        public Object commit() {
            return count;
        }

        @Override
        public void abort() {
            count = 0;
        }
    }
}
