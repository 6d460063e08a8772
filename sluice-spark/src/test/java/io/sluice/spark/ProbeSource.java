package io.sluice.spark;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@code format("probe")}: batches 1, 2 and 3 (offsets "1".."3"), each of three partitions of one row
 * {@code batch * 10 + partition}; records every stream it makes and every stop, to count the executors' streams.
 */
public final class ProbeSource implements SourceProvider {
    static final StructType SCHEMA = StructType.fromDDL("v bigint");
    static final Queue<StreamContext> MADE = new ConcurrentLinkedQueue<>();
    static final Queue<StreamContext> STOPPED = new ConcurrentLinkedQueue<>();

    @Override
    public String shortName() {
        return "probe";
    }

    @Override
    public Optional<StructType> fixedSchema(io.sluice.api.Options options) {
        return Optional.of(SCHEMA);
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        MADE.add(context);
        return new MicroBatchStream() {
            @Override
            public Offset initialOffset() {
                return Offset.of("0");
            }

            @Override
            public Offset deserializeOffset(String json) {
                return Offset.of(json);
            }

            @Override
            public Offset latestOffset(Offset start, ReadLimit limit) {
                return Offset.of(Long.toString(Math.min(3, Long.parseLong(start.json()) + 1)));
            }

            @Override
            public List<InputPartition> planPartitions(Offset start, Offset end) {
                long batch = Long.parseLong(end.json());
                return List.of(new Part(batch, 0), new Part(batch, 1), new Part(batch, 2));
            }

            @Override
            public PartitionReader createReader(InputPartition partition) {
                Part p = (Part) partition;
                return new PartitionReader() {
                    private boolean done;

                    @Override
                    public boolean next() {
                        boolean has = !done;
                        done = true;
                        return has;
                    }

                    @Override
                    public Row get() {
                        return Row.of(p.batch() * 10 + p.index());
                    }

                    @Override
                    public void close() {
                    }
                };
            }

            @Override
            public void stop() {
                STOPPED.add(context);
            }
        };
    }

    record Part(long batch, int index) implements InputPartition {
    }
}
