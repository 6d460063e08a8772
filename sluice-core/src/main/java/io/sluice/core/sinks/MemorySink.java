package io.sluice.core.sinks;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code memory} sink: keeps each committed batch in memory under the query's name, for tests (the twin of
 * Spark's MemorySink, whose table is named after the query). Read it with {@link #rows(String)} and
 * {@link #batches(String)}.
 *
 * <p>A batch becomes visible only when the engine commits it, all partitions at once. A batch id at or below the
 * last one committed is ignored, as Spark's MemorySink does, so re-running a batch after a crash leaves the same
 * result as running it once. The table lives as long as the JVM: a restart of the same query (same checkpoint,
 * hence same query id) keeps adding to it, while another query under the same name starts it afresh.
 */
public final class MemorySink implements Sink {
    private static final Logger LOG = LoggerFactory.getLogger(MemorySink.class);
    private static final Map<String, Table> TABLES = new ConcurrentHashMap<>();

    private final String name;
    private final Table table;

    private MemorySink(String name, Table table) {
        this.name = name;
        this.table = table;
    }

    static MemorySink create(SinkContext context) {
        String name = context.queryName();
        if (name == null || name.isBlank()) {
            throw new InvalidOptionException("queryName", name, "queryName must be specified for memory sink", true);
        }
        String queryId = context.queryId();
        Table table = TABLES.compute(name,
                (k, old) -> old != null && old.queryId != null && old.queryId.equals(queryId) ? old : new Table(queryId));
        synchronized (table) {
            table.complete = "complete".equals(context.outputMode());
        }
        return new MemorySink(name, table);
    }

    /**
     * All committed rows of the named table: batches in id order, each batch's partitions in order; in the
     * {@code complete} output mode the last batch only (it holds the whole result), as Spark's memory sink.
     */
    public static List<Row> rows(String name) {
        Table t = TABLES.get(name);
        if (t == null) {
            return List.of();
        }
        synchronized (t) {
            List<Row> out = new ArrayList<>();
            if (t.complete) {
                return t.batches.isEmpty() ? List.of() : t.batches.lastEntry().getValue();
            }
            t.batches.values().forEach(out::addAll);
            return Collections.unmodifiableList(out);
        }
    }

    /** The committed batches of the named table, by batch id in ascending order. */
    public static Map<Long, List<Row>> batches(String name) {
        Table t = TABLES.get(name);
        if (t == null) {
            return Map.of();
        }
        synchronized (t) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(t.batches));
        }
    }

    /** The id of the last batch committed to the named table, if any. */
    public static OptionalLong latestBatchId(String name) {
        Table t = TABLES.get(name);
        if (t == null) {
            return OptionalLong.empty();
        }
        synchronized (t) {
            return t.batches.isEmpty() ? OptionalLong.empty() : OptionalLong.of(t.batches.lastKey());
        }
    }

    /**
     * Drops the rows of the named table. A query still writing to it goes on adding new batches (ids above the
     * last one it committed).
     */
    public static void clear(String name) {
        Table t = TABLES.get(name);
        if (t != null) {
            synchronized (t) {
                t.batches.clear();
            }
        }
    }

    @Override
    public BatchWriter beginBatch(long batchId) {
        return new Writer(batchId);
    }

    @Override
    public String description() {
        return "MemorySink";
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "MemorySink[" + name + "]";
    }

    private static final class Table {
        final String queryId;
        // Guarded by this.
        final TreeMap<Long, List<Row>> batches = new TreeMap<>();
        long lastBatchId = -1;
        boolean complete;

        Table(String queryId) {
            this.queryId = queryId;
        }
    }

    private final class Writer implements BatchWriter {
        private final long batchId;
        private volatile long numOutputRows = -1;

        Writer(long batchId) {
            this.batchId = batchId;
        }

        @Override
        public PartitionWriter partitionWriter(int partitionId) {
            return new PartitionWriter() {
                private List<Row> rows = new ArrayList<>();

                @Override
                public void write(Row row) {
                    // The table keeps rows for the query's life: a filtered few must not keep their sources' blocks.
                    rows.add(row.copy());
                }

                @Override
                public Object commit() {
                    List<Row> out = Collections.unmodifiableList(rows);
                    rows = new ArrayList<>();
                    return out;
                }

                @Override
                public void abort() {
                    rows = new ArrayList<>();
                }
            };
        }

        @Override
        public void commit(List<Object> partitionResults) {
            List<Row> all = new ArrayList<>();
            for (Object r : partitionResults) {
                if (r != null) {
                    @SuppressWarnings("unchecked")
                    List<Row> part = (List<Row>) r;
                    all.addAll(part);
                }
            }
            numOutputRows = all.size();
            synchronized (table) {
                if (batchId <= table.lastBatchId) {
                    LOG.debug("Skipping already committed batch {} of memory table {}", batchId, name);
                    return;
                }
                table.batches.put(batchId, Collections.unmodifiableList(all));
                table.lastBatchId = batchId;
            }
        }

        @Override
        public long numOutputRows() {
            return numOutputRows;
        }
    }
}
