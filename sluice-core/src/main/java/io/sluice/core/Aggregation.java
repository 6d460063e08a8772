package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.core.expr.Compiler;
import io.sluice.core.expr.Expr;
import io.sluice.core.state.StateEntry;
import io.sluice.core.state.StateStore;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code groupBy(...).agg(...)}: Spark's streaming aggregation (StateStoreRestore/Save, operator
 * {@code stateStoreSave}). Each reader task aggregates its rows per key (partial aggregation); each state partition
 * merges the partials into its store and emits per the output mode. Grouping keys are columns or expressions and
 * {@code window(...)} (tumbling and sliding); a window or a watermarked column among the keys lets the watermark
 * close groups: late partials (event time at or before the previous batch's watermark) are dropped and counted,
 * and groups whose end is at or before the batch's watermark are emitted (append) and evicted.
 */
final class Aggregation extends StatefulOp {
    enum Kind { COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, FIRST, LAST }

    /** One aggregate call: its kind, the projection index of its argument (-1 for count(*)), its output name. */
    record Agg(Kind kind, int arg, DataType argType, DataType resultType, String name) {
    }

    /** A {@code window(time, length, slide, start)} key, all in microseconds; {@code time} a projection index. */
    record Window(int time, long length, long slide, long start) {
    }

    static final StructType WINDOW_TYPE = new StructType(List.of(
            new StructField("start", DataType.timestampType(), true),
            new StructField("end", DataType.timestampType(), true)));

    private final Compiler.Projection projection;
    /** Per grouping key: the projection index of a plain key, or -1 for a window (then {@link #windows}). */
    private final int[] keyIndex;
    private final Window[] windows;
    private final Agg[] aggs;
    private final StructType output;
    /** The key position whose event time closes groups, or -1; {@link #eventTimeIsWindow} when it is a window. */
    private final int eventTimeKey;
    private final boolean eventTimeIsWindow;
    /** The key position of a {@code session_window}, or -1; its time's projection index and its gap (micros). */
    private int sessionKey = -1;
    private int sessionTime;
    private long sessionGap;

    private Aggregation(Compiler.Projection projection, int[] keyIndex, Window[] windows, Agg[] aggs,
                        StructType output, int eventTimeKey, boolean eventTimeIsWindow) {
        this.projection = projection;
        this.keyIndex = keyIndex;
        this.windows = windows;
        this.aggs = aggs;
        this.output = output;
        this.eventTimeKey = eventTimeKey;
        this.eventTimeIsWindow = eventTimeIsWindow;
    }

    /**
     * Resolves the keys and aggregates against the input schema.
     *
     * @param watermarkColumns the input's columns that carry a watermark (lower case)
     * @throws AnalysisException for what Spark refuses (count(distinct), an unknown aggregate...)
     */
    static Aggregation of(Sluice sluice, StructType input, List<Expr> keys, List<Expr> aggExprs,
                          List<String> watermarkColumns) {
        List<Expr> items = new ArrayList<>();
        int[] keyIndex = new int[keys.size()];
        Window[] windows = new Window[keys.size()];
        List<String> keyNames = new ArrayList<>();
        int eventTimeKey = -1;
        boolean eventTimeIsWindow = false;
        int sessionKey = -1;
        int sessionTime = -1;
        long sessionGap = 0;
        for (int i = 0; i < keys.size(); i++) {
            Expr k = keys.get(i);
            String alias = null;
            if (k instanceof Expr.Alias a) {
                alias = a.name();
                k = a.child();
            }
            if (k instanceof Expr.Call c && c.name().equalsIgnoreCase("window")) {
                windows[i] = window(c, items.size());
                keyIndex[i] = -1;
                items.add(c.args().get(0));
                keyNames.add(alias != null ? alias : "window");
                if (eventTimeKey < 0 && watermarked(c.args().get(0), watermarkColumns)) {
                    eventTimeKey = i;
                    eventTimeIsWindow = true;
                }
            } else if (k instanceof Expr.Call c && c.name().equalsIgnoreCase("session_window")) {
                if (sessionKey >= 0 || c.args().size() != 2) {
                    throw new AnalysisException("session_window takes 2 arguments (timeColumn, gapDuration) and "
                            + "a query groups by one session_window at most", -1);
                }
                sessionKey = i;
                sessionTime = items.size();
                sessionGap = duration(c.args().get(1), "gapDuration") * 1000;
                if (sessionGap <= 0) {
                    throw new AnalysisException("The gap duration of session_window must be greater than 0", -1);
                }
                keyIndex[i] = -1;
                items.add(c.args().get(0));
                keyNames.add(alias != null ? alias : "session_window");
                if (eventTimeKey < 0 && watermarked(c.args().get(0), watermarkColumns)) {
                    eventTimeKey = i;
                    eventTimeIsWindow = true;
                }
            } else {
                keyIndex[i] = items.size();
                items.add(alias != null ? new Expr.Alias(k, alias, null) : k);
                keyNames.add(null);
                if (eventTimeKey < 0 && watermarked(k, watermarkColumns)) {
                    eventTimeKey = i;
                }
            }
        }
        List<Agg> aggs = new ArrayList<>();
        List<String> aggAliases = new ArrayList<>();
        List<Expr> aggArgs = new ArrayList<>();
        List<Kind> kinds = new ArrayList<>();
        for (Expr e : aggExprs) {
            String alias = null;
            if (e instanceof Expr.Alias a) {
                alias = a.name();
                e = a.child();
            }
            if (!(e instanceof Expr.Call c) || kindOf(c) == null) {
                throw new AnalysisException("The expression " + Expr.toText(e)
                        + " given to agg is not an aggregate function: use count, sum, avg, min, max, first or last",
                        -1);
            }
            Kind kind = kindOf(c);
            kinds.add(kind);
            aggAliases.add(alias);
            if (kind == Kind.COUNT_STAR) {
                aggArgs.add(null);
            } else {
                aggArgs.add(c.args().get(0));
                items.add(c.args().get(0));
            }
        }
        Compiler.Projection p = Compiler.projection(input, items, sluice.clock(), sluice.sessionTimeZone(),
                sluice.providers().functions());
        // A window column made by select(window(...)) of a watermarked column closes its groups at its end, as
        // Spark's window attribute carries the time column's watermark.
        if (eventTimeKey >= 0 && windows[eventTimeKey] == null && eventTimeKey != sessionKey
                && p.schema().field(keyIndex[eventTimeKey]).dataType().equals(WINDOW_TYPE)) {
            eventTimeIsWindow = true;
        }
        List<StructField> fields = new ArrayList<>();
        if (sessionKey >= 0 && keys.size() == 1) {
            throw new AnalysisException("Global aggregation with session window in streaming query is not supported.",
                    -1);
        }
        if (sessionKey >= 0) {
            for (Window w : windows) {
                if (w != null) {
                    throw new AnalysisException("A query groups by window(...) or by session_window(...), not both",
                            -1);
                }
            }
            if (!p.schema().field(sessionTime).dataType().equals(DataType.timestampType())) {
                throw new AnalysisException("The first argument of session_window must be a timestamp column, not "
                        + p.schema().field(sessionTime).dataType().sql(), -1);
            }
        }
        for (int i = 0; i < keys.size(); i++) {
            if (i == sessionKey) {
                fields.add(new StructField(keyNames.get(i), WINDOW_TYPE, true));
            } else if (windows[i] != null) {
                if (!p.schema().field(windows[i].time()).dataType().equals(DataType.timestampType())) {
                    throw new AnalysisException("The first argument of "
                            + "window must be a timestamp column, not " + p.schema().field(windows[i].time())
                            .dataType().sql(), -1);
                }
                fields.add(new StructField(keyNames.get(i), WINDOW_TYPE, true));
            } else {
                fields.add(p.schema().field(keyIndex[i]));
            }
        }
        int argAt = keys.size();
        for (int i = 0; i < kinds.size(); i++) {
            Kind kind = kinds.get(i);
            int arg = kind == Kind.COUNT_STAR ? -1 : argAt++;
            DataType argType = arg < 0 ? null : p.schema().field(arg).dataType();
            String argName = arg < 0 ? "1" : p.schema().field(arg).name();
            String fn = switch (kind) {
                case COUNT_STAR, COUNT -> "count";
                default -> kind.name().toLowerCase(Locale.ROOT);
            };
            String name = aggAliases.get(i) != null ? aggAliases.get(i) : fn + "(" + argName + ")";
            DataType result = resultType(kind, argType, name);
            aggs.add(new Agg(kind, arg, argType, result, name));
            fields.add(new StructField(name, result, kind != Kind.COUNT && kind != Kind.COUNT_STAR));
        }
        Aggregation a = new Aggregation(p, keyIndex, windows, aggs.toArray(new Agg[0]), new StructType(fields),
                eventTimeKey, eventTimeIsWindow);
        a.sessionKey = sessionKey;
        a.sessionTime = sessionTime;
        a.sessionGap = sessionGap;
        return a;
    }

    private static boolean watermarked(Expr e, List<String> watermarkColumns) {
        return e instanceof Expr.ColumnRef c && c.parts().size() == 1
                && watermarkColumns.contains(c.parts().get(0).toLowerCase(Locale.ROOT));
    }

    private static Kind kindOf(Expr.Call c) {
        String n = c.name().toLowerCase(Locale.ROOT);
        if (n.equals("approx_count_distinct")) {
            // Spark allows it in a streaming aggregation (HyperLogLog++); Sluice has no such aggregate yet.
            throw new AnalysisException("approx_count_distinct is not supported by Sluice yet: use "
                    + "dropDuplicates on the key columns, then count()", -1);
        }
        if (n.equals("count_distinct") || n.equals("countdistinct")
                || (c.args().size() == 1 && c.args().get(0) instanceof Expr.Call d
                && d.name().equalsIgnoreCase("distinct"))) {
            throw new AnalysisException("Distinct aggregations are not supported on streaming DataFrames/Datasets. "
                    + "Consider using approx_count_distinct() instead.", -1);
        }
        return switch (n) {
            case "count" -> c.args().isEmpty() || (c.args().size() == 1 && (c.args().get(0) instanceof Expr.Star
                    || c.args().get(0) instanceof Expr.Literal l && l.value() != null)) ? Kind.COUNT_STAR : Kind.COUNT;
            case "sum" -> Kind.SUM;
            case "avg", "mean" -> Kind.AVG;
            case "min" -> Kind.MIN;
            case "max" -> Kind.MAX;
            case "first", "first_value" -> Kind.FIRST;
            case "last", "last_value" -> Kind.LAST;
            default -> null;
        };
    }

    private static DataType resultType(Kind kind, DataType arg, String name) {
        switch (kind) {
            case COUNT_STAR:
            case COUNT:
                return DataType.longType();
            case SUM:
                if (isIntegral(arg)) {
                    return DataType.longType();
                } else if (arg.equals(DataType.floatType()) || arg.equals(DataType.doubleType())) {
                    return DataType.doubleType();
                } else if (arg instanceof DecimalType d) {
                    return new DecimalType(Math.min(38, d.precision() + 10), d.scale());
                }
                throw numericOnly(name, arg);
            case AVG:
                if (isIntegral(arg) || arg.equals(DataType.floatType()) || arg.equals(DataType.doubleType())) {
                    return DataType.doubleType();
                } else if (arg instanceof DecimalType d) {
                    return new DecimalType(Math.min(38, d.precision() + 4), Math.min(38, d.scale() + 4));
                }
                throw numericOnly(name, arg);
            default:
                return arg;
        }
    }

    private static boolean isIntegral(DataType t) {
        return t.equals(DataType.intType()) || t.equals(DataType.longType()) || t.equals(DataType.shortType())
                || t.equals(DataType.byteType());
    }

    private static AnalysisException numericOnly(String name, DataType arg) {
        return new AnalysisException("Cannot resolve \"" + name
                + "\" due to data type mismatch: the argument requires the \"NUMERIC\" type, however it has the type "
                + "\"" + arg.sql() + "\".", -1);
    }

    static Window window(Expr.Call c, int timeIndex) {
        List<Expr> args = c.args();
        if (args.size() < 2 || args.size() > 4) {
            throw new AnalysisException("window takes 2 to 4 arguments (timeColumn, windowDuration[, slideDuration[, "
                    + "startTime]]), not " + args.size(), -1);
        }
        long length = duration(args.get(1), "windowDuration") * 1000;
        long slide = args.size() > 2 ? duration(args.get(2), "slideDuration") * 1000 : length;
        long start = args.size() > 3 ? duration(args.get(3), "startTime") * 1000 : 0;
        if (length <= 0) {
            throw new AnalysisException("The window duration (" + text(args.get(1)) + ") must be greater than 0.",
                    -1);
        }
        if (slide <= 0) {
            throw new AnalysisException("The slide duration (" + text(args.get(2)) + ") must be greater than 0.",
                    -1);
        }
        if (slide > length) {
            throw new AnalysisException("The slide duration (" + text(args.get(2)) + ") must be less than or equal "
                    + "to the windowDuration (" + text(args.get(1)) + ").", -1);
        }
        if (Math.abs(start) >= slide) {
            throw new AnalysisException("The absolute value of start time (" + text(args.get(3)) + ") must be less "
                    + "than the slideDuration (" + text(args.get(2)) + ").", -1);
        }
        return new Window(timeIndex, length, slide, start);
    }

    private static String text(Expr e) {
        return e instanceof Expr.Literal l && l.value() != null ? l.value().toString() : Expr.toText(e);
    }

    private static long duration(Expr e, String what) {
        if (!(e instanceof Expr.Literal l) || !(l.value() instanceof String s)) {
            throw new AnalysisException("The " + what + " of window must be a string literal such as '10 minutes'",
                    -1);
        }
        String t = s.trim().toLowerCase(Locale.ROOT);
        if (t.startsWith("interval ")) {
            t = t.substring("interval ".length()).trim();
        }
        try {
            return io.sluice.api.Durations.intervalMs("window " + what, t);
        } catch (IllegalArgumentException ex) {
            throw new AnalysisException(ex.getMessage(), -1);
        }
    }

    @Override
    String operatorName() {
        return sessionKey >= 0 ? "sessionWindowStateStoreSaveExec" : "stateStoreSave";
    }

    /** Whether the keys hold a {@code session_window} (Spark refuses the update mode for those). */
    boolean hasSessionWindow() {
        return sessionKey >= 0;
    }

    @Override
    StructType outputSchema() {
        return output;
    }

    @Override
    String keySchema() {
        return new StructType(output.fields().subList(0, keyIndex.length)).simpleString();
    }

    @Override
    String valueSchema() {
        StringBuilder sb = new StringBuilder();
        for (Agg a : aggs) {
            sb.append(sb.length() == 0 ? "" : ",").append(a.kind()).append(':')
                    .append(a.argType() == null ? "-" : a.argType().simpleString());
        }
        return sb.toString();
    }

    @Override
    boolean evictsByWatermark() {
        return eventTimeKey >= 0;
    }

    /** Whether a window or a watermarked column is among the keys (append mode needs it). */
    boolean hasWatermarkKey() {
        return eventTimeKey >= 0;
    }

    /** The event time (micros) that closes the group of these key values; for a window, its end. */
    private long eventTime(Object[] key) {
        if (eventTimeKey == sessionKey && key[eventTimeKey] instanceof long[] session) {
            return session[1];
        }
        Object v = key[eventTimeKey];
        if (v == null) {
            return Long.MIN_VALUE;
        }
        return eventTimeIsWindow ? EventTimeStats.micros(((Row) v).get(1)) : EventTimeStats.micros(v);
    }

    // ------------------------------------------------------------------------------------------ the reader side

    private final class AggTask extends Task {
        final List<HashMap<Key, Object[][]>> byPartition; // value: {keyValues, buffer}
        final int partitions;
        final long lateMicros;
        /**
         * The group the previous row went to: consecutive rows of a task often share their group (event time
         * mostly in order, so the same window), and comparing the key values is far cheaper than encoding and
         * hashing them for the map. Equal values always encode equally; a miss only takes the map path.
         */
        private Object[] lastKey;
        private Object[][] lastEntry;
        /** Per window key slot, the window struct made last, reused for the same start (then same instance). */
        private final Row[] lastWindow = new Row[keyIndex.length];
        private final long[] lastWindowStart = new long[keyIndex.length];

        AggTask(int partitions, long lateWatermarkMs) {
            this.partitions = partitions;
            this.byPartition = new ArrayList<>(partitions);
            for (int i = 0; i < partitions; i++) {
                byPartition.add(new HashMap<>());
            }
            this.lateMicros = lateWatermarkMs * 1000;
        }

        @Override
        void add(Row row) {
            Row p = projection.apply(row);
            Object[] key = new Object[keyIndex.length];
            for (int i = 0; i < key.length; i++) {
                if (keyIndex[i] >= 0) {
                    key[i] = p.get(keyIndex[i]);
                }
            }
            if (sessionKey >= 0) {
                addToSession(p, key);
                return;
            }
            addWindows(p, key, 0);
        }

        /**
         * A session key: the group is the other keys (the session's slot null in the encoded key); its value a
         * list of sessions, each {@code {long[]{start, end}, buffer}}, overlapping ones merged.
         */
        private void addToSession(Row p, Object[] key) {
            Object t = p.get(sessionTime);
            if (t == null) {
                return;
            }
            long ts = EventTimeStats.micros(t);
            byte[] bytes = StateCodec.encode(key);
            HashMap<Key, Object[][]> map = byPartition.get(StateCodec.partition(bytes, partitions));
            Object[][] group = map.computeIfAbsent(new Key(bytes), k -> new Object[][]{key, new Object[]{
                    new ArrayList<Object[]>()}});
            @SuppressWarnings("unchecked")
            List<Object[]> sessions = (List<Object[]>) group[1][0];
            Object[] mine = new Object[]{new long[]{ts, ts + sessionGap}, newBuffer()};
            update((Object[]) mine[1], p);
            sessions.add(mine);
            mergeSessions(sessions);
        }

        /** Fills the window keys from position {@code from} on, one group per combination of windows. */
        private void addWindows(Row p, Object[] key, int from) {
            for (int i = from; i < key.length; i++) {
                Window w = windows[i];
                if (w == null) {
                    continue;
                }
                Object t = p.get(w.time());
                if (t == null) {
                    return; // Spark drops rows whose window time is null
                }
                long ts = EventTimeStats.micros(t);
                long lastStart = ts - Math.floorMod(ts - w.start(), w.slide());
                long n = (w.length() + w.slide() - 1) / w.slide();
                for (long k = 0; k < n; k++) {
                    long start = lastStart - k * w.slide();
                    long end = start + w.length();
                    if (start <= ts && ts < end) {
                        Object[] copy = key.clone();
                        if (lastWindow[i] == null || lastWindowStart[i] != start) {
                            lastWindow[i] = Row.withSchema(WINDOW_TYPE, instant(start), instant(end));
                            lastWindowStart[i] = start;
                        }
                        copy[i] = lastWindow[i];
                        addWindows(p, copy, i + 1);
                    }
                }
                return;
            }
            if (lastEntry != null && sameKey(key, lastKey)) {
                update(lastEntry[1], p);
                return;
            }
            byte[] bytes = StateCodec.encode(key);
            HashMap<Key, Object[][]> map = byPartition.get(StateCodec.partition(bytes, partitions));
            Object[][] entry = map.computeIfAbsent(new Key(bytes), k -> new Object[][]{key, newBuffer()});
            lastKey = key;
            lastEntry = entry;
            update(entry[1], p);
        }

        /** Whether two keys of this task hold equal values (so encode equally); the same instances compare at once. */
        private static boolean sameKey(Object[] a, Object[] b) {
            for (int i = 0; i < a.length; i++) {
                Object x = a[i];
                Object y = b[i];
                if (x == y) {
                    continue;
                }
                if (x == null || y == null || !(x instanceof byte[] bx ? y instanceof byte[] by && Arrays.equals(bx, by)
                        : x.equals(y))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        void finish() {
            if (eventTimeKey < 0 || lateMicros <= 0) {
                return;
            }
            if (sessionKey >= 0) {
                for (HashMap<Key, Object[][]> map : byPartition) {
                    for (Object[][] group : map.values()) {
                        @SuppressWarnings("unchecked")
                        List<Object[]> sessions = (List<Object[]>) group[1][0];
                        for (Iterator<Object[]> it = sessions.iterator(); it.hasNext(); ) {
                            if (((long[]) it.next()[0])[1] <= lateMicros) {
                                it.remove();
                                droppedByWatermark++;
                            }
                        }
                    }
                }
                return;
            }
            for (HashMap<Key, Object[][]> map : byPartition) {
                for (Iterator<Object[][]> it = map.values().iterator(); it.hasNext(); ) {
                    if (eventTime(it.next()[0]) <= lateMicros) {
                        it.remove();
                        droppedByWatermark++;
                    }
                }
            }
        }
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }

    @Override
    Task newTask(int partitions, long lateWatermarkMs) {
        return new AggTask(partitions, lateWatermarkMs);
    }

    // ------------------------------------------------------------------------------------------ buffers

    private Object[] newBuffer() {
        Object[] b = new Object[aggs.length * 2];
        for (int i = 0; i < aggs.length; i++) {
            Kind k = aggs[i].kind();
            if (k == Kind.COUNT || k == Kind.COUNT_STAR) {
                b[2 * i] = 0L;
            } else if (k == Kind.AVG) {
                b[2 * i + 1] = 0L;
            } else if (k == Kind.FIRST || k == Kind.LAST) {
                b[2 * i + 1] = Boolean.FALSE;
            }
        }
        return b;
    }

    private void update(Object[] b, Row p) {
        for (int i = 0; i < aggs.length; i++) {
            Agg a = aggs[i];
            int s = 2 * i;
            if (a.kind() == Kind.COUNT_STAR) {
                b[s] = (Long) b[s] + 1;
                continue;
            }
            Object v = p.get(a.arg());
            switch (a.kind()) {
                case COUNT -> {
                    if (v != null) {
                        b[s] = (Long) b[s] + 1;
                    }
                }
                case SUM -> {
                    if (v != null) {
                        b[s] = add(b[s], widen(v, a.resultType()), a.name());
                    }
                }
                case AVG -> {
                    if (v != null) {
                        b[s] = add(b[s], v instanceof BigDecimal ? v : (Object) ((Number) v).doubleValue(), a.name());
                        b[s + 1] = (Long) b[s + 1] + 1;
                    }
                }
                case MIN -> {
                    if (v != null && (b[s] == null || compare(v, b[s]) < 0)) {
                        b[s] = v;
                    }
                }
                case MAX -> {
                    if (v != null && (b[s] == null || compare(v, b[s]) > 0)) {
                        b[s] = v;
                    }
                }
                case FIRST -> {
                    if (!(Boolean) b[s + 1]) {
                        b[s] = v;
                        b[s + 1] = Boolean.TRUE;
                    }
                }
                case LAST -> {
                    b[s] = v;
                    b[s + 1] = Boolean.TRUE;
                }
                default -> throw new IllegalStateException();
            }
        }
    }

    /** Merges {@code later} (this batch's partial) into {@code earlier} (the state's buffer). */
    private Object[] merge(Object[] earlier, Object[] later) {
        for (int i = 0; i < aggs.length; i++) {
            Agg a = aggs[i];
            int s = 2 * i;
            switch (a.kind()) {
                case COUNT, COUNT_STAR -> earlier[s] = (Long) earlier[s] + (Long) later[s];
                case SUM -> earlier[s] = later[s] == null ? earlier[s] : earlier[s] == null ? later[s]
                        : add(earlier[s], later[s], a.name());
                case AVG -> {
                    earlier[s] = later[s] == null ? earlier[s] : earlier[s] == null ? later[s]
                            : add(earlier[s], later[s], a.name());
                    earlier[s + 1] = (Long) earlier[s + 1] + (Long) later[s + 1];
                }
                case MIN -> {
                    if (later[s] != null && (earlier[s] == null || compare(later[s], earlier[s]) < 0)) {
                        earlier[s] = later[s];
                    }
                }
                case MAX -> {
                    if (later[s] != null && (earlier[s] == null || compare(later[s], earlier[s]) > 0)) {
                        earlier[s] = later[s];
                    }
                }
                case FIRST -> {
                    if (!(Boolean) earlier[s + 1]) {
                        earlier[s] = later[s];
                        earlier[s + 1] = later[s + 1];
                    }
                }
                case LAST -> {
                    if ((Boolean) later[s + 1]) {
                        earlier[s] = later[s];
                        earlier[s + 1] = Boolean.TRUE;
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
        return earlier;
    }

    private Object[] finish(Object[] key, Object[] b) {
        Object[] out = new Object[key.length + aggs.length];
        for (int i = 0; i < key.length; i++) {
            out[i] = (windows[i] != null || i == sessionKey) && key[i] instanceof Row r ? r.attach(WINDOW_TYPE)
                    : key[i];
        }
        for (int i = 0; i < aggs.length; i++) {
            Agg a = aggs[i];
            Object v = b[2 * i];
            if (a.kind() == Kind.AVG) {
                long n = (Long) b[2 * i + 1];
                if (v == null || n == 0) {
                    v = null;
                } else if (v instanceof BigDecimal d) {
                    v = d.divide(BigDecimal.valueOf(n), ((DecimalType) a.resultType()).scale(), RoundingMode.HALF_UP);
                } else {
                    v = (Double) v / n;
                }
            } else if (a.kind() == Kind.SUM && v instanceof BigDecimal d && a.resultType() instanceof DecimalType t) {
                v = d.setScale(t.scale(), RoundingMode.HALF_UP);
            }
            out[key.length + i] = v;
        }
        return out;
    }

    private static Object widen(Object v, DataType result) {
        if (v instanceof BigDecimal) {
            return v;
        }
        return result.equals(DataType.longType()) ? (Object) ((Number) v).longValue() : (Object) ((Number) v)
                .doubleValue();
    }

    private static Object add(Object a, Object b, String name) {
        if (a == null) {
            return b;
        }
        if (a instanceof Long x) {
            try {
                return Math.addExact(x, (Long) b);
            } catch (ArithmeticException e) {
                throw new ArithmeticException("long overflow in " + name + ". Use 'try_sum' "
                        + "to tolerate overflow and return NULL instead.");
            }
        }
        if (a instanceof Double x) {
            return x + (Double) b;
        }
        return ((BigDecimal) a).add((BigDecimal) b);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a instanceof String x && b instanceof String y) {
            return ColumnFilter.compareCodePoints(x, y);
        }
        return ((Comparable) a).compareTo(b);
    }

    /** Sorts sessions by start and merges those that overlap (one starts before the other ends). */
    private void mergeSessions(List<Object[]> sessions) {
        sessions.sort((a, b) -> Long.compare(((long[]) a[0])[0], ((long[]) b[0])[0]));
        List<Object[]> merged = new ArrayList<>();
        for (Object[] s : sessions) {
            Object[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && ((long[]) s[0])[0] < ((long[]) last[0])[1]) {
                long[] range = (long[]) last[0];
                range[1] = Math.max(range[1], ((long[]) s[0])[1]);
                last[1] = merge((Object[]) last[1], (Object[]) s[1]);
            } else {
                merged.add(new Object[]{((long[]) s[0]).clone(), s[1]});
            }
        }
        sessions.clear();
        sessions.addAll(merged);
    }

    private static final int SESSION_FIELDS = 2;

    private List<Object[]> decodeSessions(byte[] value) {
        List<Object[]> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        Object[] flat = StateCodec.decode(value);
        int width = SESSION_FIELDS + aggs.length * 2;
        for (int i = 0; i + width <= flat.length; i += width) {
            Object[] buffer = java.util.Arrays.copyOfRange(flat, i + SESSION_FIELDS, i + width);
            out.add(new Object[]{new long[]{(Long) flat[i], (Long) flat[i + 1]}, buffer});
        }
        return out;
    }

    private byte[] encodeSessions(List<Object[]> sessions) {
        int width = SESSION_FIELDS + aggs.length * 2;
        Object[] flat = new Object[sessions.size() * width];
        for (int s = 0; s < sessions.size(); s++) {
            long[] range = (long[]) sessions.get(s)[0];
            flat[s * width] = range[0];
            flat[s * width + 1] = range[1];
            System.arraycopy((Object[]) sessions.get(s)[1], 0, flat, s * width + SESSION_FIELDS, aggs.length * 2);
        }
        return StateCodec.encode(flat);
    }

    private Row sessionRow(Object[] key, Object[] session) {
        long[] range = (long[]) session[0];
        Object[] k = key.clone();
        k[sessionKey] = Row.withSchema(WINDOW_TYPE, instant(range[0]), instant(range[1]));
        return row(k, (Object[]) session[1]);
    }

    private List<Row> processSessions(StateStore store, List<Task> tasks, int partition, long evictionWatermarkMs,
                                      Mode mode, Counters counters) {
        long t0 = System.nanoTime();
        Map<Key, Object[]> keys = new LinkedHashMap<>();
        Map<Key, List<Object[]>> updated = new LinkedHashMap<>();
        for (Task t : tasks) {
            for (Map.Entry<Key, Object[][]> e : ((AggTask) t).byPartition.get(partition).entrySet()) {
                @SuppressWarnings("unchecked")
                List<Object[]> fresh = (List<Object[]>) e.getValue()[1][0];
                if (fresh.isEmpty()) {
                    continue;
                }
                List<Object[]> sessions = updated.computeIfAbsent(e.getKey(),
                        k -> decodeSessions(store.get(k.bytes)));
                keys.putIfAbsent(e.getKey(), e.getValue()[0]);
                for (Object[] s : fresh) {
                    sessions.add(new Object[]{((long[]) s[0]).clone(), ((Object[]) s[1]).clone()});
                }
                mergeSessions(sessions);
            }
        }
        for (Map.Entry<Key, List<Object[]>> e : updated.entrySet()) {
            store.put(e.getKey().bytes, encodeSessions(e.getValue()));
        }
        counters.updated += updated.size();
        long t1 = System.nanoTime();
        counters.updatesNanos += t1 - t0;
        List<Row> out = new ArrayList<>();
        long wm = evictionWatermarkMs * 1000;
        List<StateEntry> entries = new ArrayList<>();
        for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
            entries.add(it.next());
        }
        for (StateEntry e : entries) {
            Object[] key = StateCodec.decode(e.key());
            List<Object[]> sessions = decodeSessions(e.value());
            if (mode == Mode.COMPLETE) {
                for (Object[] s : sessions) {
                    out.add(sessionRow(key, s));
                }
                continue;
            }
            if (eventTimeKey < 0) {
                continue;
            }
            List<Object[]> kept = new ArrayList<>();
            for (Object[] s : sessions) {
                if (((long[]) s[0])[1] <= wm) {
                    out.add(sessionRow(key, s));
                    counters.removed++;
                } else {
                    kept.add(s);
                }
            }
            if (kept.size() != sessions.size()) {
                if (kept.isEmpty()) {
                    store.remove(e.key());
                } else {
                    store.put(e.key(), encodeSessions(kept));
                }
            }
        }
        counters.removalsNanos += System.nanoTime() - t1;
        return out;
    }

    // ------------------------------------------------------------------------------------------ the state side

    @Override
    List<Row> process(StateStore store, List<Task> tasks, int partition, long lateWatermarkMs,
                      long evictionWatermarkMs, Mode mode, Counters counters) {
        if (sessionKey >= 0) {
            return processSessions(store, tasks, partition, evictionWatermarkMs, mode, counters);
        }
        long t0 = System.nanoTime();
        Map<Key, Object[][]> updated = new LinkedHashMap<>();
        for (Task t : tasks) {
            for (Map.Entry<Key, Object[][]> e : ((AggTask) t).byPartition.get(partition).entrySet()) {
                Object[][] mine = updated.get(e.getKey());
                Object[] buffer;
                if (mine != null) {
                    buffer = merge(mine[1], e.getValue()[1]);
                } else {
                    byte[] old = store.get(e.getKey().bytes);
                    buffer = old == null ? e.getValue()[1] : merge(StateCodec.decode(old), e.getValue()[1]);
                }
                updated.put(e.getKey(), new Object[][]{e.getValue()[0], buffer});
            }
        }
        for (Map.Entry<Key, Object[][]> e : updated.entrySet()) {
            store.put(e.getKey().bytes, StateCodec.encode(e.getValue()[1]));
        }
        counters.updated += updated.size();
        long t1 = System.nanoTime();
        counters.updatesNanos += t1 - t0;
        List<Row> out = new ArrayList<>();
        if (mode == Mode.COMPLETE) {
            for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
                StateEntry e = it.next();
                out.add(row(StateCodec.decode(e.key()), StateCodec.decode(e.value())));
            }
            return out;
        }
        if (mode == Mode.UPDATE) {
            for (Object[][] e : updated.values()) {
                out.add(row(e[0], e[1]));
            }
        }
        if (eventTimeKey >= 0) {
            long wm = evictionWatermarkMs * 1000;
            for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
                StateEntry e = it.next();
                Object[] key = StateCodec.decode(e.key());
                if (eventTime(key) <= wm) {
                    if (mode == Mode.APPEND) {
                        out.add(row(key, StateCodec.decode(e.value())));
                    }
                    it.remove();
                    counters.removed++;
                }
            }
        }
        counters.removalsNanos += System.nanoTime() - t1;
        return out;
    }

    private Row row(Object[] key, Object[] buffer) {
        return Row.wrap(finish(key, buffer)).attach(output);
    }
}
