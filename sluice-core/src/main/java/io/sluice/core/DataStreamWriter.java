package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.io.LocalPaths;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
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

    /** Only {@code append} is supported: Sluice has no aggregations whose results could be updated. */
    public DataStreamWriter outputMode(String mode) {
        if (!"append".equals(mode == null ? null : mode.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("Unsupported output mode '" + mode + "': only 'append' is accepted");
        }
        return this;
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
        int minBatchesToRetain = opts.getInt("minBatchesToRetain", DEFAULT_MIN_BATCHES_TO_RETAIN);
        if (minBatchesToRetain < 1) {
            throw new InvalidOptionException("minBatchesToRetain", String.valueOf(minBatchesToRetain),
                    "a positive whole number is accepted");
        }
        Path checkpoint = opts.get("checkpointLocation")
                .map(v -> LocalPaths.of("checkpointLocation", v)).orElse(null);
        if (checkpoint == null && !sink.allowsTemporaryCheckpoint()) {
            throw new InvalidOptionException("checkpointLocation", null,
                    "checkpointLocation must be specified with option(\"checkpointLocation\", \"<dir>\") for the '"
                            + sink.shortName() + "' sink, so the query can recover after a restart", true);
        }
        // As in Spark, where queryName(..) itself sets the option.
        String name = queryName != null ? queryName : opts.get("queryName").orElse(null);
        QuerySpec spec = new QuerySpec(name, List.of(frame.source()), frame.schema(),
                RowOperator.chain(frame.operators()), sink, opts, trigger, checkpoint, minBatchesToRetain,
                List.of(frame.reads()));
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
     * {@code offsets/N} and folder {@code sources/<i>}); the public API gives one, a union will give several, each
     * read through the same {@code operator}. {@code reads}: per source, what the query reads of it (column pruning
     * and filter pushdown); null or empty when not known, then every column and no filter.
     */
    record QuerySpec(String name, List<DataStreamReader.SourceSpec> sources, StructType outputSchema,
                     RowOperator operator, SinkProvider sink, Options sinkOptions, Trigger trigger,
                     Path checkpointLocation, int minBatchesToRetain, List<QueryReads> reads) {
        QuerySpec {
            sources = List.copyOf(sources);
            if (sources.isEmpty()) {
                throw new IllegalArgumentException("A query needs at least one source");
            }
            reads = reads == null ? List.of() : List.copyOf(reads);
            if (!reads.isEmpty() && reads.size() != sources.size()) {
                throw new IllegalArgumentException("One QueryReads per source is needed");
            }
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
