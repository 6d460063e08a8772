package io.sluice.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.sluice.core.Sluice;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQueryProgress;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.ToDoubleFunction;

/**
 * The metrics of every query of a {@link Sluice} instance, as Micrometer meters (docs/metrics.md lists each one by
 * name, unit and labels). {@link #bind} registers a listener: the meters are updated from the progress objects on the
 * listener thread and read at scrape time, so a query thread does nothing more than it does without metrics, and a
 * failing registry or scrape never reaches a query.
 *
 * <p>Meters of a query are registered when it starts (or, for a query already running at {@code bind}, at once);
 * those of a source, a phase of {@code durationMs} or a source metric when a progress first reports it. They stay
 * after the query ends (its state gauge says how it ended) until {@link #close()}, which removes every meter this
 * binding registered and the listener.
 */
public final class SluiceMetrics implements AutoCloseable {

    /** How many progress objects of each query run are kept for the REST API by default. */
    public static final int DEFAULT_RECENT_PROGRESS = 100;

    private static final List<String> STATES = List.of("active", "stopped", "failed");

    private final Sluice sluice;
    private final MeterRegistry registry;
    private final QueryTracker tracker;
    private final List<Meter> meters = new ArrayList<>();
    private final Set<String> registered = new HashSet<>();
    private boolean closed;

    private SluiceMetrics(Sluice sluice, MeterRegistry registry, int recentProgress) {
        this.sluice = sluice;
        this.registry = registry;
        this.tracker = new QueryTracker(sluice, recentProgress);
    }

    /**
     * Binds the queries of {@code sluice} (those running now and those started later) to {@code registry}.
     *
     * @return the binding; closing it removes its meters and its listener
     */
    public static SluiceMetrics bind(Sluice sluice, MeterRegistry registry) {
        return bind(sluice, registry, DEFAULT_RECENT_PROGRESS);
    }

    /** As {@link #bind(Sluice, MeterRegistry)}, keeping the last {@code recentProgress} progress objects per run. */
    public static SluiceMetrics bind(Sluice sluice, MeterRegistry registry, int recentProgress) {
        SluiceMetrics m = new SluiceMetrics(sluice, registry, recentProgress);
        m.tracker.whenStarted(m::queryMeters);
        m.tracker.whenProgress(m::progressMeters);
        sluice.addListener(m.tracker);
        m.tracker.adoptActive();
        return m;
    }

    /**
     * Binds Micrometer's JVM and process binders (memory, garbage collection, threads, class loading, processors,
     * uptime) to {@code registry}; closing the result stops the GC notifications. Separate from {@link #bind} since an
     * application often has them bound already.
     */
    public static AutoCloseable bindJvm(MeterRegistry registry) {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        return gc;
    }

    QueryTracker tracker() {
        return tracker;
    }

    Sluice sluice() {
        return sluice;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        sluice.removeListener(tracker);
        for (Meter m : meters) {
            registry.remove(m);
        }
        meters.clear();
        keep.clear();
        known.clear();
    }

    // ------------------------------------------------------------------ registration

    private synchronized void queryMeters(QueryTracker.Run run) {
        UUID id = run.id;
        if (closed || !registered.add("query " + id)) {
            return;
        }
        Tags tags = Tags.of("query", run.name == null ? "" : run.name, "query_id", id.toString());
        counter("sluice.query.input.rows", null, "Rows read by the query's batches, all sources", tags,
                () -> sumRuns(id, r -> r.inputRows));
        counter("sluice.query.batches", null, "Batches the query executed", tags,
                () -> sumRuns(id, r -> r.batches));
        counter("sluice.query.failures", null, "Runs of the query that ended by failing", tags,
                () -> tracker.failuresOf(id));
        counter("sluice.query.output.rows", null, "Rows the sink reported written (sinks that report them)", tags,
                () -> sumRuns(id, r -> r.outputRows));
        gauge("sluice.query.input.rows.per.second", null, "Input rate of the last batch (rows over the time since "
                + "the previous trigger's start)", tags, last(id, StreamingQueryProgress::inputRowsPerSecond));
        gauge("sluice.query.processed.rows.per.second", null, "Processing rate of the last batch (rows over its "
                + "duration)", tags, last(id, StreamingQueryProgress::processedRowsPerSecond));
        gauge("sluice.query.batch.duration", "seconds", "Duration of the last batch", tags,
                last(id, p -> p.batchDuration() / 1000.0));
        gauge("sluice.query.batch.rows", null, "Rows of the last batch, all sources", tags,
                last(id, p -> p.numInputRows()));
        gauge("sluice.query.last.batch.id", null, "Id of the last executed batch", tags,
                last(id, p -> p.batchId()));
        gauge("sluice.query.staleness", "seconds", "Time since the last committed batch (since the start before the "
                + "first), on the engine's clock at scrape time", tags, () -> {
                    QueryTracker.Run r = tracker.latest(id);
                    long since = tracker.read(r, x -> x.lastCommitMillis);
                    return (sluice.clock().millis() - since) / 1000.0;
                });
        for (String state : STATES) {
            gauge("sluice.query.state", null, "1 for the state of the query's latest run, 0 for the others",
                    tags.and("state", state),
                    () -> state.equals(tracker.read(tracker.latest(id), r -> r.state)) ? 1 : 0);
        }
    }

    /** What is registered already of one query: its phases, its sources, each source's metrics. */
    private static final class Known {
        final Set<String> phases = new HashSet<>();
        final Map<String, Set<String>> sourceMetrics = new HashMap<>();
    }

    private final Map<UUID, Known> known = new HashMap<>();

    private synchronized void progressMeters(StreamingQueryProgress p) {
        if (closed) {
            return;
        }
        // Called once per batch on the listener thread: it only looks up what is known, and builds tags and
        // meters for what is new (the first batch, a new phase or metric).
        UUID id = p.id();
        Known k = known.computeIfAbsent(id, x -> new Known());
        Tags tags = null;
        for (String phase : p.durationMs().keySet()) {
            if (k.phases.add(phase)) {
                tags = tags != null ? tags : queryTags(p);
                gauge("sluice.query.phase.duration", "seconds", "Duration of one phase of the last batch "
                        + "(durationMs)", tags.and("phase", phase),
                        last(id, q -> {
                            Long ms = q.durationMs().get(phase);
                            return ms == null ? Double.NaN : ms / 1000.0;
                        }));
            }
        }
        List<SourceProgress> sources = p.sources();
        for (int i = 0; i < sources.size(); i++) {
            int index = i;
            SourceProgress s = sources.get(i);
            String d = s.description();
            String sourceKey = QueryTracker.sourceKey(i, d);
            Set<String> metricsKnown = k.sourceMetrics.get(sourceKey);
            Tags st = null;
            if (metricsKnown == null) {
                metricsKnown = new HashSet<>();
                k.sourceMetrics.put(sourceKey, metricsKnown);
                tags = tags != null ? tags : queryTags(p);
                st = tags.and("source", d);
                counter("sluice.source.input.rows", null, "Rows read from the source", st, () -> sumRuns(id,
                        r -> r.sourceRows.getOrDefault(sourceKey, 0L)));
                gauge("sluice.source.input.rows.per.second", null, "The source's input rate in the last batch", st,
                        source(id, index, SourceProgress::inputRowsPerSecond));
                gauge("sluice.source.processed.rows.per.second", null, "The source's processing rate in the last "
                        + "batch", st, source(id, index, SourceProgress::processedRowsPerSecond));
            }
            for (String metric : s.metrics().keySet()) {
                if (metricsKnown.add(metric)) {
                    tags = tags != null ? tags : queryTags(p);
                    st = st != null ? st : tags.and("source", d);
                    sourceMetric(id, index, st, metric);
                }
            }
        }
    }

    private static Tags queryTags(StreamingQueryProgress p) {
        return Tags.of("query", p.name() == null ? "" : p.name(), "query_id", p.id().toString());
    }

    /** One entry of a source's progress {@code metrics}: a named meter for the known ones, else a generic gauge. */
    private void sourceMetric(UUID id, int index, Tags st, String metric) {
        ToDoubleFunction<SourceProgress> raw = s -> number(s.metrics().get(metric));
        switch (metric) {
            case "minOffsetsBehindLatest", "maxOffsetsBehindLatest", "avgOffsetsBehindLatest" ->
                    gauge("sluice.source.offsets.behind.latest", null, "Offsets between the batch's end and the "
                            + "latest available, over the topic partitions (stat: min, max, avg)",
                            st.and("stat", metric.substring(0, 3)), source(id, index, raw));
            case "minRetentionMsLeft" -> gauge("sluice.source.retention.time.left", "seconds", "Least time before "
                    + "retention deletes the next unread record, over the partitions", st,
                    source(id, index, s -> raw.applyAsDouble(s) / 1000.0));
            case "minRetentionBytesLeft" -> gauge("sluice.source.retention.left", "bytes", "Least bytes before "
                    + "size retention deletes the next unread record, over the partitions", st,
                    source(id, index, raw));
            case "numFilesOutstanding" -> gauge("sluice.source.files.outstanding", null, "Files found new and not "
                    + "taken yet: the backlog", st, source(id, index, raw));
            case "numBytesOutstanding" -> gauge("sluice.source.outstanding", "bytes", "Total size of the files "
                    + "outstanding", st, source(id, index, raw));
            case "dataLoss" -> counter("sluice.source.data.loss", null, "Data losses found in this run (records gone "
                    + "before they were read)", st, () -> lastSource(id, index, raw));
            case "numFilesChangedAfterRead" -> counter("sluice.source.files.changed.after.read", null, "Files of "
                    + "this run found changed (overwritten) after they were read", st,
                    () -> lastSource(id, index, raw));
            case "numSpecialFilesSkipped", "numMissingFilesSkipped", "numCorruptFilesSkipped" ->
                    counter("sluice.source.files.skipped", null, "Files of this run skipped (reason: special, "
                            + "missing, corrupt)", st.and("reason", metric.substring(3, metric.indexOf("Files"))
                            .toLowerCase(java.util.Locale.ROOT)), () -> lastSource(id, index, raw));
            case "numFilesTaken" -> counter("sluice.source.files.taken", null, "Files this run put into new batches",
                    st, () -> lastSource(id, index, raw));
            case "numBytesTaken" -> counter("sluice.source.taken", "bytes", "Bytes of the files this run put into new "
                    + "batches", st, () -> lastSource(id, index, raw));
            default -> gauge("sluice.source.metric", null, "Any other numeric entry of the source's progress "
                    + "metrics, by name", st.and("metric", metric), source(id, index, raw));
        }
    }

    // ------------------------------------------------------------------ reading at scrape time

    private interface Value {
        double get();
    }

    private void gauge(String name, String unit, String help, Tags tags, Value v) {
        Gauge.Builder<Value> b = Gauge.builder(name, v, Value::get).description(help).tags(tags)
                .strongReference(true);
        if (unit != null) {
            b.baseUnit(unit);
        }
        meters.add(b.register(registry));
    }

    private void counter(String name, String unit, String help, Tags tags, Value v) {
        FunctionCounter.Builder<Value> b = FunctionCounter.builder(name, v, Value::get).description(help).tags(tags);
        if (unit != null) {
            b.baseUnit(unit);
        }
        // A function counter holds its object weakly: the binding keeps it through the meter list.
        meters.add(b.register(registry));
        keep.add(v);
    }

    private final List<Value> keep = new ArrayList<>();

    private double sumRuns(UUID id, java.util.function.ToLongFunction<QueryTracker.Run> f) {
        long n = 0;
        for (QueryTracker.Run r : tracker.runs()) {
            if (r.id.equals(id)) {
                n += tracker.read(r, f::applyAsLong);
            }
        }
        return n;
    }

    private StreamingQueryProgress lastProgress(UUID id) {
        QueryTracker.Run r = tracker.latest(id);
        return r == null ? null : tracker.read(r, x -> x.recent.peekLast());
    }

    private Value last(UUID id, ToDoubleFunction<StreamingQueryProgress> f) {
        return () -> {
            StreamingQueryProgress p = lastProgress(id);
            return p == null ? Double.NaN : f.applyAsDouble(p);
        };
    }

    private Value source(UUID id, int index, ToDoubleFunction<SourceProgress> f) {
        return () -> lastSource(id, index, f);
    }

    private double lastSource(UUID id, int index, ToDoubleFunction<SourceProgress> f) {
        StreamingQueryProgress p = lastProgress(id);
        return p == null || index >= p.sources().size() ? Double.NaN : f.applyAsDouble(p.sources().get(index));
    }

    static double number(String s) {
        if (s == null) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
