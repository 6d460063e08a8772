package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.WholeObjectOutput;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.core.json.Json;
import io.sluice.core.state.StatePartition;
import io.sluice.core.state.StateStore;
import io.sluice.core.state.StateStoreConf;
import io.sluice.core.state.StateStoreId;
import io.sluice.core.state.StateStoreMetrics;
import io.sluice.core.state.StateStoreProvider;
import io.sluice.core.state.StateStoreProviders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stateful part of a query's batches (docs/ARCHITECTURE.md, "The batch cycle"): the reader tasks hand their
 * rows to the operator's {@link StatefulOp.Task}s instead of the sink (partial aggregation, first-seen rows),
 * grouped by the hash of their key into {@code spark.sql.shuffle.partitions} state partitions; then every state
 * partition, in parallel on the reader pool, loads version N of its store, folds in its share, emits rows by the
 * output mode, evicts what the watermark closed and commits version N+1; the emitted rows then go to the sink, one
 * sink partition writer per state partition. Also keeps the watermarks, the operator's metadata in
 * {@code state/0/_metadata/} and the settings pinned in the offset log. Everything under {@code state/} goes through
 * the checkpoint's {@link Storage} (the local disk, or an object store), given to the stores in their
 * {@link StateStoreConf}.
 */
final class StatefulExecution implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatefulExecution.class);
    static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";
    static final String WATERMARK_POLICY = "spark.sql.streaming.multipleWatermarkPolicy";
    static final String NO_DATA_BATCHES = "spark.sql.streaming.noDataMicroBatches.enabled";
    static final String SCHEMA_CHECK = "spark.sql.streaming.stateStore.stateSchemaCheck";
    /**
     * Sluice's default number of state partitions (Spark's is 200, sized for a cluster): one JVM gains nothing from
     * more partitions than reader threads, and each costs a file per batch.
     */
    static final int DEFAULT_PARTITIONS = 4;
    /**
     * The stateful operators in plan order (the reader tasks feed the first; each feeds the next): one for most
     * queries. Numbered as Spark numbers them, from the last one (the nearest to the sink) as operator 0.
     */
    private final List<Stage> stages;
    private final List<StreamFrame.Watermark> watermarks;
    private final StatefulOp.Mode mode;
    private final int partitions;
    private final String providerName;
    private final StateStoreProvider provider;
    private final boolean maxPolicy;
    private final boolean noDataBatches;
    private final Map<String, String> engineConfig;
    private final int minDeltasForSnapshot;
    private final int minBatchesToRetain;
    private final ExecutorService pool;
    /** The checkpoint's storage ({@link Storages#local()} for a local one); not closed here. */
    private final Storage storage;
    /** The operators whose {@code _metadata} this run has written or found. */
    private final Set<Integer> metadataWritten = ConcurrentHashMap.newKeySet();
    /** Per watermark, its current value (ms); the global one is their min or max. */
    private final long[] operatorWatermarks;

    /**
     * @param storage    the checkpoint's storage: {@link Storages#local()}, or the object store's
     * @param checkpoint the checkpoint's folder on it: its absolute local path, or its URI
     * @param loggedConf the conf of the newest {@code offsets/N}, or null for a new query: its settings win over
     *                   the session's, as in Spark
     * @throws IllegalArgumentException for a bad setting, or a store that keeps its state on the local disk only
     *                                  when the checkpoint is on an object store
     */
    StatefulExecution(Sluice sluice, DataStreamWriter.QuerySpec spec, Storage storage, String checkpoint,
                      Map<String, String> loggedConf, long restoredWatermarkMs, int minBatchesToRetain) {
        StreamFrame.Stateful st = spec.stateful();
        this.watermarks = st.watermarks();
        this.mode = spec.outputMode();
        this.engineConfig = sluice.config();
        this.pool = sluice.readers();
        this.storage = storage;
        String parts = pinned(sluice, loggedConf, SHUFFLE_PARTITIONS, Integer.toString(DEFAULT_PARTITIONS));
        try {
            this.partitions = Integer.parseInt(parts.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid value '" + parts + "' for " + SHUFFLE_PARTITIONS
                    + ": a positive whole number is accepted");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("Invalid value '" + parts + "' for " + SHUFFLE_PARTITIONS
                    + ": a positive whole number is accepted");
        }
        this.providerName = pinned(sluice, loggedConf, StateStoreProvider.PROVIDER_CLASS_KEY, StateStoreProviders.DEFAULT);
        this.provider = StateStoreProviders.find(providerName, sluice.classLoader());
        if (storage.localPath(checkpoint).isEmpty() && !provider.keepsStateOnStorage()) {
            throw new IllegalArgumentException("Invalid value '" + providerName + "' for "
                    + StateStoreProvider.PROVIDER_CLASS_KEY + ": that state store keeps its state on the local disk "
                    + "only, and checkpointLocation " + checkpoint + " is on an object store, where the state must "
                    + "be kept with the rest of the checkpoint to survive a restart on another machine. Use the "
                    + "default in-memory store (leave " + StateStoreProvider.PROVIDER_CLASS_KEY + " unset, or set "
                    + "it to " + StateStoreProviders.DEFAULT + ") or a local checkpointLocation.");
        }
        String policy = pinned(sluice, loggedConf, WATERMARK_POLICY, "min");
        if (!policy.equalsIgnoreCase("min") && !policy.equalsIgnoreCase("max")) {
            throw new IllegalArgumentException("Invalid value '" + policy + "' for " + WATERMARK_POLICY
                    + ": 'min' or 'max' is accepted");
        }
        this.maxPolicy = policy.equalsIgnoreCase("max");
        this.noDataBatches = !sluice.config(NO_DATA_BATCHES).orElse("true").trim().equalsIgnoreCase("false");
        this.minDeltasForSnapshot = intConfig(sluice, StateStoreProvider.MIN_DELTAS_FOR_SNAPSHOT_KEY, 10);
        this.minBatchesToRetain = minBatchesToRetain;
        int n = st.upstream().size() + 1;
        List<Stage> chain = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean last = i == n - 1;
            StatefulOp o = last ? st.op() : st.upstream().get(i).op();
            RowOperator then = last ? spec.postOperator() : st.upstream().get(i).then();
            int id = n - 1 - i;
            chain.add(new Stage(o, id, operatorDir(checkpoint, id), then, new StatePartition[partitions]));
        }
        this.stages = List.copyOf(chain);
        this.operatorWatermarks = new long[watermarks.size()];
        java.util.Arrays.fill(operatorWatermarks, restoredWatermarkMs);
        checkMetadata(checkpoint, !sluice.config(SCHEMA_CHECK).orElse("true").trim().equalsIgnoreCase("false"));
    }

    /**
     * One stateful operator of the query: its Spark operator id, its {@code state/<id>} folder (a location of the
     * checkpoint's storage), its stores, and the steps that run on the rows it emits ({@code then}: before the next
     * operator, or before the sink).
     */
    private record Stage(StatefulOp op, int id, String dir, RowOperator then, StatePartition[] stores) {
    }

    /** {@code <checkpoint>/state/<id>}: the one place that names an operator's folder. */
    private static String operatorDir(String checkpoint, int id) {
        return Storages.child(Storages.child(checkpoint, "state"), Integer.toString(id));
    }

    /** {@code <checkpoint>/state/<id>/_metadata/<name>}. */
    private static String metadataFile(String operatorDir, String name) {
        return Storages.child(Storages.child(operatorDir, "_metadata"), name);
    }

    private static int intConfig(Sluice sluice, String key, int dflt) {
        String v = sluice.config(key).orElse(Integer.toString(dflt));
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("Invalid value '" + v + "' for " + key + ": a positive whole number is "
                + "accepted");
    }

    /** A setting pinned by the checkpoint: the logged value wins over the session's, with a warning if they differ. */
    private static String pinned(Sluice sluice, Map<String, String> logged, String key, String dflt) {
        String session = sluice.config(key).orElse(null);
        String fromLog = logged == null ? null : logged.get(key);
        if (fromLog != null) {
            if (session != null && !session.equals(fromLog)) {
                LOG.warn("Updating the value of conf '{}' in current session from '{}' to '{}': the checkpoint pins it",
                        key, session, fromLog);
            }
            return fromLog;
        }
        return session != null ? session : dflt;
    }

    /** The settings {@code offsets/N} pins, in Spark's names. */
    Map<String, String> conf() {
        Map<String, String> c = new LinkedHashMap<>();
        c.put(StateStoreProvider.PROVIDER_CLASS_KEY, providerName);
        c.put(WATERMARK_POLICY, maxPolicy ? "max" : "min");
        c.put(SHUFFLE_PARTITIONS, Integer.toString(partitions));
        return c;
    }

    boolean hasWatermark() {
        return !watermarks.isEmpty();
    }

    // ------------------------------------------------------------------------------------ metadata

    private void checkMetadata(String checkpoint, boolean checkSchema) {
        // The operators the checkpoint names, by id; a query with fewer operators than it has is refused too.
        TreeMap<Integer, String> held = new TreeMap<>();
        for (int id = 0; ; id++) {
            String meta = metadataFile(operatorDir(checkpoint, id), "metadata");
            Optional<String> text = read(storage, meta);
            if (text.isEmpty()) {
                if (id >= stages.size()) {
                    break;
                }
                continue;
            }
            Matcher m = OPERATOR_NAME.matcher(text.get());
            if (!m.find()) {
                throw CorruptCheckpointException.badFile(meta, "it names no operatorName", "Restore the file from a "
                        + "copy of the checkpoint, or start the query again on a new checkpointLocation.", null);
            }
            held.put(id, m.group(1));
        }
        TreeMap<Integer, String> current = new TreeMap<>();
        for (Stage st : stages) {
            current.put(st.id(), st.op().operatorName());
        }
        for (Map.Entry<Integer, String> e : held.entrySet()) {
            // An operator whose metadata a crash kept from being written is written by the next batch.
            if (!e.getValue().equals(current.get(e.getKey()))) {
                throw operatorMismatch(held, current);
            }
        }
        if (!checkSchema) {
            return;
        }
        for (Stage st : stages) {
            Optional<String> schema = read(storage, metadataFile(st.dir(), "schema"));
            if (schema.isEmpty()) {
                continue;
            }
            StatefulOp op = st.op();
            String s = schema.get();
            String key = field(s, "keySchema");
            String value = field(s, "valueSchema");
            if (key != null && !key.equals(op.keySchema())) {
                throw new IllegalStateException("Provided key schema does not match existing state key schema. "
                        + "Please check number and type of fields. Existing key_schema=" + key + " and new key_schema="
                        + op.keySchema() + ". If you want to force running the query without schema validation, "
                        + "please set " + SCHEMA_CHECK + " to false. However, please note that running the query "
                        + "with incompatible schema could cause indeterministic behavior.");
            }
            if (value != null && !value.equals(op.valueSchema())) {
                throw new IllegalStateException("Provided value schema does not match existing state value schema. "
                        + "Please check number and type of fields. Existing value_schema=" + value
                        + " and new value_schema=" + op.valueSchema() + ". If you want to force running the query "
                        + "without schema validation, please set " + SCHEMA_CHECK + " to false. However, please "
                        + "note that running the query with incompatible schema could cause indeterministic "
                        + "behavior.");
            }
        }
    }

    /** Spark's STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA; {@code current} null for no operator. */
    static IllegalStateException operatorMismatch(String inMetadata, String current) {
        return operatorMismatch(new TreeMap<>(Map.of(0, inMetadata)),
                current == null ? new TreeMap<>() : new TreeMap<>(Map.of(0, current)));
    }

    private static IllegalStateException operatorMismatch(TreeMap<Integer, String> inMetadata,
                                                          TreeMap<Integer, String> current) {
        return new IllegalStateException("Streaming stateful operator name does not match with the operator in state "
                + "metadata. This likely to happen when user adds/removes/changes stateful operator of existing "
                + "streaming query. Stateful operators in the metadata: [" + operators(inMetadata) + "]; Stateful "
                + "operators in current batch: [" + operators(current) + "].");
    }

    private static String operators(TreeMap<Integer, String> ops) {
        List<String> out = new ArrayList<>();
        ops.forEach((id, name) -> out.add("(OperatorId: " + id + " -> OperatorName: " + name + ")"));
        return String.join(", ", out);
    }

    /**
     * For a stateless query on a checkpoint that holds an operator's state: the operator it names, if any.
     *
     * @param checkpoint the checkpoint's folder on {@code storage}: its absolute local path, or its URI
     */
    static String operatorInCheckpoint(Storage storage, String checkpoint) {
        Optional<String> meta = read(storage, metadataFile(operatorDir(checkpoint, 0), "metadata"));
        if (meta.isEmpty()) {
            return null;
        }
        Matcher m = OPERATOR_NAME.matcher(meta.get());
        return m.find() ? m.group(1) : "unknown";
    }

    private static final Pattern OPERATOR_NAME = Pattern.compile("\"operatorName\"\\s*:\\s*\"([^\"]*)\"");

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\")").matcher(json);
        if (!m.find()) {
            return null;
        }
        try {
            return (String) Json.parse(m.group(1));
        } catch (IOException | ClassCastException e) {
            return null;
        }
    }

    /** The metadata file at {@code uri}, as text; empty when there is none. */
    private static Optional<String> read(Storage storage, String uri) {
        try {
            return Optional.of(new String(storage.readAll(uri, MAX_METADATA_BYTES), StandardCharsets.UTF_8));
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + uri + ": " + e.getMessage(), e);
        }
    }

    /** More than an operator's metadata or schema file can be (a schema is a few KB). */
    private static final long MAX_METADATA_BYTES = 16L << 20;

    private void writeMetadata(Stage stage) throws IOException {
        StatefulOp op = stage.op();
        String meta = metadataFile(stage.dir(), "metadata");
        if (storage.status(meta).isPresent()) {
            return;
        }
        // The schema first: metadata is the file whose presence says both are written.
        write(metadataFile(stage.dir(), "schema"), ("v1\n{\"keySchema\":" + Json.quote(op.keySchema())
                + ",\"valueSchema\":" + Json.quote(op.valueSchema()) + "}").getBytes(StandardCharsets.UTF_8));
        write(meta, ("v1\n{\"operatorInfo\":{\"operatorId\":" + stage.id() + ",\"operatorName\":"
                + Json.quote(op.operatorName()) + "},\"stateStoreInfo\":[{\"storeName\":\"default\","
                + "\"numColsPrefixKey\":0,\"numPartitions\":" + partitions + "}]}").getBytes(StandardCharsets.UTF_8));
    }

    /** Writes a file whole, replacing one a crashed run left (locally: temp file, fsync, rename). */
    private void write(String uri, byte[] content) throws IOException {
        WholeObjectOutput out = storage.create(uri, true);
        try {
            out.write(content);
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
        out.close();
    }

    // ------------------------------------------------------------------------------------ the reader side

    /** The writer the reader tasks write into: one {@link StatefulOp.Task} per task, which is its result. */
    BatchWriter shuffleWriter(long lateWatermarkMs) {
        return new BatchWriter() {
            @Override
            public PartitionWriter partitionWriter(int partitionId) {
                StatefulOp.Task task = stages.get(0).op().newTask(partitions, lateWatermarkMs);
                EventTimeStats[] stats = new EventTimeStats[watermarks.size()];
                for (int i = 0; i < stats.length; i++) {
                    stats[i] = new EventTimeStats();
                }
                // Runs on the reader thread, before its first row: the withWatermark operators find the stats here.
                EventTimeStats.setCurrent(stats);
                return new PartitionWriter() {
                    @Override
                    public void write(Row row) {
                        task.add(row);
                    }

                    @Override
                    public Object commit() {
                        EventTimeStats.setCurrent(null);
                        task.finish();
                        return new TaskResult(task, stats);
                    }

                    @Override
                    public void abort() {
                        EventTimeStats.setCurrent(null);
                    }
                };
            }

            @Override
            public void commit(List<Object> partitionResults) {
            }
        };
    }

    record TaskResult(StatefulOp.Task task, EventTimeStats[] stats) {
    }

    // ------------------------------------------------------------------------------------ the state side

    /** What a batch's stateful part produced: the rows per state partition and the figures for progress. */
    record Outcome(List<List<Row>> rows, List<StateOperatorProgress> progress, Map<String, String> eventTime,
                   long nextWatermarkMs) {
    }

    /** What one operator gave in a batch: its rows per state partition (after its {@code then} steps). */
    private record StageResult(List<List<Row>> rows, StateOperatorProgress progress) {
    }

    /**
     * Runs batch {@code batchId}'s state partitions on the tasks' results, commits every store at version
     * {@code batchId + 1}, and works out the next watermark. The stores are committed before the sink sees a row,
     * as in Spark: a crash after this re-runs the batch from version {@code batchId}, which is kept.
     */
    Outcome process(long batchId, List<Object> taskResults, long lateWatermarkMs, long watermarkMs)
            throws Exception {
        for (Stage st : stages) {
            // Once per run: a request on an object store, and nothing removes the file while the query runs.
            if (!metadataWritten.contains(st.id())) {
                writeMetadata(st);
                metadataWritten.add(st.id());
            }
        }
        List<StatefulOp.Task> tasks = new ArrayList<>();
        EventTimeStats[] stats = new EventTimeStats[watermarks.size()];
        for (int i = 0; i < stats.length; i++) {
            stats[i] = new EventTimeStats();
        }
        for (Object r : taskResults) {
            TaskResult t = (TaskResult) r;
            tasks.add(t.task());
            for (int i = 0; i < stats.length; i++) {
                stats[i].merge(t.stats()[i]);
            }
        }
        // Each operator in turn; a later one takes the rows of each state partition of the one before as a task,
        // as Spark shuffles them by the next operator's keys. Every store commits before the sink sees a row.
        List<StateOperatorProgress> progress = new ArrayList<>();
        List<List<Row>> out = null;
        for (int i = 0; i < stages.size(); i++) {
            Stage st = stages.get(i);
            if (i > 0) {
                tasks = new ArrayList<>();
                for (List<Row> part : out) {
                    StatefulOp.Task t = st.op().newTask(partitions, lateWatermarkMs);
                    for (Row r : part) {
                        t.add(r);
                    }
                    t.finish();
                    tasks.add(t);
                }
            }
            StageResult r = runStage(st, batchId, tasks, lateWatermarkMs, watermarkMs);
            out = r.rows();
            progress.add(0, r.progress()); // Spark lists them from operator 0, the last one
        }
        long next = advance(stats, watermarkMs);
        Map<String, String> eventTime = new LinkedHashMap<>();
        if (hasWatermark()) {
            for (EventTimeStats s : stats) {
                if (s.count > 0) {
                    eventTime.put("avg", ProgressTime.format((long) (s.sum / s.count)));
                    eventTime.put("max", ProgressTime.format(s.max));
                    eventTime.put("min", ProgressTime.format(s.min));
                    break;
                }
            }
            eventTime.put("watermark", ProgressTime.format(watermarkMs));
        }
        return new Outcome(out, List.copyOf(progress), eventTime, next);
    }

    private StageResult runStage(Stage stage, long batchId, List<StatefulOp.Task> tasks, long lateWatermarkMs,
                                 long watermarkMs) throws Exception {
        StatefulOp.Counters[] counters = new StatefulOp.Counters[partitions];
        StateStoreMetrics[] metrics = new StateStoreMetrics[partitions];
        List<List<Row>> out = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            out.add(List.of());
            counters[p] = new StatefulOp.Counters();
        }
        List<CompletableFuture<Void>> running = new ArrayList<>();
        Throwable failure = null;
        for (int p = 1; p < partitions; p++) {
            int part = p;
            running.add(CompletableFuture.runAsync(() -> {
                try {
                    out.set(part, runPartition(stage, part, batchId, tasks, lateWatermarkMs, watermarkMs, counters[part],
                            metrics));
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            }, pool));
        }
        try {
            out.set(0, runPartition(stage, 0, batchId, tasks, lateWatermarkMs, watermarkMs, counters[0], metrics));
        } catch (Exception | Error e) {
            failure = e;
        }
        for (CompletableFuture<Void> f : running) {
            try {
                f.join();
            } catch (CompletionException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                if (failure == null) {
                    failure = cause;
                } else {
                    failure.addSuppressed(cause);
                }
            }
        }
        if (failure != null) {
            if (failure instanceof Exception e) {
                throw e;
            }
            throw (Error) failure;
        }
        long total = 0;
        long updated = 0;
        long removed = 0;
        long dropped = 0;
        long duplicates = 0;
        long memory = 0;
        long updNs = 0;
        long remNs = 0;
        long commitNs = 0;
        TreeMap<String, Long> custom = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            StatefulOp.Counters c = counters[p];
            total += metrics[p].numKeys();
            memory += metrics[p].memoryUsedBytes();
            metrics[p].customMetrics().forEach((k, v) -> custom.merge(k, v, Long::sum));
            updated += c.updated;
            removed += c.removed;
            duplicates += c.droppedDuplicates;
            updNs += c.updatesNanos;
            remNs += c.removalsNanos;
            commitNs += c.commitNanos;
        }
        for (StatefulOp.Task t : tasks) {
            dropped += t.droppedByWatermark;
            duplicates += t.droppedDuplicates;
        }
        if (stage.op() instanceof Deduplication) {
            custom.put("numDroppedDuplicateRows", duplicates);
        }
        StateOperatorProgress progress = new StateOperatorProgress(stage.op().operatorName(), total, updated,
                updNs / 1_000_000, removed, remNs / 1_000_000, commitNs / 1_000_000, memory, dropped, partitions,
                partitions, custom);
        return new StageResult(out, progress);
    }

    private List<Row> runPartition(Stage stage, int p, long batchId, List<StatefulOp.Task> tasks, long lateWm, long wm,
                                   StatefulOp.Counters counters, StateStoreMetrics[] metrics) throws Exception {
        StatePartition partition = partition(stage, p);
        StateStore store = partition.load(batchId);
        try {
            List<Row> rows = stage.op().process(store, tasks, p, lateWm, wm, mode, counters);
            RowOperator post = stage.then();
            if (post != null) {
                List<Row> kept = new ArrayList<>(rows.size());
                for (Row r : rows) {
                    Row o = post.apply(r);
                    if (o != null) {
                        kept.add(o);
                    }
                }
                rows = kept;
            }
            long c0 = System.nanoTime();
            store.commit();
            counters.commitNanos += System.nanoTime() - c0;
            metrics[p] = store.metrics();
            try {
                partition.maintenance();
            } catch (IOException | RuntimeException e) {
                LOG.warn("State store maintenance of {} failed; the state is committed, the next batch tries again",
                        Storages.child(stage.dir(), Integer.toString(p)), e);
            }
            return rows;
        } finally {
            if (!store.hasCommitted()) {
                store.abort();
            }
        }
    }

    /** Partition {@code p} of the stage's operator, opened on first use for the rest of the run. */
    private StatePartition partition(Stage stage, int p) throws IOException {
        StatePartition partition = stage.stores()[p];
        if (partition == null) {
            partition = provider.open(new StateStoreId(stage.id(), p), StateStoreConf.on(storage,
                    Storages.child(stage.dir(), Integer.toString(p)), minDeltasForSnapshot, minBatchesToRetain,
                    engineConfig));
            stage.stores()[p] = partition;
        }
        return partition;
    }

    /**
     * Loads the version the query's first batch starts from ({@code firstBatchId}) in every state partition, in
     * parallel, before the query thread starts: a state file that is missing or corrupt then fails
     * {@code start()} itself, naming the file, as a bad log file does. The stores keep what they loaded (the
     * in-memory store its map, RocksDB its database), so the first batch does not read it again. Nothing to do for a
     * new query (version 0 is empty).
     *
     * @throws CorruptCheckpointException naming a state file that is damaged or missing
     */
    void loadFirstVersion(long firstBatchId) {
        if (firstBatchId == 0) {
            return;
        }
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (Stage stage : stages) {
            for (int p = 0; p < partitions; p++) {
                int part = p;
                running.add(CompletableFuture.runAsync(() -> {
                    try {
                        partition(stage, part).load(firstBatchId).abort();
                    } catch (IOException e) {
                        throw new UncheckedIOException("Cannot read the state of operator " + stage.id()
                                + ", partition " + part + " in " + stage.dir() + ": " + e.getMessage(), e);
                    }
                }, pool));
            }
        }
        RuntimeException failure = null;
        for (CompletableFuture<Void> f : running) {
            try {
                f.join();
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
                if (failure == null) {
                    failure = cause;
                } else if (failure != cause) {
                    failure.addSuppressed(cause);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Spark's WatermarkTracker: each watermark moves to its max event time minus its delay, never back. */
    private long advance(EventTimeStats[] stats, long current) {
        if (watermarks.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < stats.length; i++) {
            if (stats[i].count > 0) {
                long candidate = stats[i].max - watermarks.get(i).delayMs();
                if (candidate > operatorWatermarks[i]) {
                    operatorWatermarks[i] = candidate;
                }
            }
        }
        long global = operatorWatermarks[0];
        for (long w : operatorWatermarks) {
            global = maxPolicy ? Math.max(global, w) : Math.min(global, w);
        }
        return Math.max(global, current);
    }

    /**
     * Spark's noDataMicroBatches rule: after a batch that used {@code usedWatermarkMs}, run one more batch without
     * data when the next watermark passed it and the operator evicts by watermark (never in complete mode).
     */
    boolean wantsNoDataBatch(long nextWatermarkMs, long usedWatermarkMs) {
        return noDataBatches && mode != StatefulOp.Mode.COMPLETE
                && stages.stream().anyMatch(st -> st.op().evictsByWatermark()) && nextWatermarkMs > usedWatermarkMs;
    }

    /** Writes the emitted rows into the sink's batch writer, one partition writer per state partition with rows. */
    static List<Object> write(BatchWriter writer, List<List<Row>> rows) throws Exception {
        List<Object> results = new ArrayList<>();
        for (int p = 0; p < rows.size(); p++) {
            List<Row> part = rows.get(p);
            if (part.isEmpty()) {
                continue;
            }
            PartitionWriter pw = writer.partitionWriter(p);
            try {
                for (Row r : part) {
                    pw.write(r);
                }
                results.add(pw.commit());
            } catch (Exception | Error e) {
                try {
                    pw.abort();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }
        return results;
    }

    @Override
    public void close() {
        for (StatePartition p : stages.stream().flatMap(st -> java.util.Arrays.stream(st.stores())).toList()) {
            if (p != null) {
                try {
                    p.close();
                } catch (RuntimeException e) {
                    LOG.warn("Closing state store {} failed", p.id(), e);
                }
            }
        }
    }
}
