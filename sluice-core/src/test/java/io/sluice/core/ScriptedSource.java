package io.sluice.core;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test source whose data is a counter the test moves: offset N means rows 1..N exist, each row is its number.
 * Records every call the engine makes, so tests can assert the batch cycle. Options: {@code name} (the shared
 * state), {@code startingOffset} (initial offset, default 0), {@code maxRowsPerTrigger}, {@code numPartitions}
 * (default 2).
 */
final class ScriptedSource implements SourceProvider {
    static final StructType SCHEMA = StructType.of(StructField.of("value", DataType.longType()));
    private static final Map<String, State> STATES = new ConcurrentHashMap<>();

    /** The data and the call record of one named source, shared by every stream built with that name. */
    static final class State {
        volatile long available;
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        final List<String> readerThreads = Collections.synchronizedList(new ArrayList<>());
        volatile long failReadingAtRow = -1;
        /** Runs at each latestOffset call, e.g. to move a manual clock as if planning took time. */
        volatile Runnable onLatestOffset = () -> { };
        /** Runs when a reader is asked for its first row, on the reader's thread, e.g. to block it. */
        volatile Runnable onFirstRead = () -> { };
        /** As {@link #onFirstRead}, told which partition: to script partitions differently. */
        volatile java.util.function.Consumer<Range> onFirstReadOf = r -> { };
        /** Runs when a reader is closed, on the reader's thread: it has returned. */
        volatile java.util.function.Consumer<Range> onReaderClosed = r -> { };

        void add(long rows) {
            available += rows;
        }

        List<String> calls() {
            synchronized (calls) {
                return List.copyOf(calls);
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
        return "scripted";
    }

    @Override
    public Optional<StructType> fixedSchema(Options options) {
        options.require("name");
        return Optional.of(SCHEMA);
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        Options o = context.options();
        return new Stream(state(o.require("name")), o.getLong("startingOffset", 0),
                o.getLong("maxRowsPerTrigger").orElse(null), o.getInt("numPartitions", 2));
    }

    record Range(long from, long to) implements InputPartition {
    }

    private static final class Stream implements SupportsTriggerAvailableNow {
        private final State state;
        private final long startingOffset;
        private final Long maxRows;
        private final int partitions;
        private Long target;

        Stream(State state, long startingOffset, Long maxRows, int partitions) {
            this.state = state;
            this.startingOffset = startingOffset;
            this.maxRows = maxRows;
            this.partitions = partitions;
        }

        @Override
        public Offset initialOffset() {
            state.calls.add("initialOffset");
            return Offset.of(Long.toString(startingOffset));
        }

        @Override
        public Offset deserializeOffset(String json) {
            return Offset.of(json);
        }

        @Override
        public ReadLimit defaultReadLimit() {
            return maxRows == null ? ReadLimit.allAvailable() : ReadLimit.maxRows(maxRows);
        }

        @Override
        public void prepareForTriggerAvailableNow() {
            state.calls.add("prepareForTriggerAvailableNow");
            target = state.available;
        }

        @Override
        public Offset latestOffset(Offset start, ReadLimit limit) {
            state.calls.add("latestOffset(" + start.json() + ")");
            state.onLatestOffset.run();
            long from = Long.parseLong(start.json());
            long end = target != null ? target : state.available;
            if (limit instanceof ReadLimit.MaxRows m) {
                end = Math.min(end, from + m.rows());
            }
            return end <= from ? null : Offset.of(Long.toString(end));
        }

        @Override
        public Offset reportLatestOffset() {
            return Offset.of(Long.toString(state.available));
        }

        @Override
        public List<InputPartition> planPartitions(Offset start, Offset end) {
            state.calls.add("planPartitions(" + start.json() + "," + end.json() + ")");
            long from = Long.parseLong(start.json());
            long to = Long.parseLong(end.json());
            List<InputPartition> out = new ArrayList<>();
            long size = (to - from + partitions - 1) / partitions;
            for (long s = from; s < to; s += size) {
                out.add(new Range(s, Math.min(to, s + size)));
            }
            return out;
        }

        @Override
        public PartitionReader createReader(InputPartition partition) {
            Range r = (Range) partition;
            state.readerThreads.add(Thread.currentThread().getName());
            return new PartitionReader() {
                long next = r.from();

                @Override
                public boolean next() {
                    if (next == r.from()) {
                        state.onFirstRead.run();
                        state.onFirstReadOf.accept(r);
                    }
                    if (next >= r.to()) {
                        return false;
                    }
                    next++;
                    if (next == state.failReadingAtRow) {
                        throw new IllegalStateException("scripted read failure at row " + next);
                    }
                    return true;
                }

                @Override
                public Row get() {
                    return Row.of(next);
                }

                @Override
                public void close() {
                    state.onReaderClosed.accept(r);
                }
            };
        }

        @Override
        public void commit(Offset end) {
            state.calls.add("commit(" + end.json() + ")");
        }

        @Override
        public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
            long consumed = latestConsumedOffset.map(o -> Long.parseLong(o.json())).orElse(0L);
            return Map.of("rowsBehindLatest", Long.toString(state.available - consumed));
        }

        @Override
        public void stop() {
            state.calls.add("stop");
        }

        @Override
        public String description() {
            return "ScriptedSource[startingOffset=" + startingOffset + "]";
        }
    }
}
