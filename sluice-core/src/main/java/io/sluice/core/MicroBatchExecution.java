package io.sluice.core;

import io.sluice.api.Offset;
import io.sluice.api.SluiceClock;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.StreamContext;
import io.sluice.core.checkpoint.Checkpoint;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.InvalidOptionException;
import io.sluice.core.checkpoint.CommitMetadata;
import io.sluice.core.checkpoint.OffsetSeq;
import io.sluice.core.checkpoint.RecoveryPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs one query: the micro-batch loop of Spark's MicroBatchExecution, on one named thread.
 *
 * <p>Per trigger, two steps. Constructing the next batch: ask each source ({@link SourceExecution}, one per source
 * in {@code offsets/N}'s order) for its latest offset under its read limit; if none moved, nothing is written;
 * otherwise write {@code offsets/N}. Running it: plan and read every moved source's partitions in parallel into the
 * sink, let the sink commit, write {@code commits/N}, then let each source release what batch N consumed. On
 * start, a batch that was logged but not committed is re-run with exactly its logged range, without constructing.
 */
final class MicroBatchExecution implements StreamingQuery {
    private static final Logger LOG = LoggerFactory.getLogger(MicroBatchExecution.class);
    /** Its own logger, so an application that reports failures itself (the CLI) can leave this one out. */
    private static final Logger FAILURE_LOG = LoggerFactory.getLogger(StreamingQueryException.FAILURE_LOGGER);
    /** Spark's spark.sql.streaming.pollingDelay: how long an empty back-to-back trigger waits. */
    static final long POLLING_DELAY_MS = 10;
    /** Spark's spark.sql.streaming.noDataProgressEventInterval. */
    static final long IDLE_EVENT_INTERVAL_MS = 10_000;
    private static final int RECENT_PROGRESS = 100;

    private final Sluice sluice;
    private final DataStreamWriter.QuerySpec spec;
    private final SluiceClock clock;
    private final Checkpoint checkpoint;
    /** The object store the checkpoint is on, closed when the query stops; null for a local checkpoint. */
    private final Storage checkpointStorage;
    private final boolean temporaryCheckpoint;
    private final UUID id;
    private final UUID runId = UUID.randomUUID();
    /** One per source, in source order (index i is line i of {@code offsets/N} and folder {@code sources/<i>}). */
    private final List<SourceExecution> sources;
    private final Sink sink;
    private final Thread thread;

    private final Object waitLock = new Object();
    private boolean stopRequested;
    private boolean waiting;
    /**
     * Set when stop() ran out of its grace period and interrupted the thread: from then on nothing more is
     * committed, and whatever the interrupt makes a source or sink throw counts as the stop, not as a failure.
     */
    private volatile boolean forcedStop;

    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile StreamingQueryException failure;
    private volatile StreamingQueryStatus status = new StreamingQueryStatus("Initializing sources", false, false);
    private final ArrayDeque<StreamingQueryProgress> recent = new ArrayDeque<>();

    /** Triggers started so far, and the number of the last one that found no new data (processAllAvailable). */
    private final Object triggerMonitor = new Object();
    private long triggersStarted;
    private long lastEmptyTrigger = -1;

    /** The stateful operator's execution, or null for a stateless query. */
    private final StatefulExecution stateful;
    /**
     * The watermark the next constructed batch runs with (logged as its {@code batchWatermarkMs}), and the one the
     * last batch ran with (the next batch's watermark for late rows). Query thread only.
     */
    private long nextWatermarkMs;
    private long lastWatermarkMs;

    private final RecoveryPlan recovery;
    /** Where the previous run left off: a batch to re-run (or null), the next batch id. */
    private final Batch pendingAtStart;
    private final long nextBatchIdAtStart;

    private MicroBatchExecution(Sluice sluice, DataStreamWriter.QuerySpec spec, Checkpoint checkpoint,
                                boolean temporaryCheckpoint, RecoveryPlan recovery, List<SourceExecution> sources,
                                Sink sink, StatefulExecution stateful, Storage checkpointStorage) {
        this.checkpointStorage = checkpointStorage;
        this.recovery = recovery;
        this.stateful = stateful;
        this.sluice = sluice;
        this.spec = spec;
        this.clock = sluice.clock();
        this.checkpoint = checkpoint;
        this.temporaryCheckpoint = temporaryCheckpoint;
        this.id = UUID.fromString(checkpoint.queryId());
        this.sources = sources;
        this.sink = sink;
        int n = sources.size();
        Offset[] committed = new Offset[n];
        Batch pending = null;
        if (recovery instanceof RecoveryPlan.Resume r) {
            long latest = r.nextBatchId() - 1;
            committed = deserialize(r.startOffsets(), latest);
            Offset[] end = committed;
            previousEnd(latest).ifPresent(previous -> checkForward(latest, previous, end));
        } else if (recovery instanceof RecoveryPlan.Rerun r) {
            if (r.startOffsets() != null) {
                committed = deserialize(r.startOffsets(), r.batchId() - 1);
            }
            Offset[] end = deserialize(r.endOffsets(), r.batchId());
            if (r.startOffsets() != null) {
                checkForward(r.batchId(), committed, end);
            }
            List<SourceRange> ranges = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ranges.add(new SourceRange(committed[i], end[i], null)); // latestOffset is not asked for a re-run
            }
            pending = new Batch(r.batchId(), ranges, r.endOffsets().batchTimestampMs(), r.endOffsets().offsets());
            pending.watermarkMs = r.endOffsets().batchWatermarkMs();
            pending.lateWatermarkMs = r.startOffsets() == null ? 0 : r.startOffsets().batchWatermarkMs();
            LOG.info("Query {} will re-run batch {}, logged but not committed before the last stop", describe(),
                    r.batchId());
        }
        for (int i = 0; i < n; i++) {
            sources.get(i).committed(committed[i]);
        }
        if (recovery instanceof RecoveryPlan.Resume r) {
            nextWatermarkMs = r.lastCommit().nextBatchWatermarkMs();
            lastWatermarkMs = r.startOffsets().batchWatermarkMs();
        }
        pendingAtStart = pending;
        nextBatchIdAtStart = recovery.firstBatchId();
        this.thread = new Thread(this::run, "sluice-query-" + (spec.name() != null ? spec.name() : id));
        // A daemon, as Spark's stream execution thread: a thread stop() had to leave behind never keeps the JVM up.
        this.thread.setDaemon(true);
    }

    /** Builds everything on the caller's thread, so every error before the first batch is thrown by start(). */
    static MicroBatchExecution start(Sluice sluice, DataStreamWriter.QuerySpec spec) {
        // Refuse a duplicate name before anything is built: building a sink may touch shared state (a memory table).
        sluice.checkNameAvailable(spec.name());
        checkNotReadingItsOwnOutput(spec);
        boolean stored = spec.storedCheckpoint() != null;
        boolean temporary = spec.checkpointLocation() == null && !stored;
        Path location = spec.checkpointLocation();
        if (temporary) {
            try {
                location = Files.createTempDirectory("sluice-temporary-checkpoint-");
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a temporary checkpoint folder", e);
            }
            LOG.warn("No checkpointLocation given: using temporary checkpoint {}; the query cannot recover after a "
                    + "restart, and the folder is deleted when it stops", location);
        }
        // What this start() creates, deleted again if it fails: the temporary folder, or the outermost folder of
        // checkpointLocation that did not exist yet (never one that existed, nor anything beside it). Nothing on an
        // object store, where the objects written are the checkpoint's own and harmless.
        Path created = stored ? null : temporary ? location : firstMissing(location);
        Checkpoint checkpoint;
        Storage storage = null;
        try {
            if (stored) {
                // The storage conf: the engine's entries, then the sink's options (as Spark's Hadoop conf).
                storage = Storages.of(spec.storedCheckpoint(), Storages.conf(sluice.config(),
                        spec.sinkOptions().asMap()), sluice.classLoader());
                checkSourcesKeepStateOnStorage(spec);
                checkpoint = Checkpoint.open(storage, spec.storedCheckpoint(), sluice.clock(),
                        sluice.checkpointLeaseTimeoutMs());
            } else {
                checkpoint = Checkpoint.open(location);
            }
        } catch (CheckpointLockedException e) {
            // Held by another query, which created the folder or found it: never ours to delete.
            closeQuietly(storage);
            throw e;
        } catch (IOException e) {
            closeQuietly(storage);
            throw new UncheckedIOException("Cannot open checkpoint location " + spec.storedCheckpoint() + ": "
                    + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            closeQuietly(storage);
            if (created != null) {
                deleteCreated(created);
            }
            throw e;
        }
        List<SourceExecution> sources = new ArrayList<>();
        Sink sink = null;
        StatefulExecution stateful = null;
        try {
            // Read the logs now, so a corrupt checkpoint fails start() itself.
            RecoveryPlan recovery = checkpoint.recover();
            // State goes through the checkpoint's storage: the local disk, or the object store's (lease-checked).
            Storage stateStorage = checkpoint.stateStorage();
            if (spec.stateful().op() != null) {
                Map<String, String> logged = null;
                long restored = 0;
                if (recovery instanceof RecoveryPlan.Resume r) {
                    logged = r.startOffsets().conf();
                    restored = r.lastCommit().nextBatchWatermarkMs();
                } else if (recovery instanceof RecoveryPlan.Rerun r) {
                    logged = r.endOffsets().conf();
                    restored = r.endOffsets().batchWatermarkMs();
                }
                stateful = new StatefulExecution(sluice, spec, stateStorage, checkpoint.location(), logged, restored,
                        spec.minBatchesToRetain());
                stateful.loadFirstVersion(recovery.firstBatchId());
            } else {
                String held = StatefulExecution.operatorInCheckpoint(stateStorage, checkpoint.location());
                if (held != null) {
                    throw StatefulExecution.operatorMismatch(held, null);
                }
            }
            for (int i = 0; i < spec.sources().size(); i++) {
                DataStreamReader.SourceSpec source = spec.sources().get(i);
                Path folder = stored ? null : checkpoint.sourceDir(i);
                MicroBatchStream stream = spec.createStream(i, stored
                        ? new StreamContext(source.options(), source.schema(), null, sluice.clock(),
                        checkpoint.queryId(), i, false, sluice.sessionTimeZone(), checkpoint.sourceLocation(i),
                        storage)
                        : new StreamContext(source.options(), source.schema(), folder, sluice.clock(),
                        checkpoint.queryId(), i, false, sluice.sessionTimeZone()));
                sources.add(new SourceExecution(i, source, stream, folder));
            }
            sink = spec.sink().createSink(new SinkContext(spec.sinkOptions(), spec.outputSchema(),
                    stored ? null : checkpoint.path(), checkpoint.queryId(), spec.name(), sluice.clock(),
                    sluice.sessionTimeZone(), spec.outputMode().name().toLowerCase(java.util.Locale.ROOT),
                    checkpoint.location(), Storages.conf(sluice.config(), Map.of())));
            MicroBatchExecution q = new MicroBatchExecution(sluice, spec, checkpoint, temporary, recovery,
                    List.copyOf(sources), sink, stateful, storage);
            sluice.register(q);
            String now = ProgressTime.format(sluice.clock().millis());
            sluice.bus().postNow(l -> l.onQueryStarted(
                    new StreamingQueryListener.QueryStartedEvent(q.id, q.runId, q.spec.name(), now)));
            q.thread.start();
            return q;
        } catch (RuntimeException | Error e) {
            sources.forEach(SourceExecution::stopQuietly);
            closeQuietly(sink);
            if (stateful != null) {
                stateful.close();
            }
            checkpoint.close();
            closeQuietly(storage);
            if (created != null) {
                deleteCreated(created);
            }
            throw e;
        }
    }

    /**
     * Refuses a sink writing into a folder a source reads (or a folder inside it, or containing it): the query
     * would read its own output, or, where the output's manifest hides it, wait for input forever.
     */
    private static void checkNotReadingItsOwnOutput(DataStreamWriter.QuerySpec spec) {
        Optional<Path> out = spec.sink().localOutputFolder(spec.sinkOptions());
        if (out.isEmpty()) {
            return;
        }
        Path output = realPath(out.get());
        for (DataStreamReader.SourceSpec source : spec.sources()) {
            Optional<Path> in = source.provider().localInputFolder(source.options());
            if (in.isEmpty()) {
                continue;
            }
            Path input = realPath(in.get());
            String how;
            if (input.equals(output)) {
                how = "the same folder";
            } else if (output.startsWith(input)) {
                how = "the output folder is inside the folder the source reads";
            } else if (input.startsWith(output)) {
                how = "the folder the source reads is inside the output folder";
            } else {
                continue;
            }
            throw new IllegalArgumentException("The sink '" + spec.sink().shortName() + "' writes into " + out.get()
                    + " and the source '" + source.provider().shortName() + "' reads " + in.get() + ": " + how
                    + ". The query would read its own output (or wait for new input forever). Use two separate "
                    + "folders, neither inside the other");
        }
    }

    /** The path with symbolic links resolved as far as it exists, so two names of one folder compare equal. */
    private static Path realPath(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return abs;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(abs));
        } catch (IOException e) {
            return abs; // cannot resolve: compare as written
        }
    }

    // ---------------------------------------------------------------- the loop

    private void run() {
        try {
            runBatches();
        } catch (InterruptedException e) {
            LOG.info("Query {} interrupted while stopping", this);
        } catch (Throwable t) {
            if (forcedStop) {
                LOG.info("Query {} stopped by interrupting it; the batch in flight, if any, is re-run at the next "
                        + "start ({})", describe(), t.toString());
                return; // the finally block still runs
            }
            // Spark's STREAM_FAILED message quotes the cause's message, not its class name.
            String cause = t.getMessage() != null ? t.getMessage() : t.toString();
            failure = new StreamingQueryException("Query " + describe() + " terminated with exception: " + cause, t,
                    id, runId);
            FAILURE_LOG.error("Query {} failed", describe(), t);
        } finally {
            Thread.interrupted(); // stop()'s interrupt is spent: let the clean-up below close channels normally
            sources.forEach(SourceExecution::stopQuietly);
            closeQuietly(sink);
            if (stateful != null) {
                stateful.close();
            }
            checkpoint.close();
            closeQuietly(checkpointStorage);
            if (temporaryCheckpoint && failure == null) {
                deleteRecursively(checkpoint.path());
            }
            status = new StreamingQueryStatus("Stopped", false, false);
            sluice.unregister(this);
            String error = failure == null ? null : stackTrace(failure.getCause());
            sluice.bus().post(l -> l.onQueryTerminated(new StreamingQueryListener.QueryTerminatedEvent(id, runId, error)));
            terminated.countDown();
            synchronized (triggerMonitor) {
                triggerMonitor.notifyAll();
            }
        }
    }

    private void runBatches() throws Exception {
        boolean availableNow = spec.trigger() instanceof Trigger.AvailableNow;
        boolean once = spec.trigger() instanceof Trigger.Once;
        if (once) {
            LOG.warn("Trigger.once() is deprecated: use Trigger.availableNow(), which honours the sources' read limits");
        }

        Batch pending = pendingAtStart;
        long nextBatchId = nextBatchIdAtStart;
        if (recovery instanceof RecoveryPlan.Resume) {
            // A crash between commits/L and the sources' commit would leave data unreleased: release it now.
            for (SourceExecution s : sources) {
                if (s.committed() != null) {
                    s.release(s.committed());
                }
            }
        }
        for (SourceExecution s : sources) {
            s.prepare(spec.trigger());
        }

        long previousTriggerStart = -1;
        long lastIdleEvent = Long.MIN_VALUE / 2;
        boolean ranOnce = false;
        while (!isStopRequested()) {
            long triggerStart = clock.millis();
            long t0 = clock.nanos();
            synchronized (triggerMonitor) {
                triggersStarted++;
            }
            long triggerNumber = triggersStarted;
            status = new StreamingQueryStatus("Getting offsets from sources", status.isDataAvailable(), true);
            Map<String, Long> durations = new LinkedHashMap<>();
            Batch batch;
            if (pending != null) {
                batch = pending;
                pending = null;
            } else {
                if (once && ranOnce) {
                    break;
                }
                batch = constructNextBatch(nextBatchId, triggerStart, durations);
                if (batch == null && stateful != null && ranOnce
                        && stateful.wantsNoDataBatch(nextWatermarkMs, lastWatermarkMs)) {
                    batch = noDataBatch(nextBatchId, triggerStart);
                }
                if (batch == null) {
                    durations.put("triggerExecution", millisSince(t0));
                    status = new StreamingQueryStatus("Waiting for data to arrive", false, false);
                    synchronized (triggerMonitor) {
                        lastEmptyTrigger = triggerNumber;
                        triggerMonitor.notifyAll();
                    }
                    if (triggerStart - lastIdleEvent >= IDLE_EVENT_INTERVAL_MS) {
                        lastIdleEvent = triggerStart;
                        String ts = ProgressTime.format(triggerStart);
                        sluice.bus().post(l -> l.onQueryIdle(new StreamingQueryListener.QueryIdleEvent(id, runId, ts)));
                    }
                    if (availableNow || once) {
                        break;
                    }
                    waitForNextTrigger(triggerStart, false);
                    continue;
                }
                if (isStopRequested()) {
                    break; // asked to stop while the sources were asked: start no batch
                }
                logBatch(batch, durations);
            }

            status = new StreamingQueryStatus("Processing new data", true, true);
            runBatch(batch, durations);
            nextBatchId = batch.id + 1;
            ranOnce = true;
            long triggerMs = millisSince(t0);
            durations.put("triggerExecution", triggerMs);
            reportProgress(batch, durations, triggerStart, previousTriggerStart, triggerMs);
            previousTriggerStart = triggerStart;
            if (once) {
                break;
            }
            waitForNextTrigger(triggerStart, true);
        }
    }

    /**
     * A batch that reads nothing, run only to let a stateful operator evict and emit under the new watermark
     * (Spark's no-data micro-batch): every source's range is empty, at its committed offset.
     */
    private Batch noDataBatch(long batchId, long triggerStart) {
        List<SourceRange> ranges = new ArrayList<>(sources.size());
        List<String> logged = new ArrayList<>(sources.size());
        for (SourceExecution s : sources) {
            ranges.add(new SourceRange(s.committed(), s.committed(), null));
            logged.add(json(s.committed()));
        }
        Batch b = new Batch(batchId, ranges, triggerStart, logged);
        b.watermarkMs = nextWatermarkMs;
        b.lateWatermarkMs = lastWatermarkMs;
        return b;
    }

    /**
     * Constructing batch {@code batchId}, first half: asks every source where the batch would end under its read
     * limit. Returns null when no source moved (nothing is written then); otherwise the batch, not yet logged.
     */
    private Batch constructNextBatch(long batchId, long triggerStart, Map<String, Long> durations) {
        List<SourceRange> ranges = new ArrayList<>(sources.size());
        boolean moved = false;
        long l0 = clock.nanos();
        for (SourceExecution s : sources) {
            Offset start = s.nextStart();
            Offset end = s.nextEnd(start);
            Offset latest = s.stream.reportLatestOffset();
            if (end != null && !Offset.same(end, start)) {
                moved = true;
            } else {
                end = s.committed();
            }
            ranges.add(new SourceRange(s.committed(), end, latest));
        }
        durations.put("latestOffset", millisSince(l0));
        if (!moved) {
            return null;
        }
        List<String> logged = new ArrayList<>(ranges.size());
        for (SourceRange r : ranges) {
            logged.add(json(r.end()));
        }
        Batch b = new Batch(batchId, ranges, triggerStart, logged);
        b.watermarkMs = nextWatermarkMs;
        b.lateWatermarkMs = lastWatermarkMs;
        return b;
    }

    /**
     * Constructing a batch, second half: writes {@code offsets/N} before anything is read (what makes a re-run read
     * the same range), then purges what {@code minBatchesToRetain} no longer keeps.
     */
    private void logBatch(Batch batch, Map<String, Long> durations) {
        long w0 = clock.nanos();
        Map<String, String> conf = stateful == null ? Map.of() : stateful.conf();
        if (!checkpoint.offsetLog().add(batch.id, new OffsetSeq(batch.watermarkMs, batch.plannedAtMs, conf,
                batch.logged))) {
            throw new IllegalStateException("Concurrent update to the log: " + checkpoint.offsetLog()
                    .fileFor(batch.id) + " already exists. Multiple streaming queries may be writing to "
                    + "the checkpoint " + checkpoint.location());
        }
        checkpoint.purge(batch.id, spec.minBatchesToRetain());
        durations.put("walCommit", millisSince(w0));
    }

    /**
     * Running a logged batch: plans every moved source's partitions, reads them into the sink, lets the sink
     * commit, writes {@code commits/N}, then lets each moved source release its range. Counts rows per source.
     */
    private void runBatch(Batch batch, Map<String, Long> durations) throws Exception {
        long g0 = clock.nanos();
        List<ReadTask> tasks = new ArrayList<>();
        for (SourceExecution s : sources) {
            SourceRange range = batch.ranges.get(s.index);
            if (!range.reads()) {
                continue;
            }
            Offset from = range.start() != null ? range.start() : s.initialOffset();
            for (InputPartition p : s.stream.planPartitions(from, range.end())) {
                tasks.add(new ReadTask(s.index, s.stream, p, tasks.size(), spec.operatorFor(s.index)));
            }
        }
        durations.put("getBatch", millisSince(g0));
        durations.put("queryPlanning", 0L);
        if (stateful != null) {
            runStatefulBatch(batch, tasks, durations);
            return;
        }

        long a0 = clock.nanos();
        BatchWriter writer = sink.beginBatch(batch.info(checkpoint.queryId()));
        try {
            long grace = sluice.stopGracePeriodMs();
            List<Object> results = ReadTask.runAll(tasks, writer, sluice.readers(), grace,
                    readerWaitAfterForcedStop(grace));
            for (ReadTask t : tasks) {
                batch.inputRows[t.sourceIndex] += t.rows;
            }
            throwIfForcedToStop();
            writer.commit(results);
        } catch (Exception | Error e) {
            try {
                writer.abort(e);
            } catch (RuntimeException abortFailure) {
                e.addSuppressed(abortFailure);
            }
            throw e;
        }
        durations.put("addBatch", millisSince(a0));
        batch.numOutputRows = writer.numOutputRows();
        commitBatch(batch, durations, 0);
    }

    /**
     * Running a logged batch of a stateful query: the readers feed the operator's tasks, the state partitions fold
     * them in and commit version N+1 of their stores, then the emitted rows go to the sink, which commits; then
     * {@code commits/N} with the next watermark.
     */
    private void runStatefulBatch(Batch batch, List<ReadTask> tasks, Map<String, Long> durations) throws Exception {
        long a0 = clock.nanos();
        long grace = sluice.stopGracePeriodMs();
        List<Object> taskResults = ReadTask.runAll(tasks, stateful.shuffleWriter(batch.lateWatermarkMs),
                sluice.readers(), grace, readerWaitAfterForcedStop(grace));
        for (ReadTask t : tasks) {
            batch.inputRows[t.sourceIndex] += t.rows;
        }
        throwIfForcedToStop();
        StatefulExecution.Outcome outcome = stateful.process(batch.id, taskResults, batch.lateWatermarkMs,
                batch.watermarkMs);
        throwIfForcedToStop();
        BatchWriter writer = sink.beginBatch(batch.info(checkpoint.queryId()));
        long rows = 0;
        for (List<io.sluice.api.Row> part : outcome.rows()) {
            rows += part.size();
        }
        try {
            writer.commit(StatefulExecution.write(writer, outcome.rows()));
        } catch (Exception | Error e) {
            try {
                writer.abort(e);
            } catch (RuntimeException abortFailure) {
                e.addSuppressed(abortFailure);
            }
            throw e;
        }
        durations.put("addBatch", millisSince(a0));
        batch.numOutputRows = writer.numOutputRows() >= 0 ? writer.numOutputRows() : rows;
        batch.stateOperators = outcome.progress();
        batch.eventTime = outcome.eventTime();
        commitBatch(batch, durations, outcome.nextWatermarkMs());
        lastWatermarkMs = batch.watermarkMs;
        nextWatermarkMs = outcome.nextWatermarkMs();
    }

    /** {@code commits/N}, then each moved source releases what the batch consumed. */
    private void commitBatch(Batch batch, Map<String, Long> durations, long nextWatermark) throws Exception {
        long c0 = clock.nanos();
        throwIfForcedToStop();
        if (!checkpoint.commitLog().add(batch.id, new CommitMetadata(nextWatermark))) {
            throw new IllegalStateException("Concurrent update to the log: " + checkpoint.commitLog().fileFor(batch.id)
                    + " already exists. Multiple streaming queries may be writing to the checkpoint "
                    + checkpoint.location());
        }
        durations.put("commitOffsets", millisSince(c0));
        for (SourceExecution s : sources) {
            SourceRange range = batch.ranges.get(s.index);
            if (range.reads()) {
                s.release(range.end());
            }
            s.committed(range.end());
        }
    }

    private void reportProgress(Batch batch, Map<String, Long> durations, long triggerStart,
                                long previousTriggerStart, long triggerMs) {
        List<SourceProgress> progress = new ArrayList<>(sources.size());
        for (SourceExecution s : sources) {
            SourceRange range = batch.ranges.get(s.index);
            long rows = batch.inputRows[s.index];
            double input = previousTriggerStart < 0 ? 0.0 : rows * 1000.0 / (triggerStart - previousTriggerStart);
            double processed = rows * 1000.0 / Math.max(1, triggerMs);
            progress.add(new SourceProgress(s.description(), json(range.start()), json(range.end()),
                    json(range.latest()), rows, input, processed, s.metrics(range.end())));
        }
        StreamingQueryProgress p = new StreamingQueryProgress(id, runId, spec.name(),
                ProgressTime.format(triggerStart), batch.id, triggerMs, durations, batch.eventTime,
                batch.stateOperators, progress, new SinkProgress(sink.description(), batch.numOutputRows, Map.of()));
        synchronized (recent) {
            recent.addLast(p);
            if (recent.size() > RECENT_PROGRESS) {
                recent.removeFirst();
            }
        }
        LOG.debug("Progress of query {}: {}", describe(), p.json());
        sluice.bus().post(l -> l.onQueryProgress(new StreamingQueryListener.QueryProgressEvent(p)));
    }

    private void waitForNextTrigger(long triggerStart, boolean hadData) throws InterruptedException {
        long interval = spec.trigger() instanceof Trigger.ProcessingTime pt ? pt.intervalMs() : 0;
        long target;
        if (interval > 0) {
            target = triggerStart / interval * interval + interval;
            long elapsed = clock.millis() - triggerStart;
            if (elapsed > interval) {
                LOG.warn("Current batch of query {} is falling behind. The trigger interval is {} milliseconds, but "
                        + "spent {} milliseconds", describe(), interval, elapsed);
            }
        } else if (!hadData) {
            target = clock.millis() + POLLING_DELAY_MS;
        } else {
            return;
        }
        if (clock.millis() >= target) {
            return;
        }
        status = new StreamingQueryStatus("Waiting for next trigger", status.isDataAvailable(), false);
        synchronized (waitLock) {
            if (stopRequested) {
                return;
            }
            waiting = true;
        }
        try {
            clock.waitUntil(target);
        } catch (InterruptedException e) {
            // stop() interrupts only a waiting query; the loop sees stopRequested next.
        } finally {
            synchronized (waitLock) {
                waiting = false;
                Thread.interrupted();
            }
        }
    }

    // ---------------------------------------------------------------- the handle

    @Override
    public UUID id() {
        return id;
    }

    @Override
    public UUID runId() {
        return runId;
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public boolean isActive() {
        return terminated.getCount() > 0;
    }

    @Override
    public StreamingQueryStatus status() {
        return status;
    }

    @Override
    public StreamingQueryProgress lastProgress() {
        synchronized (recent) {
            return recent.peekLast();
        }
    }

    @Override
    public List<StreamingQueryProgress> recentProgress() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    @Override
    public Optional<Path> checkpointLocation() {
        // A checkpoint on an object store has no local path (its URI is in the query's messages).
        return checkpoint.storage().isPresent() ? Optional.empty() : Optional.of(checkpoint.path());
    }

    @Override
    public Optional<StreamingQueryException> exception() {
        return Optional.ofNullable(failure);
    }

    /**
     * How long the query thread waits for its cancelled readers after stop()'s interrupt: half the grace period,
     * so that with a reader that ignores interrupts the thread still has the other half to abort the batch and
     * clean up, and has ended before stop(), which waits one whole grace period after interrupting, gives up on it.
     * (The same bound on both sides would let stop() return, warning that the query did not end, just before it
     * does.)
     */
    static long readerWaitAfterForcedStop(long graceMs) {
        return Math.max(1, graceMs / 2);
    }

    /**
     * Three steps, each bounded: ask for a stop at the next batch boundary (a waiting query is woken at once) and
     * wait up to the grace period; then interrupt the query thread (which cancels its readers, waits for them up to
     * {@link #readerWaitAfterForcedStop} and cleans up) and wait up to the grace period again; then give up
     * waiting, warn, and return with the thread left running as a daemon.
     */
    @Override
    public void stop() {
        synchronized (waitLock) {
            stopRequested = true;
            if (waiting) {
                thread.interrupt();
            }
        }
        if (Thread.currentThread() == thread) {
            return;
        }
        long grace = sluice.stopGracePeriodMs();
        if (awaitTerminated(grace)) {
            return;
        }
        LOG.warn("Query {} did not reach a batch boundary within {} ms of stop() ({}): interrupting it; the batch in "
                + "flight, if any, is abandoned and re-run at the next start", describe(), grace, status.message());
        forcedStop = true;
        thread.interrupt();
        if (awaitTerminated(grace)) {
            return;
        }
        StackTraceElement[] stack = thread.getStackTrace();
        LOG.warn("Query {} did not end within {} ms of being interrupted: stop() returns and leaves its daemon thread "
                        + "{} running at {}; it commits nothing more, and keeps the checkpoint locked until it ends",
                describe(), grace, thread.getName(), stack.length == 0 ? "(unknown)" : stack[0]);
    }

    /** Waits up to {@code ms} for the query to end, ignoring interrupts (restored on return). */
    private boolean awaitTerminated(long ms) {
        return ReadTask.awaitIgnoringInterrupts(terminated, ms);
    }

    /** After stop() interrupted the query, a source or reader that swallowed the interrupt must not commit. */
    private void throwIfForcedToStop() throws InterruptedException {
        if (forcedStop) {
            throw new InterruptedException("Query " + describe() + " was stopped while its batch was running");
        }
    }

    private boolean isStopRequested() {
        synchronized (waitLock) {
            return stopRequested;
        }
    }

    @Override
    public void awaitTermination() throws StreamingQueryException, InterruptedException {
        terminated.await();
        throwIfFailed();
    }

    @Override
    public boolean awaitTermination(long timeoutMs) throws StreamingQueryException, InterruptedException {
        boolean done = terminated.await(timeoutMs, TimeUnit.MILLISECONDS);
        if (done) {
            throwIfFailed();
        }
        return done;
    }

    @Override
    public void processAllAvailable() throws StreamingQueryException, InterruptedException {
        synchronized (triggerMonitor) {
            long after = triggersStarted;
            while (lastEmptyTrigger <= after && isActive()) {
                triggerMonitor.wait();
            }
        }
        throwIfFailed();
    }

    private void throwIfFailed() throws StreamingQueryException {
        StreamingQueryException f = failure;
        if (f != null) {
            throw f;
        }
    }

    @Override
    public String toString() {
        return describe();
    }

    private String describe() {
        return "[id = " + id + ", runId = " + runId + (spec.name() == null ? "" : ", name = " + spec.name()) + "]";
    }

    // ---------------------------------------------------------------- helpers

    private Offset[] deserialize(OffsetSeq seq, long batchId) {
        if (seq.offsets().size() != sources.size()) {
            // Spark's words first (OffsetSeq.toStreamProgress), then where and what to do.
            throw new IllegalStateException("There are [" + seq.offsets().size() + "] sources in the checkpoint "
                    + "offsets and now there are [" + sources.size() + "] sources requested by the query. Cannot "
                    + "continue. (The checkpoint " + checkpoint.location() + ", batch " + batchId + ": a checkpoint "
                    + "belongs to one query; use a new checkpointLocation for a changed query.)");
        }
        Offset[] out = new Offset[sources.size()];
        for (SourceExecution s : sources) {
            String json = seq.offsets().get(s.index);
            try {
                out[s.index] = json == null ? null : s.stream.deserializeOffset(json);
            } catch (RuntimeException e) {
                throw checkpoint.offsetLog().badOffset(batchId, s.index, s.description(), e);
            }
        }
        return out;
    }

    /**
     * The logged end of the batch before {@code batchId}, to check the newest one against; empty when there is
     * none to compare with (batch 0, purged, or unreadable: a resume does not need it, so it does not fail one).
     */
    private Optional<Offset[]> previousEnd(long batchId) {
        if (batchId == 0) {
            return Optional.empty();
        }
        try {
            return checkpoint.offsetLog().get(batchId - 1).map(seq -> deserialize(seq, batchId - 1));
        } catch (RuntimeException e) {
            LOG.debug("Not comparing {} with the batch before it: {}", checkpoint.offsetLog().fileFor(batchId),
                    e.toString());
            return Optional.empty();
        }
    }

    /** Refuses a logged end of batch {@code batchId} before the previous batch's end, for a source that can tell. */
    private void checkForward(long batchId, Offset[] previous, Offset[] end) {
        for (SourceExecution s : sources) {
            int i = s.index;
            if (previous[i] != null && end[i] != null) {
                Optional<String> back = s.stream.wentBackwards(previous[i], end[i]);
                if (back.isPresent()) {
                    throw checkpoint.offsetLog().wentBackwards(batchId, i, s.description(), back.get());
                }
            }
        }
    }

    private long millisSince(long startNanos) {
        return (clock.nanos() - startNanos) / 1_000_000L;
    }

    private static String json(Offset o) {
        return o == null ? null : o.json();
    }

    private static void closeQuietly(Storage s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("Error closing the checkpoint's storage", e);
        }
    }

    /**
     * A checkpoint on an object store gives sources no local folder: each source must say it keeps its state
     * through the storage, or the query is refused before anything is written.
     */
    private static void checkSourcesKeepStateOnStorage(DataStreamWriter.QuerySpec spec) {
        for (int i = 0; i < spec.sources().size(); i++) {
            io.sluice.api.source.SourceProvider p = spec.sources().get(i).provider();
            if (!p.supportsMetadataOnStorage()) {
                throw new InvalidOptionException("checkpointLocation", spec.storedCheckpoint(), "the source '"
                        + p.shortName() + "' (source " + i + ") keeps its checkpoint state in a local folder only, "
                        + "and this checkpoint is on an object store; give a local checkpointLocation for a query "
                        + "reading it");
            }
        }
    }

    private static void closeQuietly(Sink s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (Exception e) {
            LOG.warn("Closing sink {} failed", s.description(), e);
        }
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /**
     * The outermost folder that creating {@code dir} would create: {@code dir} itself or one of its parents; null
     * when {@code dir} exists. A symbolic link counts as existing, even a dangling one.
     */
    static Path firstMissing(Path dir) {
        Path missing = null;
        for (Path p = dir.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
            if (Files.exists(p) || Files.isSymbolicLink(p)) {
                break;
            }
            missing = p;
        }
        return missing;
    }

    private static void deleteCreated(Path created) {
        if (created != null && Files.exists(created)) {
            LOG.info("start() failed: deleting {}, which it had created", created);
            deleteRecursively(created);
        }
    }

    /** Deletes a folder and everything in it, as far as it can; what cannot be deleted is logged at debug. */
    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.debug("Could not delete {}", p, e);
                }
            });
        } catch (IOException e) {
            LOG.debug("Could not delete temporary checkpoint {}", dir, e);
        }
    }

    /**
     * What batch N reads from one source. {@code start} null means the source's initial offset (the first batch);
     * {@code end} null means the source has no offset yet; {@code latest} is what the source reported as its latest
     * offset when the batch was constructed (null for a batch re-run after a restart).
     */
    private record SourceRange(Offset start, Offset end, Offset latest) {
        /** Whether the batch reads anything from the source: it moved. */
        boolean reads() {
            return end != null && !Offset.same(start, end);
        }
    }

    /** One batch: its id and, per source in source order, its range; once run, the rows read and written. */
    private static final class Batch {
        final long id;
        final List<SourceRange> ranges;
        /** {@code batchTimestampMs} and the end offsets exactly as {@code offsets/N} holds them: its identity. */
        final long plannedAtMs;
        final List<String> logged;
        /** Rows read per source (index as {@code ranges}), counted by the batch's read tasks. */
        final long[] inputRows;
        long numOutputRows = -1;
        /** The watermark the batch runs with ({@code batchWatermarkMs}), and the previous batch's (late rows). */
        long watermarkMs;
        long lateWatermarkMs;
        List<StateOperatorProgress> stateOperators = List.of();
        Map<String, String> eventTime = Map.of();

        Batch(long id, List<SourceRange> ranges, long plannedAtMs, List<String> logged) {
            this.id = id;
            this.ranges = List.copyOf(ranges);
            this.plannedAtMs = plannedAtMs;
            this.logged = logged;
            this.inputRows = new long[ranges.size()];
        }

        /** What the sink is told: taken from the logged text, so a re-run after a crash has the same digest. */
        BatchInfo info(String queryId) {
            List<String> offsets = new ArrayList<>(logged.size());
            for (String json : logged) {
                offsets.add(json == null ? BatchInfo.NO_OFFSET : json);
            }
            return new BatchInfo(queryId, id, plannedAtMs, offsets);
        }
    }
}
