package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.io.LocalPaths;
import io.sluice.api.io.Storages;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Describes where and how a query writes, as Spark's {@code DataStreamWriter}, and starts it.
 *
 * <p>Engine options ({@link #ENGINE_OPTIONS}), read here and also passed on to the sink: {@code checkpointLocation}
 * (required unless the sink allows a temporary one; a plain path or a {@code file:} URI, other schemes refused, see
 * {@link LocalPaths}), {@code minBatchesToRetain} (positive, default 100: how many batches of the offset and commit
 * logs are kept), {@code queryName} (the same as {@link #queryName}, as in Spark) and {@code path} (set by
 * {@link #start(String)}). Everything is validated by {@link #start()} before the query runs, option names first
 * (against the sink's declarations and these).
 */
public final class DataStreamWriter {
    static final int DEFAULT_MIN_BATCHES_TO_RETAIN = 100;

    /**
     * The writer options the engine declares for every sink, checked with the sink's own declarations
     * ({@code SinkProvider.options()}) by {@link #start()}.
     */
    public static final OptionSet ENGINE_OPTIONS = OptionSet.of(
            OptionDef.string("checkpointLocation", "the query's checkpoint folder; required unless the sink "
                    + "allows a temporary one").withDefaultText("none"),
            OptionDef.of("minBatchesToRetain", OptionDef.Type.INT, "how many batches of the offset and commit logs "
                    + "are kept").withDefault(Integer.toString(DEFAULT_MIN_BATCHES_TO_RETAIN)),
            OptionDef.string("queryName", "the query's name, as queryName(..)"),
            OptionDef.string("path", "where the sink writes, as start(path)"));

    private final Sluice sluice;
    private final StreamFrame frame;
    private String format;
    /** A sink given as an instance (foreachBatch, foreach) rather than found by its format. */
    private SinkProvider sinkProvider;
    private final Map<String, String> options = new LinkedHashMap<>();
    private String queryName;
    private Trigger trigger = Trigger.defaultTrigger();
    private StatefulOp.Mode outputMode = StatefulOp.Mode.APPEND;

    DataStreamWriter(Sluice sluice, StreamFrame frame) {
        this.sluice = sluice;
        this.frame = frame;
    }

    public DataStreamWriter format(String format) {
        this.format = format;
        this.sinkProvider = null;
        return this;
    }

    /** Writes to this sink instead of one found by format (how foreachBatch and foreach plug in). */
    DataStreamWriter sink(SinkProvider provider) {
        this.sinkProvider = Objects.requireNonNull(provider, "provider");
        this.format = provider.shortName();
        return this;
    }

    public DataStreamWriter option(String key, String value) {
        options.keySet().removeIf(k -> k.equalsIgnoreCase(key));
        options.put(key, value);
        return this;
    }

    public DataStreamWriter option(String key, long value) {
        return option(key, Long.toString(value));
    }

    public DataStreamWriter option(String key, boolean value) {
        return option(key, Boolean.toString(value));
    }

    public DataStreamWriter options(Map<String, String> more) {
        more.forEach(this::option);
        return this;
    }

    /**
     * Partitions the output of a file sink by these columns, as Spark's {@code partitionBy}: rows go under
     * {@code col=value/} folders, and the partition columns are not written inside the files. The same as
     * {@code option("partitionBy", "a,b")} (column names must not contain a comma); no columns clears it. Sinks
     * that cannot partition ({@code foreach}, {@code foreachBatch}) refuse it at {@link #start()}.
     */
    public DataStreamWriter partitionBy(String... columns) {
        options.keySet().removeIf(k -> k.equalsIgnoreCase("partitionBy"));
        if (columns != null && columns.length > 0) {
            options.put("partitionBy", String.join(",", columns));
        }
        return this;
    }

    /**
     * Hands each micro-batch to {@code function}, as Spark's {@code foreachBatch}: once per batch, on the query
     * thread, with all the batch's rows in memory. The batch counts as done only when the function returns; an
     * exception fails the query. After a crash the batch that was running is delivered again with the same id:
     * the function must be idempotent per batch id (see {@link ForeachBatchFunction}). Needs a
     * {@code checkpointLocation}.
     */
    public DataStreamWriter foreachBatch(ForeachBatchFunction function) {
        return sink(new ForeachBatchSinkProvider(Objects.requireNonNull(function, "function")));
    }

    /**
     * Writes each row with {@code writer}, as Spark's {@code foreach}. The same instance serves every partition,
     * concurrently, from several threads: it must be thread-safe (Spark gives each task its own copy; use
     * {@link #foreach(Supplier)} for that). Needs a {@code checkpointLocation}. See {@link ForeachWriter}.
     */
    public DataStreamWriter foreach(ForeachWriter writer) {
        Objects.requireNonNull(writer, "writer");
        return sink(new ForeachSinkProvider(() -> writer));
    }

    /**
     * Writes each row with a writer from {@code writers}: a new one for each partition of each batch, used by one
     * thread, as Spark's per-task copy. See {@link ForeachWriter}.
     */
    public DataStreamWriter foreach(Supplier<? extends ForeachWriter> writers) {
        return sink(new ForeachSinkProvider(Objects.requireNonNull(writers, "writers")));
    }

    /** A name for the query, unique among the active queries of the Sluice instance; also the memory sink's table. */
    public DataStreamWriter queryName(String name) {
        this.queryName = name;
        return this;
    }

    public DataStreamWriter trigger(Trigger trigger) {
        this.trigger = Objects.requireNonNull(trigger, "trigger");
        return this;
    }

    /**
     * How the rows of a stateful query are written, as Spark's {@code outputMode}: {@code append} (default; an
     * aggregate group is written once, when the watermark closes it), {@code update} (the groups changed in the
     * batch) or {@code complete} (every group, each batch). {@link #start()} refuses a mode where Spark does, with
     * its message (docs/stateful.md).
     *
     * @throws IllegalArgumentException for another name, with Spark's message
     */
    public DataStreamWriter outputMode(String mode) {
        String m = mode == null ? "" : mode.toLowerCase(Locale.ROOT);
        this.outputMode = switch (m) {
            case "append" -> StatefulOp.Mode.APPEND;
            case "update" -> StatefulOp.Mode.UPDATE;
            case "complete" -> StatefulOp.Mode.COMPLETE;
            default -> throw new IllegalArgumentException("Unknown output mode " + mode + ". Accepted output modes "
                    + "are 'append', 'complete', 'update'");
        };
        return this;
    }

    /**
     * Spark's UnsupportedOperationChecker rules for the output mode, and whether the sink takes it: a refused
     * query fails here, before anything is written.
     */
    private void checkOutputMode(SinkProvider sink) {
        StreamFrame.Stateful st = frame.stateful();
        StatefulOp op = st.op();
        String mode = outputMode.name().toLowerCase(Locale.ROOT);
        if (op instanceof Aggregation agg) {
            if (outputMode == StatefulOp.Mode.UPDATE && agg.hasSessionWindow()) {
                throw new AnalysisException("Invalid streaming output mode: update. This output mode is not supported "
                        + "for session window streaming aggregations on streaming DataFrames/DataSets.", -1);
            }
            if (outputMode == StatefulOp.Mode.APPEND && !agg.hasWatermarkKey()) {
                throw new AnalysisException("Invalid streaming output mode: append. This output mode is not supported "
                        + "for streaming aggregations without watermark on streaming DataFrames/DataSets.", -1);
            }
        } else if (outputMode == StatefulOp.Mode.COMPLETE) {
            throw new AnalysisException("Invalid streaming output mode: complete. This output mode is not supported "
                    + "for no streaming aggregations on streaming DataFrames/DataSets.", -1);
        }
        List<StatefulOp> chain = new ArrayList<>();
        st.upstream().forEach(u -> chain.add(u.op()));
        chain.add(op);
        for (StatefulOp o : chain) {
            if (o instanceof Deduplication d && d.lacksWatermark()) {
                throw new AnalysisException("dropDuplicatesWithinWatermark is not supported on streaming "
                        + "DataFrames/DataSets without watermark", -1);
            }
        }
        if (outputMode != StatefulOp.Mode.APPEND && !sink.supportsOutputMode(mode)) {
            throw new AnalysisException("Data source " + sink.shortName() + " does not support "
                    + outputMode.title() + " output mode", -1);
        }
    }

    /**
     * Validates everything, takes the checkpoint's lock, builds the source streams and the sink, and starts the
     * query on its own thread ({@code sluice-query-<name or id>}).
     *
     * @throws IllegalArgumentException for a bad format, option or setting
     * @throws IllegalStateException    when the checkpoint is held by another live query, or a query of that name
     *                                  is active
     */
    public StreamingQuery start() {
        SinkProvider sink = sinkProvider != null ? sinkProvider : sluice.providers().sink(format);
        Options opts = Options.of(options);
        OptionSet declared = sink.options();
        if (declared.declared()) {
            sluice.unknownOptions().check("sink", sink.shortName(), declared.and(ENGINE_OPTIONS), opts);
        }
        sink.validate(opts);
        checkOutputMode(sink);
        int minBatchesToRetain = opts.getInt("minBatchesToRetain", DEFAULT_MIN_BATCHES_TO_RETAIN);
        if (minBatchesToRetain < 1) {
            throw new InvalidOptionException("minBatchesToRetain", String.valueOf(minBatchesToRetain),
                    "a positive whole number is accepted");
        }
        String location = opts.get("checkpointLocation").orElse(null);
        Path checkpoint = null;
        String storedCheckpoint = null;
        if (location != null && Storages.isLocal(location)) {
            checkpoint = LocalPaths.of("checkpointLocation", location);
        } else if (location != null) {
            // An object store: refused here, before anything starts, when no module on the class path serves it.
            Storages.check("checkpointLocation", location, sluice.classLoader());
            storedCheckpoint = location;
        }
        if (location == null && !sink.allowsTemporaryCheckpoint()) {
            throw new InvalidOptionException("checkpointLocation", null,
                    "checkpointLocation must be specified with option(\"checkpointLocation\", \"<dir>\") for the '"
                            + sink.shortName() + "' sink, so the query can recover after a restart", true);
        }
        // As in Spark, where queryName(..) itself sets the option.
        String name = queryName != null ? queryName : opts.get("queryName").orElse(null);
        StreamFrame.Stateful st = frame.stateful();
        List<RowOperator> ops = frame.operators();
        int at = st.op() != null ? st.firstAt() : ops.size();
        // One source per input of a union, each with its own steps (the first input's up to the stateful
        // operator; the others carry none after it); the stateful operator and the steps after it run once.
        List<StreamFrame> inputs = frame.inputs();
        List<RowOperator> perSource = new ArrayList<>();
        perSource.add(RowOperator.chain(ops.subList(0, at)));
        for (StreamFrame in : inputs.subList(1, inputs.size())) {
            perSource.add(RowOperator.chain(in.operators()));
        }
        QuerySpec spec = new QuerySpec(name, inputs.stream().map(StreamFrame::source).toList(), frame.schema(),
                perSource.get(0), sink, opts, trigger, checkpoint, minBatchesToRetain,
                inputs.stream().map(StreamFrame::reads).toList(), st, outputMode,
                RowOperator.chain(ops.subList(st.op() != null ? st.at() : ops.size(), ops.size())), perSource,
                storedCheckpoint);
        return MicroBatchExecution.start(sluice, spec);
    }

    /**
     * Starts the query writing into a table by name, as Spark's {@code toTable(name)}: the name is resolved through
     * the catalogs configured on the engine ({@code spark.sql.catalog.<name>}, see {@link Sluice.Builder#config}) to
     * a sink and the options that point it at the table (a missing table is resolved to one the sink creates with
     * the stream's schema, when the catalog can create tables); the options given here are added (the table's win
     * on a clash), then {@link #start()}. A format given with {@link #format} is replaced by the table's.
     *
     * @throws IllegalArgumentException for a name that does not parse, an unknown catalog, a catalog no module
     *                                  serves, a table that cannot be found or created, or any error of
     *                                  {@link #start()}
     */
    public StreamingQuery toTable(String tableName) {
        io.sluice.api.table.TableCatalogProvider.ResolvedTable t = sluice.tableNames().resolve(tableName, true);
        format(t.format());
        t.options().forEach(this::option);
        return start();
    }

    /** {@code option("path", path).start()}. */
    public StreamingQuery start(String path) {
        return option("path", path).start();
    }

    /**
     * Everything a query needs to run, fixed at start. {@code sources} in order (source i is line i of
     * {@code offsets/N} and folder {@code sources/<i>}); a union gives several, each read through its own
     * steps ({@code sourceOperators}, see {@link #operatorFor}). {@code reads}: per source, what the query reads
     * of it (column pruning and filter pushdown); null or empty when not known, then every column and no filter.
     */
    record QuerySpec(String name, List<DataStreamReader.SourceSpec> sources, StructType outputSchema,
                     RowOperator operator, SinkProvider sink, Options sinkOptions, Trigger trigger,
                     Path checkpointLocation, int minBatchesToRetain, List<QueryReads> reads,
                     StreamFrame.Stateful stateful, StatefulOp.Mode outputMode, RowOperator postOperator,
                     List<RowOperator> sourceOperators, String storedCheckpoint) {
        QuerySpec(String name, List<DataStreamReader.SourceSpec> sources, StructType outputSchema,
                  RowOperator operator, SinkProvider sink, Options sinkOptions, Trigger trigger,
                  Path checkpointLocation, int minBatchesToRetain, List<QueryReads> reads) {
            this(name, sources, outputSchema, operator, sink, sinkOptions, trigger, checkpointLocation,
                    minBatchesToRetain, reads, StreamFrame.Stateful.NONE, StatefulOp.Mode.APPEND, null, List.of(),
                    null);
        }

        QuerySpec {
            stateful = stateful == null ? StreamFrame.Stateful.NONE : stateful;
            outputMode = outputMode == null ? StatefulOp.Mode.APPEND : outputMode;
            sources = List.copyOf(sources);
            if (sources.isEmpty()) {
                throw new IllegalArgumentException("A query needs at least one source");
            }
            reads = reads == null ? List.of() : List.copyOf(reads);
            if (!reads.isEmpty() && reads.size() != sources.size()) {
                throw new IllegalArgumentException("One QueryReads per source is needed");
            }
            // Nulls allowed (a source read as it is), so no List.copyOf.
            sourceOperators = sourceOperators == null ? List.of()
                    : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(sourceOperators));
            if (!sourceOperators.isEmpty() && sourceOperators.size() != sources.size()) {
                throw new IllegalArgumentException("One operator per source is needed");
            }
        }

        /**
         * The steps the rows of source {@code i} go through: a union gives each input its own (its casts, its
         * transformations before the union, then the shared ones); otherwise {@link #operator()} for every source.
         */
        RowOperator operatorFor(int i) {
            return sourceOperators.isEmpty() ? operator : sourceOperators.get(i);
        }

        QuerySpec(String name, List<DataStreamReader.SourceSpec> sources, StructType outputSchema,
                  RowOperator operator, SinkProvider sink, Options sinkOptions, Trigger trigger,
                  Path checkpointLocation, int minBatchesToRetain) {
            this(name, sources, outputSchema, operator, sink, sinkOptions, trigger, checkpointLocation,
                    minBatchesToRetain, List.of());
        }

        /** The stream of source {@code i}, made with what the query reads of it when that is known. */
        io.sluice.api.source.MicroBatchStream createStream(int i, io.sluice.api.source.StreamContext context) {
            io.sluice.api.source.SourceProvider provider = sources.get(i).provider();
            return reads.isEmpty() ? provider.createStream(context) : reads.get(i).createStream(provider, context);
        }
    }
}
