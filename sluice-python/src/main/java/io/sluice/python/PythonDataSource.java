package io.sluice.python;

import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceReader;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.api.datasource.ReadResult;
import io.sluice.api.datasource.SimpleDataSourceStreamReader;
import io.sluice.api.datasource.SupportsAvailableNow;
import io.sluice.api.source.InputPartition;
import io.sluice.api.types.StructType;
import io.sluice.core.OffsetJson;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Python {@code DataSource} class of a user's file, as a Sluice {@link DataSource}: every call goes to Python
 * workers. {@code schema(options)} asks a short-lived worker; each query source gets one planning worker (offsets,
 * partitions, commit; the simple reader's reads) and a {@link ReaderPool} of reading workers; both stop with the
 * query ({@code stop()}). Offsets are Python's JSON dicts: the engine logs and compares their JSON.
 */
final class PythonDataSource implements DataSource {
    private final String name;
    private final Path file;
    private final String module;
    private final String className;
    private final int readers;
    private final int batchRows;
    /** A planning worker whose source turned out simple, between streamReader and simpleStreamReader. */
    private final Map<DataSourceContext, PythonWorker> simple = new ConcurrentHashMap<>();

    PythonDataSource(String name, Path file, String module, String className, int readers, int batchRows) {
        this.name = name;
        this.file = file;
        this.module = module;
        this.className = className;
        this.readers = readers;
        this.batchRows = batchRows;
    }

    @Override
    public String name() {
        return name;
    }

    String className() {
        return className;
    }

    Path file() {
        return file;
    }

    private WorkerSpec spec(Options options, StructType schema) {
        return new WorkerSpec(name, file, module, className, options.asMap(), schema, batchRows);
    }

    @Override
    public StructType schema(Options options) {
        try (PythonWorker w = spec(options, null).startWithSource()) {
            Map<String, Object> s = w.call("schema", Map.of());
            if (s.get("ddl") != null) {
                return StructType.fromDDL((String) s.get("ddl"));
            }
            return SchemaJson.read((String) s.get("json"));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public DataSourceStreamReader<?> streamReader(DataSourceContext context) {
        WorkerSpec spec = spec(context.options(), context.schema());
        Map<String, Object>[] answer = new Map[1];
        PythonWorker planner = spec.startReader("stream", answer);
        if ("simple".equals(answer[0].get("kind"))) {
            simple.put(context, planner);
            return null;
        }
        ReaderPool pool = new ReaderPool(spec, "stream", readers);
        return Boolean.TRUE.equals(answer[0].get("availableNow"))
                ? new StreamReader.WithAvailableNow(name, planner, pool)
                : new StreamReader(name, planner, pool);
    }

    @Override
    public SimpleDataSourceStreamReader<?> simpleStreamReader(DataSourceContext context) {
        PythonWorker planner = simple.remove(context);
        if (planner == null) {
            return null;
        }
        return new SimpleReader(name, planner, new RowDecoder(context.schema()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public DataSourceReader reader(DataSourceContext context) {
        WorkerSpec spec = spec(context.options(), context.schema());
        Map<String, Object>[] answer = new Map[1];
        PythonWorker planner = spec.startReader("batch", answer);
        if (!"batch".equals(answer[0].get("kind"))) {
            planner.close();
            return null;  // no reader(schema): the engine reads the stream from its initial offset
        }
        return new BatchReader(planner, new ReaderPool(spec, "batch", readers));
    }

    @Override
    public String toString() {
        return "PythonDataSource[" + name + ", " + className + " in " + file + "]";
    }

    static String json(Object offset) {
        return OffsetJson.write(offset);
    }

    static Object offset(Map<String, Object> answer) {
        Object o = answer.get("offset");
        return o == null ? null : OffsetJson.read((String) o);
    }

    static Map<String, Object> limitToPython(ReadLimit limit) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (limit == null || limit instanceof ReadLimit.AllAvailable) {
            m.put("_type", "ReadAllAvailable");
        } else if (limit instanceof ReadLimit.MaxRows r) {
            m.put("_type", "ReadMaxRows");
            m.put("max_rows", r.rows());
        } else if (limit instanceof ReadLimit.MaxFiles f) {
            m.put("_type", "ReadMaxFiles");
            m.put("max_files", f.files());
        } else if (limit instanceof ReadLimit.MaxBytes b) {
            m.put("_type", "ReadMaxBytes");
            m.put("max_bytes", b.bytes());
        } else if (limit instanceof ReadLimit.MinRows r) {
            m.put("_type", "ReadMinRows");
            m.put("min_rows", r.rows());
        } else {
            throw new UnsupportedOperationException("The read limit " + limit + " has no Python form");
        }
        return m;
    }

    static ReadLimit limitFromPython(String source, Map<String, Object> m) {
        String type = String.valueOf(m.get("_type"));
        return switch (type) {
            case "ReadAllAvailable" -> ReadLimit.allAvailable();
            case "ReadMaxRows" -> ReadLimit.maxRows(((Number) m.get("max_rows")).longValue());
            case "ReadMaxFiles" -> ReadLimit.maxFiles(((Number) m.get("max_files")).intValue());
            case "ReadMaxBytes" -> ReadLimit.maxBytes(((Number) m.get("max_bytes")).longValue());
            case "ReadMinRows" -> ReadLimit.minRows(((Number) m.get("min_rows")).longValue(), 0);
            default -> throw new PythonSourceException("Python data source '" + source
                    + "': getDefaultReadLimit() returned a " + type + "; the read limits of "
                    + "pyspark.sql.streaming.datasource are accepted", (String) null);
        };
    }

    static List<InputPartition> partitions(Map<String, Object> answer) {
        List<InputPartition> out = new ArrayList<>();
        for (Object p : (List<?>) answer.get("partitions")) {
            out.add(new PythonPartition(Base64.getDecoder().decode((String) p)));
        }
        return out;
    }

    /** A partitioned stream reader: planning calls on one worker, reads on the pool. */
    static class StreamReader implements DataSourceStreamReader<Object> {
        final String name;
        final PythonWorker planner;
        final ReaderPool pool;

        StreamReader(String name, PythonWorker planner, ReaderPool pool) {
            this.name = name;
            this.planner = planner;
            this.pool = pool;
        }

        ReaderPool pool() {
            return pool;
        }

        PythonWorker planner() {
            return planner;
        }

        @Override
        public synchronized Object initialOffset() {
            return offset(planner.call("initialOffset", Map.of()));
        }

        @Override
        public Object latestOffset() {
            return latestOffset(null, ReadLimit.allAvailable());
        }

        @Override
        public synchronized Object latestOffset(Object start, ReadLimit limit) {
            Map<String, Object> args = new LinkedHashMap<>();
            args.put("start", json(start));
            args.put("limit", limitToPython(limit));
            return offset(planner.call("latestOffset", args));
        }

        @Override
        @SuppressWarnings("unchecked")
        public synchronized ReadLimit defaultReadLimit() {
            return limitFromPython(name, (Map<String, Object>) planner.call("defaultReadLimit", Map.of()).get("limit"));
        }

        @Override
        public synchronized Object reportLatestOffset() {
            return offset(planner.call("reportLatestOffset", Map.of()));
        }

        @Override
        public synchronized List<? extends InputPartition> partitions(Object start, Object end) {
            return PythonDataSource.partitions(planner.call("partitions", Map.of("start", json(start), "end",
                    json(end))));
        }

        @Override
        public Iterator<Row> read(InputPartition partition) {
            return pool.read(partition);
        }

        @Override
        public synchronized void commit(Object end) {
            planner.call("commit", Map.of("end", json(end)));
        }

        @Override
        public void stop() {
            pool.close();
            try {
                synchronized (this) {
                    if (planner.alive()) {
                        planner.call("stop", Map.of());
                    }
                }
            } finally {
                planner.close();
            }
        }

        static final class WithAvailableNow extends StreamReader implements SupportsAvailableNow {
            WithAvailableNow(String name, PythonWorker planner, ReaderPool pool) {
                super(name, planner, pool);
            }

            @Override
            public synchronized void prepareForTriggerAvailableNow() {
                planner.call("prepareForTriggerAvailableNow", Map.of());
            }
        }
    }

    /** A simple reader: everything on the planning worker, as PySpark runs it on the driver. */
    static final class SimpleReader implements SimpleDataSourceStreamReader<Object> {
        private final String name;
        private final PythonWorker planner;
        private final RowDecoder decoder;

        SimpleReader(String name, PythonWorker planner, RowDecoder decoder) {
            this.name = name;
            this.planner = planner;
            this.decoder = decoder;
        }

        @Override
        public synchronized Object initialOffset() {
            return offset(planner.call("initialOffset", Map.of()));
        }

        @Override
        public synchronized ReadResult<Object> read(Object start) {
            List<Row> rows = new ArrayList<>();
            Map<String, Object> a = planner.call("simpleRead", Map.of("start", json(start)),
                    b -> Collections.addAll(rows, decoder.decode(b)));
            return new ReadResult<>(rows, offset(a));
        }

        @Override
        public synchronized List<Row> readBetweenOffsets(Object start, Object end) {
            List<Row> rows = new ArrayList<>();
            planner.call("readBetweenOffsets", Map.of("start", json(start), "end", json(end)),
                    b -> Collections.addAll(rows, decoder.decode(b)));
            return rows;
        }

        @Override
        public synchronized void commit(Object end) {
            planner.call("commit", Map.of("end", json(end)));
        }

        @Override
        public void stop() {
            planner.close();
        }

        @Override
        public String toString() {
            return "SimpleReader[" + name + "]";
        }
    }

    /** A bounded reader: {@code reader(schema).partitions()} on the planning worker, reads on the pool. */
    static final class BatchReader implements DataSourceReader, AutoCloseable {
        private final PythonWorker planner;
        private final ReaderPool pool;

        BatchReader(PythonWorker planner, ReaderPool pool) {
            this.planner = planner;
            this.pool = pool;
        }

        @Override
        public List<? extends InputPartition> partitions() {
            try {
                return PythonDataSource.partitions(planner.call("partitions", Map.of()));
            } finally {
                planner.close();
            }
        }

        @Override
        public Iterator<Row> read(InputPartition partition) {
            return pool.read(partition);
        }

        @Override
        public void close() {
            pool.close();
            planner.close();
        }
    }
}
