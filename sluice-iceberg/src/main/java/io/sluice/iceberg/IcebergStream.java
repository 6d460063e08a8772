package io.sluice.iceberg;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.StreamContext;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import io.sluice.api.types.StructType;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.MicroBatches;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.avro.PlannedDataReader;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.InternalReader;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.Pair;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.iceberg.util.ThreadPools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One run of the Iceberg source: iceberg-spark's SparkMicroBatchStream on Sluice's contract. Offsets, the
 * starting snapshot, admission control and the snapshot-operation rules are iceberg-spark's; the initial offset is
 * kept in the source's metadata folder, as iceberg-spark's InitialOffsetStore keeps it in the checkpoint, so a
 * re-run of batch 0 reads the same range. One partition per data file.
 */
final class IcebergStream implements SupportsTriggerAvailableNow {
    private final StreamContext context;
    private final IcebergTables tables;
    private final Table table;
    private final Schema schema;
    private final StructType rowType;
    private final long fromTimestamp;
    private final int maxFiles;
    private final int maxRows;
    private final boolean skipDelete;
    private final boolean skipOverwrite;
    /** Under availableNow, the snapshot that was current when the query started: no batch goes past it. */
    private Long availableNowSnapshot;

    IcebergStream(StreamContext context) {
        this.context = context;
        var o = context.options();
        this.tables = IcebergTables.of(o);
        this.table = tables.require();
        this.schema = table.schema();
        this.rowType = IcebergSchemas.toSluice(schema);
        this.fromTimestamp = IcebergOptions.SOURCE.get(o, IcebergOptions.STREAM_FROM_TIMESTAMP).map(Long::parseLong)
                .orElse(Long.MIN_VALUE);
        this.maxFiles = IcebergOptions.SOURCE.getInt(o, IcebergOptions.MAX_FILES);
        this.maxRows = IcebergOptions.SOURCE.getInt(o, IcebergOptions.MAX_ROWS);
        this.skipDelete = IcebergOptions.SOURCE.getBoolean(o, IcebergOptions.SKIP_DELETE);
        this.skipOverwrite = IcebergOptions.SOURCE.getBoolean(o, IcebergOptions.SKIP_OVERWRITE);
    }

    @Override
    public Offset initialOffset() {
        if (context.bounded()) {
            return StreamingOffset.START;
        }
        Path file = context.metadataPath() == null ? null : context.metadataPath().resolve("initial-offset.json");
        try {
            if (file != null && Files.exists(file)) {
                return StreamingOffset.fromJson(Files.readString(file, StandardCharsets.UTF_8));
            }
            table.refresh();
            StreamingOffset initial = determineStartingOffset();
            if (file != null) {
                Files.createDirectories(file.getParent());
                DurableFiles.replace(file, initial.json().getBytes(StandardCharsets.UTF_8));
            }
            return initial;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep the Iceberg source's initial offset in " + file, e);
        }
    }

    @Override
    public Offset deserializeOffset(String json) {
        return StreamingOffset.fromJson(json);
    }

    /**
     * Snapshot ids are not ordered: an offset is before another when its snapshot is an ancestor of the other's,
     * or the same snapshot at a smaller position. (S, n) after all of S's files and (next of S, 0) are the same
     * point, written either way by iceberg-spark.
     */
    @Override
    public Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        StreamingOffset prev = (StreamingOffset) previousEnd;
        StreamingOffset now = (StreamingOffset) end;
        if (now.equals(StreamingOffset.START) && !prev.equals(StreamingOffset.START)) {
            return Optional.of("snapshot_id -1 is before " + prev.snapshotId());
        }
        if (prev.equals(StreamingOffset.START) || now.equals(StreamingOffset.START)) {
            return Optional.empty();
        }
        if (now.snapshotId() == prev.snapshotId()) {
            return now.position() < prev.position() ? Optional.of("position " + now.position() + " of snapshot "
                    + now.snapshotId() + " is before " + prev.position()) : Optional.empty();
        }
        table.refresh();
        if (table.snapshot(now.snapshotId()) != null && table.snapshot(prev.snapshotId()) != null
                && SnapshotUtil.isAncestorOf(table, prev.snapshotId(), now.snapshotId())) {
            Snapshot after = SnapshotUtil.snapshotAfter(table, now.snapshotId());
            boolean samePoint = after.snapshotId() == prev.snapshotId() && prev.position() == 0
                    && now.position() >= addedFilesCount(table.snapshot(now.snapshotId()));
            return samePoint ? Optional.empty() : Optional.of("snapshot " + now.snapshotId()
                    + " is an ancestor of " + prev.snapshotId());
        }
        return Optional.empty();
    }

    @Override
    public ReadLimit defaultReadLimit() {
        if (maxFiles != Integer.MAX_VALUE && maxRows != Integer.MAX_VALUE) {
            return ReadLimit.composite(ReadLimit.maxFiles(maxFiles), ReadLimit.maxRows(maxRows));
        } else if (maxFiles != Integer.MAX_VALUE) {
            return ReadLimit.maxFiles(maxFiles);
        } else if (maxRows != Integer.MAX_VALUE) {
            return ReadLimit.maxRows(maxRows);
        }
        return ReadLimit.allAvailable();
    }

    private StreamingOffset determineStartingOffset() {
        if (table.currentSnapshot() == null) {
            return StreamingOffset.START;
        }
        if (fromTimestamp == Long.MIN_VALUE) {
            return new StreamingOffset(SnapshotUtil.oldestAncestor(table).snapshotId(), 0, false);
        }
        if (table.currentSnapshot().timestampMillis() < fromTimestamp) {
            return StreamingOffset.START;
        }
        try {
            Snapshot snapshot = SnapshotUtil.oldestAncestorAfter(table, fromTimestamp);
            return snapshot != null ? new StreamingOffset(snapshot.snapshotId(), 0, false) : StreamingOffset.START;
        } catch (IllegalStateException e) {
            return new StreamingOffset(SnapshotUtil.oldestAncestor(table).snapshotId(), 0, false);
        }
    }

    @Override
    public void prepareForTriggerAvailableNow() {
        table.refresh();
        availableNowSnapshot = table.currentSnapshot() == null ? null : table.currentSnapshot().snapshotId();
    }

    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        table.refresh();
        // Beyond iceberg-spark, which checks stream-from-timestamp on every trigger: a starting option applies
        // before the first offset only, as for every Sluice source, so a restart never stalls on it.
        if (table.currentSnapshot() == null
                || (start.equals(StreamingOffset.START) && table.currentSnapshot().timestampMillis() < fromTimestamp)) {
            return StreamingOffset.START;
        }
        if (context.bounded()) {
            Snapshot current = table.currentSnapshot();
            return new StreamingOffset(current.snapshotId(), 0, true);
        }
        StreamingOffset startingOffset = (StreamingOffset) start;
        if (startingOffset.equals(StreamingOffset.START)) {
            startingOffset = determineStartingOffset();
        }
        Snapshot curSnapshot = table.snapshot(startingOffset.snapshotId());
        validateSnapshotExists(curSnapshot, startingOffset);
        long from = curSnapshot.snapshotId();
        manifestTasks.keySet().removeIf(k -> k.snapshotId() != from);
        long latestSnapshotId = availableNowSnapshot != null ? availableNowSnapshot
                : table.currentSnapshot().snapshotId();
        int startPos = (int) startingOffset.position();
        boolean scanAllFiles = startingOffset.scanAllFiles();
        boolean more = true;
        int filesAdded = 0;
        long records = 0;
        int curPos = 0;
        int fileLimit = maxFiles(limit);
        long rowLimit = maxRows(limit);
        if (fileLimit == Integer.MAX_VALUE && rowLimit == Integer.MAX_VALUE) {
            readManifestsInParallel(curSnapshot, startPos, scanAllFiles, latestSnapshotId);
        }
        while (more) {
            List<Pair<ManifestFile, Integer>> manifests = MicroBatches.skippedManifestIndexesFromSnapshot(
                    table.io(), curSnapshot, startPos, scanAllFiles);
            for (int i = 0; i < manifests.size() && more; i++) {
                curPos = manifests.get(i).second();
                for (FileScanTask task : manifestTasks(curSnapshot, manifests.get(i).first(), scanAllFiles)) {
                    if (curPos >= startPos) {
                        if (filesAdded + 1 > fileLimit) {
                            more = false;
                            break;
                        }
                        filesAdded++;
                        records += task.file().recordCount();
                        if (records >= rowLimit) {
                            curPos++;
                            more = false;
                            break;
                        }
                    }
                    curPos++;
                }
            }
            if (curSnapshot.snapshotId() == latestSnapshotId) {
                break;
            }
            if (more) {
                Snapshot next = nextValidSnapshot(curSnapshot);
                if (next == null) {
                    break;
                }
                curSnapshot = next;
                startPos = -1;
                scanAllFiles = false;
            }
        }
        StreamingOffset latest = new StreamingOffset(curSnapshot.snapshotId(), curPos, scanAllFiles);
        return latest.equals(startingOffset) ? null : latest;
    }

    /**
     * Without a read limit, latestOffset counts every manifest from the start to the latest snapshot: they are read
     * first on Iceberg's worker pool, as a table scan reads its manifests (planWith), a snapshot's manifest list and
     * manifests per task, and the count then takes them from {@link #manifestTasks}. The snapshots are walked as the
     * count walks them (nextValidSnapshot), so a snapshot the count would refuse is refused here, with its message.
     */
    private void readManifestsInParallel(Snapshot first, int startPos, boolean scanAllFiles, long latestSnapshotId) {
        List<CompletableFuture<Void>> reads = new ArrayList<>();
        Snapshot snapshot = first;
        int pos = startPos;
        boolean all = scanAllFiles;
        while (true) {
            Snapshot s = snapshot;
            int p = pos;
            boolean a = all;
            reads.add(CompletableFuture.runAsync(() -> {
                for (Pair<ManifestFile, Integer> m : MicroBatches.skippedManifestIndexesFromSnapshot(table.io(), s, p,
                        a)) {
                    manifestTasks(s, m.first(), a);
                }
            }, ThreadPools.getWorkerPool()));
            if (snapshot.snapshotId() == latestSnapshotId) {
                break;
            }
            Snapshot next = nextValidSnapshot(snapshot);
            if (next == null) {
                break;
            }
            snapshot = next;
            pos = -1;
            all = false;
        }
        try {
            CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private static int maxFiles(ReadLimit limit) {
        if (limit instanceof ReadLimit.MaxFiles f) {
            return f.files();
        }
        if (limit instanceof ReadLimit.Composite c) {
            for (ReadLimit l : c.limits()) {
                if (l instanceof ReadLimit.MaxFiles f) {
                    return f.files();
                }
            }
        }
        return Integer.MAX_VALUE;
    }

    private static long maxRows(ReadLimit limit) {
        if (limit instanceof ReadLimit.MaxRows r) {
            return r.rows();
        }
        if (limit instanceof ReadLimit.Composite c) {
            for (ReadLimit l : c.limits()) {
                if (l instanceof ReadLimit.MaxRows r) {
                    return r.rows();
                }
            }
        }
        return Integer.MAX_VALUE;
    }

    private Snapshot nextValidSnapshot(Snapshot cur) {
        Snapshot next = SnapshotUtil.snapshotAfter(table, cur.snapshotId());
        while (!shouldProcess(next)) {
            if (next.snapshotId() == table.currentSnapshot().snapshotId()) {
                return null;
            }
            next = SnapshotUtil.snapshotAfter(table, next.snapshotId());
        }
        return next;
    }

    private boolean shouldProcess(Snapshot snapshot) {
        String op = snapshot.operation();
        switch (op) {
            case DataOperations.APPEND:
                return true;
            case DataOperations.REPLACE:
                return false;
            case DataOperations.DELETE:
                if (!skipDelete) {
                    throw new IllegalStateException("Cannot process delete snapshot: " + snapshot.snapshotId()
                            + ", to ignore deletes, set " + IcebergOptions.SKIP_DELETE + "=true");
                }
                return false;
            case DataOperations.OVERWRITE:
                if (!skipOverwrite) {
                    throw new IllegalStateException("Cannot process overwrite snapshot: " + snapshot.snapshotId()
                            + ", to ignore overwrites, set " + IcebergOptions.SKIP_OVERWRITE + "=true");
                }
                return false;
            default:
                throw new IllegalStateException(String.format("Cannot process unknown snapshot operation: %s "
                        + "(snapshot id %s)", op.toLowerCase(Locale.ROOT), snapshot.snapshotId()));
        }
    }

    private static void validateSnapshotExists(Snapshot snapshot, StreamingOffset offset) {
        if (snapshot == null) {
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "Cannot load current offset at snapshot %d, the snapshot was expired or removed",
                    offset.snapshotId()));
        }
    }

    private long addedFilesCount(Snapshot snapshot) {
        long count = PropertyUtil.propertyAsLong(snapshot.summary(), SnapshotSummary.ADDED_FILES_PROP, -1);
        if (count != -1) {
            return count;
        }
        long n = 0;
        for (Object ignored : snapshot.addedDataFiles(table.io())) {
            n++;
        }
        return n;
    }

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        StreamingOffset endOffset = (StreamingOffset) end;
        if (endOffset.equals(StreamingOffset.START)) {
            return List.of();
        }
        List<FileScanTask> tasks = new ArrayList<>();
        if (context.bounded()) {
            try (CloseableIterable<FileScanTask> all = table.newScan().useSnapshot(endOffset.snapshotId()).planFiles()) {
                all.forEach(tasks::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            tasks = planFiles((StreamingOffset) start, endOffset);
        }
        List<InputPartition> partitions = new ArrayList<>();
        for (FileScanTask t : tasks) {
            if (t.file().format() != FileFormat.PARQUET && t.file().format() != FileFormat.AVRO) {
                throw new UnsupportedOperationException("Data file " + t.file().location() + " of table "
                        + tables.describe() + " is " + t.file().format() + ": Sluice's Iceberg source reads Parquet "
                        + "and Avro data files only");
            }
            partitions.add(new FilePartition(t));
        }
        return partitions;
    }

    /**
     * The snapshot's data files with the delete files that apply to them, by location, from a table scan of it (the
     * scan's DeleteFileIndex matches deletes to files by partition and sequence number). MicroBatches plans the
     * starting snapshot from its data manifests alone, without deletes; a snapshot scanned whole must apply them.
     */
    private java.util.Map<String, FileScanTask> tasksWithDeletes(long snapshotId) {
        if (deletesSnapshotId != null && deletesSnapshotId == snapshotId) {
            return deletesByFile;
        }
        java.util.Map<String, FileScanTask> byFile = new java.util.HashMap<>();
        try (CloseableIterable<FileScanTask> all = table.newScan().useSnapshot(snapshotId).planFiles()) {
            for (FileScanTask t : all) {
                if (!t.deletes().isEmpty()) {
                    byFile.put(t.file().location(), t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        deletesSnapshotId = snapshotId;
        deletesByFile = byFile;
        return byFile;
    }

    private Long deletesSnapshotId;
    private java.util.Map<String, FileScanTask> deletesByFile;

    /**
     * MicroBatches.generate(start, end, Long.MAX_VALUE, scanAllFiles)'s tasks: the snapshot's files at indexes
     * [start, end), from {@link #manifestTasks}.
     */
    private List<FileScanTask> batchTasks(Snapshot snapshot, long start, long end, boolean scanAllFiles) {
        List<FileScanTask> out = new ArrayList<>();
        for (Pair<ManifestFile, Integer> m : MicroBatches.skippedManifestIndexesFromSnapshot(table.io(), snapshot,
                start, scanAllFiles)) {
            long index = m.second();
            if (index >= end) {
                break; // the manifests' indexes only grow: none after this one has a file before the end
            }
            for (FileScanTask t : manifestTasks(snapshot, m.first(), scanAllFiles)) {
                if (index >= start) {
                    out.add(t);
                }
                if (++index >= end) {
                    break;
                }
            }
        }
        return out;
    }

    /** A manifest's entries as a snapshot's scan tasks read them: all its files, or those the snapshot added. */
    private record ManifestKey(String manifest, long snapshotId, boolean scanAllFiles) {
    }

    /**
     * The scan tasks of one manifest for one snapshot (MicroBatches.openManifestFile), read once: latestOffset
     * counts the files of each manifest it plans and planPartitions then takes the same ones (a query of 100
     * snapshots read 100 manifests twice), and the next trigger starts in the snapshot where this one ended. A
     * manifest never changes once written; each latestOffset drops the snapshots before its start, so the map holds
     * one trigger's manifests at most.
     */
    private final Map<ManifestKey, List<FileScanTask>> manifestTasks = new ConcurrentHashMap<>();

    private List<FileScanTask> manifestTasks(Snapshot snapshot, ManifestFile manifest, boolean scanAllFiles) {
        return manifestTasks.computeIfAbsent(new ManifestKey(manifest.path(), snapshot.snapshotId(), scanAllFiles),
                k -> {
                    List<FileScanTask> out = new ArrayList<>();
                    try (CloseableIterable<FileScanTask> tasks = MicroBatches.openManifestFile(table.io(),
                            table.specs(), true, snapshot, manifest, scanAllFiles)) {
                        tasks.forEach(out::add);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return out;
                });
    }

    /** iceberg-spark's planFiles: [(start snapshot, position), (end snapshot, position)), snapshot by snapshot. */
    private List<FileScanTask> planFiles(StreamingOffset startOffset, StreamingOffset endOffset) {
        List<FileScanTask> tasks = new ArrayList<>();
        StreamingOffset batchStart = StreamingOffset.START.equals(startOffset) ? determineStartingOffset() : startOffset;
        StreamingOffset current = null;
        do {
            long endFileIndex;
            if (current == null) {
                current = batchStart;
            } else {
                Snapshot after = SnapshotUtil.snapshotAfter(table, current.snapshotId());
                current = current.snapshotId() != endOffset.snapshotId()
                        ? new StreamingOffset(after.snapshotId(), 0L, false) : endOffset;
            }
            Snapshot snapshot = table.snapshot(current.snapshotId());
            validateSnapshotExists(snapshot, current);
            // A snapshot scanned whole is the table's content at it, whatever its own operation was.
            if (!current.scanAllFiles() && !shouldProcess(snapshot)) {
                continue;
            }
            endFileIndex = current.snapshotId() == endOffset.snapshotId() ? endOffset.position()
                    : addedFilesCount(snapshot);
            List<FileScanTask> batch = batchTasks(snapshot, current.position(), endFileIndex, current.scanAllFiles());
            if (current.scanAllFiles()) {
                java.util.Map<String, FileScanTask> withDeletes = tasksWithDeletes(snapshot.snapshotId());
                for (FileScanTask t : batch) {
                    tasks.add(withDeletes.getOrDefault(t.file().location(), t));
                }
            } else {
                // An append snapshot adds data files only; deletes committed before it do not apply to them (a
                // delete applies to data files of lower sequence numbers), so its files are read whole.
                tasks.addAll(batch);
            }
        } while (current.snapshotId() != endOffset.snapshotId());
        return tasks;
    }

    /**
     * One data file's range, read whole by one reader, with the delete files that apply to it (Iceberg's scan tasks
     * are serializable, as Spark ships them).
     */
    record FilePartition(FileScanTask task) implements InputPartition {
    }

    @Override
    public PartitionReader createReader(InputPartition partition) {
        FileScanTask task = ((FilePartition) partition).task();
        if (task.deletes().isEmpty() && task.file().format() == FileFormat.PARQUET) {
            // The common case, read without Iceberg's generic objects: InternalReader's records (reused from row
            // to row) go straight into rows (InternalRows).
            CloseableIterable<StructLike> file = Parquet.read(table.io().newInputFile(task.file().location()))
                    .project(schema)
                    .createReaderFunc(fileSchema -> InternalReader.create(schema, fileSchema))
                    .reuseContainers()
                    .split(task.start(), task.length())
                    .build();
            InternalRows rows = new InternalRows(rowType);
            return reader(file, rows::toRow);
        }
        // iceberg-data's GenericReader.open, for one task: the file read with the delete filter's required schema
        // (the requested columns first, then _pos and the equality delete columns), then filtered by the
        // position and equality deletes.
        GenericDeleteFilter deletes = task.deletes().isEmpty() ? null
                : new GenericDeleteFilter(table.io(), task, table.schema(), schema);
        Schema read = deletes == null ? schema : deletes.requiredSchema();
        CloseableIterable<Record> file = task.file().format() == FileFormat.AVRO
                ? Avro.read(table.io().newInputFile(task.file().location()))
                        .project(read)
                        .createResolvingReader(s -> PlannedDataReader.create(s))
                        .split(task.start(), task.length())
                        .build()
                : Parquet.read(table.io().newInputFile(task.file().location()))
                        .project(read)
                        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(read, fileSchema))
                        .split(task.start(), task.length())
                        .build();
        return reader(deletes == null ? file : deletes.filter(file), r -> IcebergSchemas.toRow(r, rowType));
    }

    private static <T> PartitionReader reader(CloseableIterable<T> records, Function<T, Row> toRow) {
        CloseableIterator<T> it = records.iterator();
        return new PartitionReader() {
            private Row row;

            @Override
            public boolean next() {
                if (!it.hasNext()) {
                    return false;
                }
                row = toRow.apply(it.next());
                return true;
            }

            @Override
            public Row get() {
                return row;
            }

            @Override
            public void close() throws IOException {
                it.close();
                records.close();
            }
        };
    }

    @Override
    public Offset reportLatestOffset() {
        Snapshot s = table.currentSnapshot();
        return s == null ? StreamingOffset.START : new StreamingOffset(s.snapshotId(), addedFilesCount(s), false);
    }

    @Override
    public void stop() {
        try {
            tables.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String description() {
        return "IcebergMicroBatchStream[" + tables.describe() + "]";
    }
}
