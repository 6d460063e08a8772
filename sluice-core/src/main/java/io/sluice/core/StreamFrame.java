package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.core.expr.Compiler;
import io.sluice.core.expr.Expr;
import io.sluice.core.expr.SqlParser;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An unbounded table of rows from a source: what {@code readStream().load()} returns, the twin of a streaming
 * DataFrame. Immutable. Start a query on it with {@link #writeStream()}.
 *
 * <p>Transformations ({@link #select(Column...)}, {@link #selectExpr}, {@link #where(String)},
 * {@link #withColumn}, {@link #drop}, {@link #withColumnRenamed}, {@link #map}...) return a new frame and leave
 * this one as it is. Each resolves its column names and checks its types at once, against {@link #schema()}, and
 * throws {@link AnalysisException} (or {@link ParseException} for SQL text that does not parse) there, before any
 * query starts. Rows are transformed on the reader threads between the source and the sink; rows a projection
 * produces carry the new schema ({@link Row#getAs(String)} works). Column names are case-insensitive, as in
 * Spark. The SQL syntax and the functions are listed in docs/transformations.md.
 */
public final class StreamFrame {
    private final Sluice sluice;
    private final DataStreamReader.SourceSpec source;
    private final StructType schema;
    private final List<RowOperator> operators;
    /** What each operator reads and implies, for column pruning and filter pushdown ({@link QueryReads}). */
    private final List<QueryReads.Step> steps;
    private final boolean bounded;
    /** The watermarks and the stateful operator, if any ({@link Stateful#NONE} for a stateless frame). */
    private final Stateful stateful;

    /**
     * A {@code withWatermark} of the frame: its column, its delay, and its slot in the batch's event-time stats.
     */
    record Watermark(String column, long delayMs, int slot) {
    }

    /**
     * The stateful part of a frame: its watermarks, and its stateful operator with the position in
     * {@link #operators} where it sits (the operators before it run on the reader threads, those after it on the
     * rows it emits); {@code inputWidth} is the width of its input, for column pruning.
     */
    record Stateful(List<Watermark> watermarks, StatefulOp op, int at, int inputWidth) {
        static final Stateful NONE = new Stateful(List.of(), null, -1, -1);

        Stateful {
            watermarks = List.copyOf(watermarks);
        }
    }

    StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source, boolean bounded) {
        this(sluice, source, source.schema(), List.of(), List.of(), bounded, Stateful.NONE);
    }

    private StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source, StructType schema,
                        List<RowOperator> operators, List<QueryReads.Step> steps, boolean bounded,
                        Stateful stateful) {
        this.sluice = sluice;
        this.source = source;
        this.schema = schema;
        this.operators = List.copyOf(operators);
        this.steps = List.copyOf(steps);
        this.bounded = bounded;
        this.stateful = stateful;
    }

    Stateful stateful() {
        return stateful;
    }

    /** The schema of the rows this frame produces (after its transformations). */
    public StructType schema() {
        return schema;
    }

    /**
     * A new frame: this one followed by one more per-row step producing {@code newSchema}; {@code step} says what
     * it reads (an opaque step reads everything).
     */
    private StreamFrame with(RowOperator operator, StructType newSchema, QueryReads.Step step) {
        List<RowOperator> ops = new ArrayList<>(operators);
        ops.add(operator);
        List<QueryReads.Step> st = new ArrayList<>(steps);
        if (stateful.op() == null) {
            st.add(step); // after a stateful operator, steps read its output, not the source
        }
        return new StreamFrame(sluice, source, newSchema, ops, st, bounded, stateful);
    }

    List<RowOperator> operators() {
        return operators;
    }

    /** What a query of this frame reads of its source, its sink taking every column of {@link #schema()}. */
    QueryReads reads() {
        return reads(true);
    }

    /** As {@link #reads()}; {@code sinkReadsRows} false for an action that only counts rows ({@code count()}). */
    QueryReads reads(boolean sinkReadsRows) {
        int width = stateful.op() != null ? stateful.inputWidth() : schema.size();
        return QueryReads.of(source.schema(), steps, sinkReadsRows ? width : 0);
    }

    Sluice sluice() {
        return sluice;
    }

    /** The column names, in order, as Spark's {@code columns}. */
    public String[] columns() {
        return schema.fieldNames().toArray(new String[0]);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Transformations

    /**
     * Selects columns by name, as Spark's {@code select(String...)}: {@code "amount"}, a nested field
     * {@code "data.amount"} (named {@code amount}), {@code "*"} for every column and {@code "data.*"} for every
     * field of a struct column. Names are not SQL: use {@link #selectExpr} for expressions.
     *
     * @throws AnalysisException for a name that does not resolve
     */
    public StreamFrame select(String... columns) {
        return project(Arrays.stream(columns).map(SqlParser::parseColumnName).toList());
    }

    /**
     * Selects expressions, as Spark's {@code select(Column...)}. A column without an alias is named as Spark
     * names it (a column or field keeps its name; {@code col("a").plus(1)} is {@code (a + 1)}).
     *
     * @throws AnalysisException for anything that does not resolve
     */
    public StreamFrame select(Column... columns) {
        return project(Arrays.stream(columns).map(Column::expr).toList());
    }

    /**
     * Selects SQL expressions, as Spark's {@code selectExpr}: {@code "CAST(value AS STRING) AS json"},
     * {@code "amount * 2 doubled"}, {@code "*"}, {@code "data.*"}.
     *
     * @throws ParseException when an expression does not parse
     * @throws AnalysisException for anything that does not resolve
     */
    public StreamFrame selectExpr(String... expressions) {
        List<Expr> items = new ArrayList<>();
        for (String e : expressions) {
            items.add(SqlParser.parseNamedExpression(e));
        }
        return project(items);
    }

    /**
     * Keeps the rows for which the SQL condition is TRUE (FALSE and NULL drop the row), as Spark's
     * {@code where("amount > 100")}.
     *
     * @throws ParseException when the condition does not parse
     * @throws AnalysisException for anything that does not resolve, or a condition that is not boolean
     */
    public StreamFrame where(String condition) {
        return filterExpr(SqlParser.parseExpression(condition));
    }

    /** Keeps the rows for which the condition is TRUE, as Spark's {@code where(Column)}. */
    public StreamFrame where(Column condition) {
        return filterExpr(condition.expr());
    }

    /** Same as {@link #where(String)}. */
    public StreamFrame filter(String condition) {
        return where(condition);
    }

    /** Same as {@link #where(Column)}. */
    public StreamFrame filter(Column condition) {
        return where(condition);
    }

    /**
     * Keeps the rows the predicate accepts. It receives each row with this frame's schema attached, so
     * {@code row.getAs("amount")} works; it runs on several reader threads at once, so it must be thread-safe.
     * An exception it throws fails the query.
     */
    public StreamFrame filter(Predicate<Row> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        StructType in = schema;
        return with(row -> predicate.test(withSchema(row, in)) ? row : null, schema,
                new QueryReads.Step.Opaque(schema.size()));
    }

    /**
     * Adds a column, or replaces the column of that name (case-insensitively, in place), as Spark's
     * {@code withColumn}.
     *
     * @throws AnalysisException when the column does not resolve
     */
    public StreamFrame withColumn(String name, Column column) {
        Objects.requireNonNull(name, "name");
        Expr value = new Expr.Alias(column.expr(), name, null);
        List<Expr> items = new ArrayList<>();
        boolean replaced = false;
        for (int i = 0; i < schema.size(); i++) {
            if (schema.field(i).name().equalsIgnoreCase(name)) {
                items.add(value);
                replaced = true;
            } else {
                items.add(new Expr.InputColumn(i, schema.field(i).name()));
            }
        }
        if (!replaced) {
            items.add(value);
        }
        return project(items);
    }

    /**
     * Removes the named top-level columns (case-insensitively); names that match no column are ignored, as in
     * Spark.
     */
    public StreamFrame drop(String... names) {
        List<String> lower = Arrays.stream(names).map(n -> n.toLowerCase(Locale.ROOT)).toList();
        List<Expr> items = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            if (!lower.contains(schema.field(i).name().toLowerCase(Locale.ROOT))) {
                items.add(new Expr.InputColumn(i, schema.field(i).name()));
            }
        }
        return items.size() == schema.size() ? this : project(items);
    }

    /**
     * Renames the column {@code existing} (case-insensitively; every column of that name) to {@code newName}; a
     * no-op when there is no such column, as in Spark.
     */
    public StreamFrame withColumnRenamed(String existing, String newName) {
        Objects.requireNonNull(newName, "newName");
        List<StructField> fields = new ArrayList<>();
        boolean renamed = false;
        for (StructField f : schema.fields()) {
            if (f.name().equalsIgnoreCase(existing)) {
                fields.add(new StructField(newName, f.dataType(), f.nullable()));
                renamed = true;
            } else {
                fields.add(f);
            }
        }
        if (!renamed) {
            return this;
        }
        StructType renamedSchema = new StructType(fields);
        return with(row -> row.attach(renamedSchema), renamedSchema, QueryReads.Step.identity(schema.size()));
    }

    /**
     * Transforms each row with a Java function, as Spark's {@code map} with an encoder: {@code outputSchema}
     * describes the rows it returns. It receives rows with this frame's schema attached and runs on several reader
     * threads at once, so it must be thread-safe. Each row it returns must have {@code outputSchema.size()} values
     * of the Java types {@link io.sluice.api.types.DataType} lists (the count is checked, the types are not);
     * returning null, or a row of another size, fails the query. Use {@link #filter(Predicate)} to drop rows.
     */
    public StreamFrame map(Function<Row, Row> function, StructType outputSchema) {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(outputSchema, "outputSchema");
        StructType in = schema;
        return with(row -> {
            Row out = function.apply(withSchema(row, in));
            if (out == null) {
                throw new NullPointerException("The map function returned null for the row " + row
                        + "; it must return a row of " + outputSchema.simpleString() + " (use filter to drop rows)");
            }
            if (out.size() != outputSchema.size()) {
                throw new IllegalArgumentException("The map function returned a row of " + out.size() + " values, "
                        + out + ", but its output schema " + outputSchema.simpleString() + " has "
                        + outputSchema.size() + " columns");
            }
            return out.schema() == outputSchema ? out : out.attach(outputSchema);
        }, outputSchema, new QueryReads.Step.Opaque(in.size()));
    }

    private static Row withSchema(Row row, StructType schema) {
        return row.schema() == schema ? row : row.attach(schema);
    }

    private StreamFrame project(List<Expr> items) {
        Compiler.Projection p = Compiler.projection(schema, items, sluice.clock(), sluice.sessionTimeZone(),
                sluice.providers().functions());
        return p.isIdentity() ? this : with(p::apply, p.schema(), QueryReads.Step.of(p, schema.size()));
    }

    private StreamFrame filterExpr(Expr condition) {
        Compiler.Condition c = Compiler.condition(schema, condition, sluice.clock(), sluice.sessionTimeZone(),
                sluice.providers().functions());
        return with(row -> c.test(row) ? row : null, schema, new QueryReads.Step.Filter(c.uses(), c.conjuncts()));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Stateful operators (docs/stateful.md)

    /**
     * Defines an event-time watermark, as Spark's {@code withWatermark}: the watermark is the maximum event time
     * seen in {@code eventTime} (a timestamp column) minus {@code delayThreshold} ({@code "10 seconds"},
     * {@code "1 minute"}), never decreasing, computed at the end of a batch and used from the next one. A stateful
     * operator after it drops rows at or before the watermark and closes windows the watermark has passed.
     *
     * @throws AnalysisException when the column does not resolve or is not a timestamp, or the delay is negative
     *                           or not an interval
     */
    public StreamFrame withWatermark(String eventTime, String delayThreshold) {
        Objects.requireNonNull(eventTime, "eventTime");
        int column = indexOf(eventTime);
        if (!schema.field(column).dataType().equals(io.sluice.api.types.DataType.timestampType())) {
            throw new AnalysisException("Event time must be defined on a window or a timestamp, but " + eventTime
                    + " is of type " + schema.field(column).dataType().simpleString(), -1);
        }
        String delay = delayThreshold == null ? "" : delayThreshold.trim();
        if (delay.startsWith("-")) {
            throw new AnalysisException("delay threshold (" + delayThreshold + ") should not be negative.", -1);
        }
        String unit = delay.toLowerCase(Locale.ROOT).startsWith("interval ") ? delay.substring(9).trim() : delay;
        long delayMs;
        try {
            delayMs = io.sluice.api.Durations.intervalMs("delay threshold", unit);
        } catch (IllegalArgumentException e) {
            throw new AnalysisException(e.getMessage(), -1);
        }
        if (stateful.op() != null) {
            throw new AnalysisException("withWatermark after a stateful operator (" + stateful.op().operatorName()
                    + ") is not supported by Sluice yet: define the watermark before groupBy or dropDuplicates", -1);
        }
        List<Watermark> marks = new ArrayList<>(stateful.watermarks());
        marks.add(new Watermark(schema.field(column).name(), delayMs, marks.size()));
        List<RowOperator> ops = new ArrayList<>(operators);
        ops.add(EventTimeStats.recorder(marks.size() - 1, column));
        List<QueryReads.Step> st = new ArrayList<>(steps);
        st.add(QueryReads.Step.identity(schema.size()));
        return new StreamFrame(sluice, source, schema, ops, st, bounded,
                new Stateful(marks, null, -1, -1));
    }

    private int indexOf(String name) {
        for (int i = 0; i < schema.size(); i++) {
            if (schema.field(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        throw new AnalysisException("A column or function parameter with name `" + name + "` cannot be resolved. "
                + "Did you mean one of the following? [" + String.join(", ", columns()) + "].", -1);
    }

    /**
     * Groups the rows by columns or expressions (including {@code Functions.window(...)}) for an aggregation,
     * as Spark's {@code groupBy(Column...)}.
     */
    public GroupedFrame groupBy(Column... keys) {
        return new GroupedFrame(this, Arrays.stream(keys).map(Column::expr).toList());
    }

    /** Groups by column names, as Spark's {@code groupBy(String...)}. */
    public GroupedFrame groupBy(String... columns) {
        return new GroupedFrame(this, Arrays.stream(columns).map(SqlParser::parseColumnName).toList());
    }

    /** An aggregation without grouping keys: one group, as Spark's {@code agg(...)} on a frame. */
    public StreamFrame agg(Column aggregate, Column... more) {
        return groupBy(new Column[0]).agg(aggregate, more);
    }

    /** The frame of {@link GroupedFrame#agg}. */
    StreamFrame aggregate(List<Expr> keys, List<Expr> aggregates) {
        requireNoStatefulOperator("groupBy");
        Aggregation op = Aggregation.of(sluice, schema, keys, aggregates, watermarkColumns());
        return withStateful(op);
    }

    /**
     * Drops rows whose values in all columns repeat an earlier row's, as Spark's {@code dropDuplicates()}: the first
     * row of each key passes. Without a watermark on a key column its state only grows.
     */
    public StreamFrame dropDuplicates() {
        return dropDuplicates(columns());
    }

    /**
     * Drops rows whose values in these columns repeat an earlier row's, as Spark's {@code dropDuplicates(cols)}.
     * With a watermark whose column is among them, rows behind the watermark are dropped and old keys evicted.
     */
    public StreamFrame dropDuplicates(String... columns) {
        return dedup(columns, false);
    }

    /**
     * As Spark's {@code dropDuplicatesWithinWatermark(cols)}: a key is remembered from its first row until the
     * watermark passes that row's event time plus the watermark's delay; needs a watermark (checked at start).
     */
    public StreamFrame dropDuplicatesWithinWatermark(String... columns) {
        return dedup(columns.length == 0 ? columns() : columns, true);
    }

    private StreamFrame dedup(String[] columns, boolean within) {
        requireNoStatefulOperator(within ? "dropDuplicatesWithinWatermark" : "dropDuplicates");
        int[] keys = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            keys[i] = indexOf(columns[i]);
        }
        int eventTime = -1;
        long delay = -1;
        for (Watermark w : stateful.watermarks()) {
            for (int i = 0; i < schema.size() && eventTime < 0; i++) {
                if (schema.field(i).name().equalsIgnoreCase(w.column())) {
                    eventTime = i;
                    delay = w.delayMs();
                }
            }
        }
        long within_ = within ? (delay < 0 ? 0 : delay * 1000) : -1;
        return withStateful(new Deduplication(schema, keys, eventTime, within_));
    }

    private List<String> watermarkColumns() {
        List<String> out = new ArrayList<>();
        for (Watermark w : stateful.watermarks()) {
            out.add(w.column().toLowerCase(Locale.ROOT));
        }
        return out;
    }

    private void requireNoStatefulOperator(String what) {
        if (bounded) {
            throw new UnsupportedOperationException(what + " is not supported on a one-off read (Sluice.read()) yet: "
                    + "use countBy(...), or run it as a stream");
        }
        if (stateful.op() != null) {
            throw new AnalysisException(what + " after " + stateful.op().operatorName() + ": Sluice runs one stateful "
                    + "operator per query yet (Spark chains them in append mode)", -1);
        }
    }

    private StreamFrame withStateful(StatefulOp op) {
        return new StreamFrame(sluice, source, op.outputSchema(), operators, steps, bounded,
                new Stateful(stateful.watermarks(), op, operators.size(), schema.size()));
    }

    /** True for a frame from {@link Sluice#readStream()}, false for a one-off read from {@link Sluice#read()}. */
    public boolean isStreaming() {
        return !bounded;
    }

    /**
     * Starts describing the query that writes this stream.
     *
     * @throws IllegalStateException on a frame from {@link Sluice#read()}
     */
    public DataStreamWriter writeStream() {
        if (bounded) {
            throw new IllegalStateException("'writeStream' can be called only on a streaming frame (from "
                    + "readStream()); this one comes from read(): use collectAsList(), count() or countBy(...)");
        }
        return new DataStreamWriter(sluice, this);
    }

    /**
     * Reads everything of a one-off read ({@link Sluice#read()}) now, through this frame's transformations, and
     * returns the rows in partition order.
     *
     * @throws IllegalStateException on a streaming frame, as Spark: a stream is run with writeStream().start()
     * @throws Exception whatever the source's readers throw
     */
    public List<Row> collectAsList() throws Exception {
        requireBounded("collectAsList");
        return BoundedRead.collect(this);
    }

    /**
     * The number of rows {@link #collectAsList()} would return, counted as they are read: no row is kept, so a read
     * of any size counts in constant memory.
     *
     * @throws IllegalStateException on a streaming frame
     */
    public long count() throws Exception {
        requireBounded("count");
        return BoundedRead.count(this);
    }

    /**
     * For a frame from {@link Sluice#read()}: how many rows share each distinct value of the given SQL expressions
     * (as {@link #selectExpr(String...)} takes them), counted as the rows are read. Each key is a row of the
     * expressions' values in the order given; memory grows with the number of distinct keys, not of rows. The
     * result is a new, modifiable map with no particular order; rows whose keys hold nulls are counted under
     * those nulls. The Sluice shape of Spark's {@code groupBy(...).count()}, for reconciling counts.
     *
     * @throws IllegalStateException on a streaming frame
     * @throws IllegalArgumentException when no expression is given
     * @throws ParseException        when an expression does not parse
     */
    public Map<Row, Long> countBy(String... expressions) throws Exception {
        requireBounded("countBy");
        if (expressions.length == 0) {
            throw new IllegalArgumentException("countBy needs at least one column or expression to count by");
        }
        return BoundedRead.countDistinct(selectExpr(expressions));
    }

    private void requireBounded(String what) {
        if (!bounded) {
            throw new IllegalStateException("Queries with streaming sources must be executed with "
                    + "writeStream().start(); '" + what + "' works only on a frame from read()");
        }
    }

    DataStreamReader.SourceSpec source() {
        return source;
    }

    @Override
    public String toString() {
        return "StreamFrame[" + source.provider().shortName() + ": " + schema.simpleString() + "]";
    }
}
