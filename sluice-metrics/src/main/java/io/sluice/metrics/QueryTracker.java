package io.sluice.metrics;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The queries of one {@link Sluice} instance as its listener events describe them: a listener, so all of its work runs
 * on the listener bus thread, never on a query thread. Readers (meters at scrape time, the REST API on the server's
 * threads) see immutable snapshots through synchronized accessors.
 */
final class QueryTracker extends StreamingQueryListener {

    /** What a scrape or a request reads of one query run. Fields are guarded by the tracker's lock. */
    static final class Run {
        final UUID id;
        final UUID runId;
        final String name;
        final long startedMillis;
        final StreamingQuery handle;
        final ArrayDeque<StreamingQueryProgress> recent = new ArrayDeque<>();
        long inputRows;
        long batches;
        long outputRows;
        long lastCommitMillis;
        String state = "active";
        String exception;
        final Map<String, Long> sourceRows = new LinkedHashMap<>();

        Run(UUID id, UUID runId, String name, long startedMillis, StreamingQuery handle) {
            this.id = id;
            this.runId = runId;
            this.name = name;
            this.startedMillis = startedMillis;
            this.lastCommitMillis = startedMillis;
            this.handle = handle;
        }
    }

    private final Sluice sluice;
    private final int ringSize;
    private final Map<UUID, Run> runs = new LinkedHashMap<>();
    private final List<Consumer<Run>> onStart = new CopyOnWriteArrayList<>();
    private final List<Consumer<StreamingQueryProgress>> onProgress = new CopyOnWriteArrayList<>();
    private long failures;

    QueryTracker(Sluice sluice, int ringSize) {
        if (ringSize < 1) {
            throw new IllegalArgumentException("The progress ring must hold at least 1 progress, not " + ringSize);
        }
        this.sluice = sluice;
        this.ringSize = ringSize;
    }

    void whenStarted(Consumer<Run> c) {
        onStart.add(c);
    }

    void whenProgress(Consumer<StreamingQueryProgress> c) {
        onProgress.add(c);
    }

    /** Runs already active when the tracker was registered, so a late bind still sees them. */
    void adoptActive() {
        for (StreamingQuery q : sluice.activeQueries()) {
            Run r;
            synchronized (this) {
                if (runs.containsKey(q.runId())) {
                    continue;
                }
                r = new Run(q.id(), q.runId(), q.name(), sluice.clock().millis(), q);
                for (StreamingQueryProgress p : q.recentProgress()) {
                    record(r, p);
                }
                runs.put(q.runId(), r);
            }
            onStart.forEach(c -> c.accept(r));
        }
    }

    @Override
    public void onQueryStarted(QueryStartedEvent event) {
        StreamingQuery handle = null;
        for (StreamingQuery q : sluice.activeQueries()) {
            if (q.runId().equals(event.runId())) {
                handle = q;
            }
        }
        Run r = new Run(event.id(), event.runId(), event.name(), Instant.parse(event.timestamp()).toEpochMilli(),
                handle);
        synchronized (this) {
            if (runs.containsKey(event.runId())) {
                return;
            }
            runs.put(event.runId(), r);
        }
        onStart.forEach(c -> c.accept(r));
    }

    @Override
    public void onQueryProgress(QueryProgressEvent event) {
        StreamingQueryProgress p = event.progress();
        synchronized (this) {
            Run r = runs.get(p.runId());
            if (r == null) {
                return;
            }
            record(r, p);
        }
        onProgress.forEach(c -> c.accept(p));
    }

    private void record(Run r, StreamingQueryProgress p) {
        r.recent.addLast(p);
        while (r.recent.size() > ringSize) {
            r.recent.removeFirst();
        }
        r.inputRows += p.numInputRows();
        r.batches++;
        if (p.sink() != null && p.sink().numOutputRows() > 0) {
            r.outputRows += p.sink().numOutputRows();
        }
        // The batch is committed when its trigger ends: the trigger's start plus its duration.
        r.lastCommitMillis = millis(p.timestamp()) + p.batchDuration();
        for (int i = 0; i < p.sources().size(); i++) {
            r.sourceRows.merge(sourceKey(i, p.sources().get(i).description()), p.sources().get(i).numInputRows(),
                    Long::sum);
        }
    }

    /** {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}, the progress timestamp, read without a general parser. */
    static long millis(String t) {
        if (t.length() == 24 && t.charAt(4) == '-' && t.charAt(10) == 'T' && t.charAt(19) == '.' && t.charAt(23) == 'Z') {
            long days = java.time.LocalDate.of(digits(t, 0, 4), digits(t, 5, 7), digits(t, 8, 10)).toEpochDay();
            return ((days * 24 + digits(t, 11, 13)) * 60 + digits(t, 14, 16)) * 60_000 + digits(t, 17, 19) * 1000L
                    + digits(t, 20, 23);
        }
        return Instant.parse(t).toEpochMilli();
    }

    private static int digits(String s, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new java.time.format.DateTimeParseException("Not a progress timestamp", s, i);
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    static String sourceKey(int index, String description) {
        return index + "\u0000" + description;
    }

    @Override
    public void onQueryTerminated(QueryTerminatedEvent event) {
        synchronized (this) {
            Run r = runs.get(event.runId());
            if (r == null) {
                return;
            }
            r.state = event.exception() == null ? "stopped" : "failed";
            r.exception = event.exception();
            if (event.exception() != null) {
                failures++;
            }
        }
    }

    synchronized List<Run> runs() {
        return new ArrayList<>(runs.values());
    }

    /** The latest run of a query id (a query restarted in this process has several runs). */
    synchronized Run latest(UUID id) {
        Run found = null;
        for (Run r : runs.values()) {
            if (r.id.equals(id)) {
                found = r;
            }
        }
        return found;
    }

    synchronized long failuresOf(UUID id) {
        long n = 0;
        for (Run r : runs.values()) {
            if (r.id.equals(id) && "failed".equals(r.state)) {
                n++;
            }
        }
        return n;
    }

    synchronized long failures() {
        return failures;
    }

    synchronized <T> T read(Run r, java.util.function.Function<Run, T> f) {
        return f.apply(r);
    }

    synchronized List<StreamingQueryProgress> recent(Run r) {
        return new ArrayList<>(r.recent);
    }
}
