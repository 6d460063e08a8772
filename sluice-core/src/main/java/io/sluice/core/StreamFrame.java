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
     * The other inputs of a {@link #union}, in plan order after this one: single-input frames of this frame's
     * schema, each carrying its own source and steps. Every later step is added to each of them too, until a
     * stateful operator (which, with the steps after it, runs once on the rows of every input), so input i is read
     * through its own steps then the shared ones (the engine's source i).
     */
    private final List<StreamFrame> others;

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
    record Stateful(List<Watermark> watermarks, StatefulOp op, int at, int inputWidth, List<Upstream> upstream,
                    List<String> windowColumns) {
        static final Stateful NONE = new Stateful(List.of(), null, -1, -1);

        Stateful {
            watermarks = List.copyOf(watermarks);
            upstream = List.copyOf(upstream);
            windowColumns = List.copyOf(windowColumns);
        }

        Stateful(List<Watermark> watermarks, StatefulOp op, int at, int inputWidth) {
            this(watermarks, op, at, inputWidth, List.of(), List.of());
        }

        Stateful(List<Watermark> watermarks, StatefulOp op, int at, int inputWidth, List<Upstream> upstream) {
            this(watermarks, op, at, inputWidth, upstream, List.of());
        }

        /** Where the first stateful operator sits: the steps before it run on the reader threads. */
        int firstAt() {
            return upstream.isEmpty() ? at : upstream.get(0).at();
        }
    }

    /**
     * A stateful operator chained before {@link Stateful#op} (a deduplication before an aggregation, say), in plan
     * order, with its position in {@link #operators}; {@code then} (or null) chains the operators from there to the
     * next stateful operator, which run on the rows it emits.
     */
    record Upstream(StatefulOp op, int at, RowOperator then) {
    }

    /**
     * The name {@link #as(String)} gave this frame, for qualified columns in a join condition ({@code a.id}), or
     * null. Set only on the fresh copy {@code as} makes, before anyone sees it; a transformation's frame has none.
     */
    private String alias;

    StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source, boolean bounded) {
        this(sluice, source, source.schema(), List.of(), List.of(), bounded, Stateful.NONE, List.of());
    }

    private StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source, StructType schema,
                        List<RowOperator> operators, List<QueryReads.Step> steps, boolean bounded,
                        Stateful stateful, List<StreamFrame> others) {
        this.sluice = sluice;
        this.source = source;
        this.schema = schema;
        this.operators = List.copyOf(operators);
        this.steps = List.copyOf(steps);
        this.bounded = bounded;
        this.stateful = stateful;
        this.others = List.copyOf(others);
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
        List<StreamFrame> more = others;
        if (stateful.op() == null) {
            more = new ArrayList<>(others.size());
            for (StreamFrame other : others) {
                more.add(other.with(operator, newSchema, step));
            }
        }
        return new StreamFrame(sluice, source, newSchema, ops, st, bounded, stateful, more);
    }

    /**
     * The frame's inputs in plan order (left first): each a single-input frame with its source and every step
     * its rows go through before a stateful operator. One for a frame that is no union; the first carries this
     * frame's stateful part (its operator's position in {@link #operators()}).
     */
    List<StreamFrame> inputs() {
        if (others.isEmpty()) {
            return List.of(this);
        }
        List<StreamFrame> all = new ArrayList<>(others.size() + 1);
        all.add(new StreamFrame(sluice, source, schema, operators, steps, bounded, stateful, List.of()));
        all.addAll(others);
        return all;
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
        return projectOrAggregate(Arrays.stream(columns).map(Column::expr).toList());
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
        return projectOrAggregate(items);
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
        RowOperator recorder = EventTimeStats.recorder(marks.size() - 1, column);
        List<RowOperator> ops = new ArrayList<>(operators);
        ops.add(recorder);
        List<QueryReads.Step> st = new ArrayList<>(steps);
        st.add(QueryReads.Step.identity(schema.size()));
        // After a union, every input's rows feed the watermark (the union's event time is every input's).
        List<StreamFrame> more = new ArrayList<>(others.size());
        for (StreamFrame other : others) {
            more.add(other.with(recorder, schema, QueryReads.Step.identity(schema.size())));
        }
        return new StreamFrame(sluice, source, schema, ops, st, bounded,
                new Stateful(marks, null, -1, -1, List.of(), stateful.windowColumns()), more);
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
        // Expressions over aggregates (sum(v) * 2): the operator computes the aggregates, a projection the rest.
        AggregateExprs.Plan plan = AggregateExprs.plan(keys.size(), aggregates);
        Aggregation op = Aggregation.of(sluice, schema, keys, plan.direct(), watermarkColumns());
        StreamFrame out = withStateful(op);
        if (plan.post() == null) {
            return out;
        }
        StructType aggregated = op.outputSchema();
        return out.project(plan.post(aggregated, keys.size(), e -> Compiler.projection(aggregated, List.of(e),
                sluice.clock(), sluice.sessionTimeZone(), sluice.providers().functions()).schema().field(0).name()));
    }

    /**
     * A select list with {@code window(time, length[, slide[, start]])} at {@code at}, as Spark's TimeWindowing: the
     * column is the struct of each window holding the row's time (a sliding window gives a row per window); a row
     * whose time is null is dropped. Of a watermarked column, the window column carries its watermark, so that an
     * aggregation grouped by it closes a group when the watermark passes the window's end.
     */
    private StreamFrame projectWindow(List<Expr> items, int at) {
        Expr item = items.get(at);
        String name = item instanceof Expr.Alias a ? a.name() : "window";
        Expr.Call call = (Expr.Call) AggregateExprs.unaliased(item);
        Aggregation.Window window = Aggregation.window(call, at);
        List<Expr> pre = new ArrayList<>(items);
        pre.set(at, new Expr.Alias(call.args().get(0), name, null));
        StreamFrame projected = project(pre);
        StructField time = projected.schema.field(at);
        if (!time.dataType().equals(io.sluice.api.types.DataType.timestampType())) {
            throw new AnalysisException("The first argument of window must be a timestamp column, not "
                    + time.dataType().sql(), -1);
        }
        List<StructField> fields = new ArrayList<>(projected.schema.fields());
        fields.set(at, new StructField(name, Aggregation.WINDOW_TYPE, true));
        StructType out = new StructType(fields);
        StreamFrame f = projected.with(new WindowAssign(at, window, out), out,
                QueryReads.Step.identity(projected.schema.size()));
        Expr t = call.args().get(0);
        if (t instanceof Expr.ColumnRef c && c.parts().size() == 1
                && watermarkColumns().contains(c.parts().get(0).toLowerCase(Locale.ROOT))) {
            List<String> windows = new ArrayList<>(f.stateful.windowColumns());
            windows.add(name.toLowerCase(Locale.ROOT));
            Stateful st = f.stateful;
            f = new StreamFrame(f.sluice, f.source, f.schema, f.operators, f.steps, f.bounded,
                    new Stateful(st.watermarks(), st.op(), st.at(), st.inputWidth(), st.upstream(), windows), f.others);
        }
        return f;
    }

    /**
     * A select list holding aggregates is a global aggregation, as in Spark ({@code selectExpr("count(*)")}): every
     * item must then be an aggregate or an expression over aggregates and constants.
     */
    private StreamFrame projectOrAggregate(List<Expr> items) {
        if (items.stream().noneMatch(AggregateExprs::contains)) {
            int window = -1;
            for (int i = 0; i < items.size(); i++) {
                Expr e = AggregateExprs.unaliased(items.get(i));
                if (e instanceof Expr.Call c && c.name().equalsIgnoreCase("window")) {
                    if (window >= 0) {
                        throw new AnalysisException("Multiple time/session window expressions would result in a "
                                + "cartesian product of rows, therefore they are currently not supported.", -1);
                    }
                    window = i;
                } else if (e instanceof Expr.Call c && c.name().equalsIgnoreCase("session_window")) {
                    throw new AnalysisException("session_window(...) is a grouping key in Sluice: use it in groupBy "
                            + "or GROUP BY, not in a select list", -1);
                }
            }
            return window < 0 ? project(items) : projectWindow(items, window);
        }
        for (Expr item : items) {
            if (!AggregateExprs.contains(item) && !(AggregateExprs.unaliased(item) instanceof Expr.Literal)) {
                throw new AnalysisException("[MISSING_GROUP_BY] The query does not include a GROUP BY clause. Add "
                        + "GROUP BY or turn it into the window functions using OVER clauses.", -1);
            }
        }
        return aggregate(List.of(), items);
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
        out.addAll(stateful.windowColumns());
        return out;
    }

    private void requireNoStatefulOperator(String what) {
        if (bounded) {
            throw new UnsupportedOperationException(what + " is not supported on a one-off read (Sluice.read()) yet: "
                    + "use countBy(...), or run it as a stream");
        }
        if (stateful.op() != null && !(stateful.op() instanceof Deduplication)) {
            throw new AnalysisException(what + " after " + stateful.op().operatorName() + " is not supported by "
                    + "Sluice yet: Sluice chains stateful operators after dropDuplicates only (dropDuplicates then "
                    + "groupBy, or dropDuplicates twice)", -1);
        }
    }

    /**
     * This frame followed by a stateful operator; after another one (a deduplication) the two chain, each with its
     * own state, as Spark chains stateful operators.
     */
    private StreamFrame withStateful(StatefulOp op) {
        if (stateful.op() == null) {
            return new StreamFrame(sluice, source, op.outputSchema(), operators, steps, bounded,
                    new Stateful(stateful.watermarks(), op, operators.size(), schema.size(), List.of(),
                            stateful.windowColumns()), others);
        }
        List<Upstream> upstream = new ArrayList<>(stateful.upstream());
        upstream.add(new Upstream(stateful.op(), stateful.at(),
                RowOperator.chain(operators.subList(stateful.at(), operators.size()))));
        return new StreamFrame(sluice, source, op.outputSchema(), operators, steps, bounded,
                new Stateful(stateful.watermarks(), op, operators.size(), stateful.inputWidth(), upstream,
                        stateful.windowColumns()), others);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Unions and joins

    /**
     * The rows of this frame and of the others, as Spark's {@code union} (SQL's UNION ALL: duplicates are kept):
     * columns are matched by position and named as this frame's; each column's type is the type all inputs
     * widen to (INT with BIGINT gives BIGINT, a number with a string gives STRING, as Spark's
     * {@code WidenSetOperationTypes}), inputs of another type being cast to it. A query of a union of streams reads
     * each input as a source of its own, numbered in plan order from 0 (this frame's inputs first): folder
     * {@code sources/<i>/} and line i of {@code offsets/N} in the checkpoint, each with its own read limit.
     *
     * @throws AnalysisException when the inputs differ in column count or in a column's type beyond widening, or
     *                           when streams are mixed with frames from {@link Sluice#read()}
     */
    public StreamFrame union(StreamFrame... others) {
        StreamFrame out = this;
        for (StreamFrame o : others) {
            out = out.unionWith(Objects.requireNonNull(o, "other"));
        }
        return out;
    }

    /**
     * As {@link #union}, but matching the other frames' columns to this one's by name (case-insensitive), as
     * Spark's {@code unionByName}; the columns of each must be the same set.
     *
     * @throws AnalysisException when a column of this frame is missing from another, or the counts differ
     */
    public StreamFrame unionByName(StreamFrame... others) {
        StreamFrame out = this;
        for (StreamFrame o : others) {
            Objects.requireNonNull(o, "other");
            if (o.schema.size() != schema.size()) {
                throw columnCountMismatch("UNION", schema.size(), o.schema.size(), 2);
            }
            List<String> names = new ArrayList<>();
            for (StructField f : schema.fields()) {
                if (o.schema.indexOf(f.name()) < 0) {
                    throw new AnalysisException("[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or "
                            + "function parameter with name `" + f.name() + "` cannot be resolved. Did you mean one "
                            + "of the following? [" + String.join(", ", o.schema.fieldNames().stream()
                            .map(n -> "`" + n + "`").toList()) + "].", -1);
                }
                names.add(f.name());
            }
            out = out.unionWith(o.select(names.toArray(new String[0])));
        }
        return out;
    }

    private StreamFrame unionWith(StreamFrame other) {
        if (stateful.op() != null || other.stateful.op() != null) {
            String name = (stateful.op() != null ? stateful.op() : other.stateful.op()).operatorName();
            throw new AnalysisException("union of a frame with a stateful operator (" + name + ") is not supported "
                    + "by Sluice yet: union the streams first, then apply groupBy or dropDuplicates to the union", -1);
        }
        if (bounded != other.bounded) {
            throw new AnalysisException("Union between streaming and batch DataFrames/Datasets is not supported", -1);
        }
        if (schema.size() != other.schema.size()) {
            throw columnCountMismatch("UNION", schema.size(), other.schema.size(), 1 + others.size() + 1);
        }
        List<StructField> fields = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            StructField a = schema.field(i);
            StructField b = other.schema.field(i);
            io.sluice.api.types.DataType t = Compiler.widerType(a.dataType(), b.dataType());
            if (t == null) {
                throw new AnalysisException("[INCOMPATIBLE_COLUMN_TYPE] UNION can only be performed on tables with "
                        + "compatible column types. The " + ordinal(i + 1) + " column of the "
                        + ordinal(2 + others.size() + other.others.size()) + " table is \""
                        + b.dataType().sql() + "\" type which is not compatible with \"" + a.dataType().sql()
                        + "\" at the same column of the first table.", -1);
            }
            fields.add(new StructField(a.name(), t, a.nullable() || b.nullable()));
        }
        StructType union = new StructType(fields);
        List<StreamFrame> all = new ArrayList<>();
        for (StreamFrame in : inputs()) {
            all.add(in.conformTo(union));
        }
        for (StreamFrame in : other.inputs()) {
            all.add(in.conformTo(union));
        }
        // Each input keeps its own withWatermark steps, as in Spark: the other side's move after this side's in the
        // batch's event-time slots, and the global watermark is their min (or max) across every input.
        int shift = stateful.watermarks().size();
        List<Watermark> marks = new ArrayList<>();
        for (Watermark w : stateful.watermarks()) {
            marks.add(new Watermark(unionName(schema, union, w.column()), w.delayMs(), w.slot()));
        }
        for (Watermark w : other.stateful.watermarks()) {
            marks.add(new Watermark(unionName(other.schema, union, w.column()), w.delayMs(), w.slot() + shift));
        }
        if (shift > 0 && !other.stateful.watermarks().isEmpty()) {
            int firstOther = all.size() - other.inputs().size();
            for (int i = firstOther; i < all.size(); i++) {
                all.set(i, all.get(i).withRecordersShifted(shift));
            }
        }
        StreamFrame first = all.get(0);
        return new StreamFrame(sluice, first.source, union, first.operators, first.steps, bounded,
                marks.isEmpty() ? Stateful.NONE : new Stateful(marks, null, -1, -1), all.subList(1, all.size()));
    }

    /** The union's name of an input's column (matched by position), or the name itself if the input dropped it. */
    private static String unionName(StructType input, StructType union, String column) {
        int i = input.indexOf(column);
        return i >= 0 && i < union.size() ? union.field(i).name() : column;
    }

    /** This single-input frame with its withWatermark steps moved {@code by} event-time slots on. */
    private StreamFrame withRecordersShifted(int by) {
        List<RowOperator> ops = new ArrayList<>(operators.size());
        for (RowOperator op : operators) {
            ops.add(op instanceof EventTimeStats.Recorder r ? r.shifted(by) : op);
        }
        return new StreamFrame(sluice, source, schema, ops, steps, bounded, stateful, others);
    }

    /** This single-input frame cast (where its types differ) and renamed to the union's schema. */
    private StreamFrame conformTo(StructType union) {
        if (schema.equals(union)) {
            return this;
        }
        StreamFrame f = this;
        boolean cast = false;
        List<Expr> items = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            Expr in = new Expr.InputColumn(i, schema.field(i).name());
            if (!schema.field(i).dataType().equals(union.field(i).dataType())) {
                in = new Expr.Cast(in, union.field(i).dataType(), null);
                cast = true;
            }
            items.add(new Expr.Alias(in, union.field(i).name(), null));
        }
        if (cast) {
            f = f.project(items);
        }
        return f.with(row -> row.attach(union), union, QueryReads.Step.identity(union.size()));
    }

    private static AnalysisException columnCountMismatch(String op, int first, int other, int index) {
        return new AnalysisException("[NUM_COLUMNS_MISMATCH] " + op + " can only be performed on inputs with the "
                + "same number of columns, but the first input has " + first + " columns and the " + ordinal(index)
                + " input has " + other + " columns.", -1);
    }

    private static String ordinal(int n) {
        return switch (n) {
            case 1 -> "first";
            case 2 -> "second";
            case 3 -> "third";
            default -> n + "th";
        };
    }

    /**
     * This frame under a name, as Spark's {@code as(alias)}: a join condition names its columns {@code alias.column}
     * ({@code left.as("a").join(right.as("b"), expr("a.id = b.key"), "left_outer")}). The name is the frame's
     * own; the frames its transformations make have none.
     */
    public StreamFrame as(String alias) {
        StreamFrame f = new StreamFrame(sluice, source, schema, operators, steps, bounded, stateful, others);
        f.alias = Objects.requireNonNull(alias, "alias");
        return f;
    }

    /** Same as {@link #as(String)}. */
    public StreamFrame alias(String alias) {
        return as(alias);
    }

    String alias() {
        return alias;
    }

    /** An inner join on a condition: {@code join(right, condition, "inner")}. */
    public StreamFrame join(StreamFrame right, Column condition) {
        return join(right, condition, "inner");
    }

    /**
     * A stream-static join on a condition, as Spark's {@code join(right, joinExprs, joinType)}: e.g.
     * {@code expr("a.id = b.key AND b.valid")}. The condition's equalities between an expression of one side's
     * columns and one of the other's are the keys each stream row is looked up by (at least one is needed); the
     * rest of the condition is tested on each matching pair, so an outer join keeps a stream row none passes, with
     * nulls. Columns are named plainly when only one side has them, or as {@code alias.column} with the aliases of
     * {@link #as(String)}. The output is every column of the left side then every column of the right side (a semi
     * or anti join: the stream's); the join types and the static side's reading as
     * {@link #join(StreamFrame, List, String)}.
     *
     * @throws AnalysisException for a refused combination (Spark's messages), a condition without an equality
     *                           between the sides, an ambiguous or unknown column, or keys that cannot be compared
     */
    public StreamFrame join(StreamFrame right, Column condition, String joinType) {
        Objects.requireNonNull(right, "right");
        StaticJoin join = StaticJoin.onCondition(this, right, Objects.requireNonNull(condition, "condition").expr(),
                StaticJoin.normalize(Objects.requireNonNull(joinType, "joinType")));
        return joined(join, right);
    }

    private StreamFrame joined(StaticJoin join, StreamFrame right) {
        StreamFrame stream = isStreaming() ? this : right;
        if (stream.stateful.op() != null) {
            throw new AnalysisException("A join after " + stream.stateful.op().operatorName() + " is not supported "
                    + "by Sluice yet: join before the stateful operator", -1);
        }
        return stream.with(join, join.schema(), new QueryReads.Step.Opaque(stream.schema.size()));
    }

    /** An inner join on one USING column: {@code join(right, List.of(usingColumn), "inner")}. */
    public StreamFrame join(StreamFrame right, String usingColumn) {
        return join(right, List.of(usingColumn), "inner");
    }

    /** An inner join on USING columns: {@code join(right, usingColumns, "inner")}. */
    public StreamFrame join(StreamFrame right, List<String> usingColumns) {
        return join(right, usingColumns, "inner");
    }

    /**
     * A stream-static equi-join on USING columns, as Spark's {@code join(right, usingColumns, joinType)}: one side
     * from {@link Sluice#readStream()}, the other from {@link Sluice#read()}. Allowed as in Spark: {@code inner}
     * either way round, {@code left_outer}, {@code left_semi} and {@code left_anti} with the stream on the left,
     * {@code right_outer} with the stream on the right; the other combinations are refused with Spark's message.
     * Output columns as Spark's: the join columns once, then the left side's other columns, then the right's. A
     * key holding a null never matches; a key the static side holds n times gives n rows.
     *
     * <p><b>Beyond</b> Spark's behaviour: the static side is read once, here, into a hash table on the join keys,
     * and read again only by {@link #reloadStaticSides()} (Spark re-reads it every batch, though a file read keeps
     * the file list it had when it was created).
     *
     * @throws AnalysisException for a refused combination, an unknown column, keys that cannot be compared, or two
     *                           streams (stream-stream joins are not supported)
     * @throws IllegalArgumentException for an unknown join type (Spark's list of join types in the message)
     */
    public StreamFrame join(StreamFrame right, List<String> usingColumns, String joinType) {
        Objects.requireNonNull(right, "right");
        StaticJoin join = StaticJoin.of(this, right, List.copyOf(usingColumns),
                StaticJoin.normalize(Objects.requireNonNull(joinType, "joinType")));
        return joined(join, right);
    }

    /**
     * Reads the static side of every stream-static join of this frame again, now, on the calling thread, and
     * swaps each new hash table in: rows read after that (by any query of this frame) are joined with the new
     * one. Call it between batches (from {@link StreamingQueryListener#onQueryProgress}, say) for every batch to
     * see one table.
     *
     * @return the number of joins whose static side was read
     */
    public int reloadStaticSides() {
        // A join after a union is one step shared by every input: read each once.
        java.util.Set<StaticJoin> joins = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (StreamFrame in : inputs()) {
            for (RowOperator op : in.operators) {
                if (op instanceof StaticJoin j && joins.add(j)) {
                    j.reload();
                }
            }
        }
        return joins.size();
    }

    /** The aggregate functions {@link #sql} names in its messages. */
    private static final List<String> AGGREGATES = List.of("count", "sum", "avg", "mean", "min", "max", "first",
            "last");

    /**
     * A SQL query over this frame, which it names {@code source}: {@code SELECT items FROM source [WHERE condition]
     * [GROUP BY expressions]}, the same as {@code where(condition)} then {@code selectExpr(items)}, or with GROUP BY
     * {@code groupBy(keys).agg(aggregates)} where the select list holds GROUP BY expressions (in any order, each
     * optionally aliased, e.g. {@code window(ts, '10 seconds') AS w}; one left out is grouped by and not output) and
     * aggregates ({@code count(*) AS n}); any other item is refused with Spark's {@code [MISSING_AGGREGATION]}: the Sluice shape of Spark's {@code createOrReplaceTempView("source")} and
     * {@code spark.sql(query)}, for the command line's {@code --sql}. Keywords are case-insensitive.
     *
     * @throws ParseException    when the query does not parse
     * @throws AnalysisException for another table name than {@code source}, a GROUP BY select list with an item
     *                           that is neither a GROUP BY expression nor an aggregate, or without an aggregate, or
     *                           anything that does not resolve
     */
    public StreamFrame sql(String query) {
        SqlParser.Select select = SqlParser.parseSelect(query);
        if (!select.table().equalsIgnoreCase("source")) {
            throw new AnalysisException("[TABLE_OR_VIEW_NOT_FOUND] The table or view `" + select.table() + "` cannot "
                    + "be found. The query reads the stream as `source`: SELECT ... FROM source", -1);
        }
        StreamFrame f = select.where() == null ? this : filterExpr(select.where());
        if (select.groupBy().isEmpty()) {
            return f.projectOrAggregate(select.items());
        }
        // GROUP BY: the aggregate items are the aggregation's; every other item must be one of the GROUP BY
        // expressions (compared as Spark's text of them, names case-insensitively), which it names when it has an
        // alias. A GROUP BY expression the select list leaves out is grouped by and not output, as in Spark.
        List<Expr> groupBy = select.groupBy();
        Expr[] keys = groupBy.toArray(new Expr[0]);
        boolean[] named = new boolean[keys.length];
        List<Expr> aggs = new ArrayList<>();
        List<Integer> columns = new ArrayList<>(); // per select item: its key's index, or -1 - its aggregate's
        List<String> aliases = new ArrayList<>();
        for (Expr item : select.items()) {
            if (AggregateExprs.contains(item)) {
                columns.add(-1 - aggs.size());
                aliases.add(null);
                aggs.add(item);
                continue;
            }
            Expr bare = item instanceof Expr.Alias a ? a.child() : item;
            int key = -1;
            for (int j = 0; j < keys.length && key < 0; j++) {
                if (Expr.toText(bare).equalsIgnoreCase(Expr.toText(groupBy.get(j)))) {
                    key = j;
                }
            }
            if (key < 0) {
                String text = Expr.toText(bare);
                throw new AnalysisException("[MISSING_AGGREGATION] The non-aggregating expression \"" + text + "\" is "
                        + "based on columns which are not participating in the GROUP BY clause. Add the columns or the "
                        + "expression to the GROUP BY, aggregate the expression, or use \"any_value(" + text + ")\" if "
                        + "you do not care which of the values within a group is returned.", -1);
            }
            if (!named[key]) {
                named[key] = true;
                keys[key] = item; // the select list's alias names the key column
            }
            columns.add(key);
            aliases.add(item instanceof Expr.Alias a ? a.name() : null);
        }
        if (aggs.isEmpty()) {
            throw new AnalysisException("With GROUP BY, Sluice's SQL takes at least one aggregate (" + String.join(", ",
                    AGGREGATES) + ") in the select list; for the distinct rows of the GROUP BY expressions use "
                    + "dropDuplicates", -1);
        }
        StreamFrame grouped = f.aggregate(List.of(keys), aggs);
        List<Expr> out = new ArrayList<>();
        boolean inOrder = columns.size() == grouped.schema.size();
        for (int i = 0; i < columns.size(); i++) {
            int o = columns.get(i);
            int col = o >= 0 ? o : keys.length + (-1 - o);
            String name = aliases.get(i) != null ? aliases.get(i) : grouped.schema.field(col).name();
            inOrder &= col == i && name.equals(grouped.schema.field(col).name());
            out.add(new Expr.InputColumn(col, name));
        }
        return inOrder ? grouped : grouped.project(out);
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
