package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceReader;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.api.datasource.SupportsAvailableNow;
import io.sluice.api.source.InputPartition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;

/**
 * A high-level test source, registered through META-INF/services: rows 1..available of a named shared counter,
 * offsets {@code {"n":N}}, two partitions per batch, {@code maxRowsPerBatch} as a read limit, availableNow.
 */
public final class CounterDataSource implements DataSource {
    private static final Map<String, State> STATES = new ConcurrentHashMap<>();

    static final class State {
        volatile long available;
        /** Reads of a partition holding this row fail while failures > 0. */
        volatile long failAtRow = -1;
        volatile int failures;
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    }

    static State state(String name) {
        return STATES.computeIfAbsent(name, n -> new State());
    }

    static void reset(String name) {
        STATES.remove(name);
    }

    record Pos(long n) {
    }

    record Slice(long from, long to) implements InputPartition {
    }

    @Override
    public String name() {
        return "counter";
    }

    @Override
    public String schemaDdl(Options options) {
        options.require("name");
        options.getLong("maxRowsPerBatch", 1);
        return "n bigint, label string";
    }

    @Override
    public DataSourceStreamReader<?> streamReader(DataSourceContext context) {
        return new Reader(state(context.options().require("name")), context.options().getLong("maxRowsPerBatch"));
    }

    @Override
    public DataSourceReader reader(DataSourceContext context) {
        State s = state(context.options().require("name"));
        long upTo = s.available;
        return new DataSourceReader() {
            @Override
            public List<? extends InputPartition> partitions() {
                return List.of(new Slice(0, upTo / 2), new Slice(upTo / 2, upTo));
            }

            @Override
            public Iterator<Row> read(InputPartition partition) {
                Slice sl = (Slice) partition;
                return rows(sl.from(), sl.to());
            }
        };
    }

    static Iterator<Row> rows(long from, long to) {
        return LongStream.rangeClosed(from + 1, to).mapToObj(n -> Row.of(n, "r" + n)).iterator();
    }

    static final class Reader implements DataSourceStreamReader<Pos>, SupportsAvailableNow {
        private final State state;
        private final Long maxRows;
        private Long target;

        Reader(State state, java.util.Optional<Long> maxRows) {
            this.state = state;
            this.maxRows = maxRows.orElse(null);
        }

        @Override
        public Class<?> offsetType() {
            return Pos.class;
        }

        @Override
        public Pos initialOffset() {
            state.calls.add("initialOffset");
            return new Pos(0);
        }

        @Override
        public Pos latestOffset() {
            return new Pos(target != null ? target : state.available);
        }

        @Override
        public Pos latestOffset(Pos start, ReadLimit limit) {
            state.calls.add("latestOffset(" + start.n() + ")");
            long end = latestOffset().n();
            if (limit instanceof ReadLimit.MaxRows m) {
                end = Math.min(end, start.n() + m.rows());
            }
            return new Pos(Math.max(end, start.n()));
        }

        @Override
        public ReadLimit defaultReadLimit() {
            return maxRows == null ? ReadLimit.allAvailable() : ReadLimit.maxRows(maxRows);
        }

        @Override
        public Pos reportLatestOffset() {
            return new Pos(state.available);
        }

        @Override
        public void prepareForTriggerAvailableNow() {
            state.calls.add("prepareForTriggerAvailableNow");
            target = state.available;
        }

        @Override
        public List<Slice> partitions(Pos start, Pos end) {
            state.calls.add("partitions(" + start.n() + "," + end.n() + ")");
            long mid = (start.n() + end.n()) / 2;
            return List.of(new Slice(start.n(), mid), new Slice(mid, end.n()));
        }

        @Override
        public Iterator<Row> read(InputPartition partition) {
            Slice s = (Slice) partition;
            if (state.failures > 0 && s.from() < state.failAtRow && state.failAtRow <= s.to()) {
                state.failures--;
                throw new IllegalStateException("counter unavailable at row " + state.failAtRow);
            }
            return rows(s.from(), s.to());
        }

        @Override
        public void commit(Pos end) {
            state.calls.add("commit(" + end.n() + ")");
        }

        @Override
        public void stop() {
            state.calls.add("stop");
        }
    }
}
