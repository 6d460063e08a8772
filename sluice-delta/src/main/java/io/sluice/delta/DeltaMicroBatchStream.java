package io.sluice.delta;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.types.DataTypeJsonSerDe;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * delta-spark's DeltaSource on a Sluice stream: the snapshot at start (files by modification time, then path), then
 * each commit's dataChange added files in log order, positioned by {@link DeltaSourceOffset}.
 */
final class DeltaMicroBatchStream implements SupportsTriggerAvailableNow {

    private static final String START_FILE = "delta-start.json";

    private final DeltaTable table;
    private final DeltaSourceOptions opts;
    private final StructType schema;
    private final List<String> partitionColumns;
    private final Path metadataPath;
    private final DeltaLogFiles log;
    private final String tableId;
    private final long versionAtStart;
    private final Map<Long, List<DeltaFile>> snapshots = new LinkedHashMap<>();
    private final Map<Long, List<DeltaFile>> commits = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, List<DeltaFile>> e) {
            return size() > 256;
        }
    };
    private Long availableNowEnd;
    /** The data columns as the files hold them (physical names under column mapping), from the snapshot at start. */
    private final io.delta.kernel.types.StructType physicalData;
    /** The column mapping mode and each column's physical name at start: a commit changing them ends the stream. */
    private final String mappingAtStart;

    DeltaMicroBatchStream(DeltaTable table, DeltaSourceOptions opts, StructType schema, List<String> partitionColumns,
                          Path metadataPath) {
        this.table = table;
        this.opts = opts;
        this.schema = schema;
        this.partitionColumns = partitionColumns;
        this.metadataPath = metadataPath;
        this.log = new DeltaLogFiles(table);
        SnapshotImpl s = table.latestOrFail();
        DeltaTable.checkReadable(s, table.where);
        this.tableId = s.getMetadata().getId();
        this.versionAtStart = s.getVersion();
        this.physicalData = DeltaTable.physicalDataSchema(s, schema, partitionColumns);
        this.mappingAtStart = physicalNames(s.getSchema(), DeltaTable.columnMappingMode(s).toString());
    }

    @Override
    public Offset initialOffset() {
        Path f = metadataPath.resolve(START_FILE);
        try {
            if (Files.exists(f)) {
                return checked(DeltaSourceOffset.parse(Files.readString(f, StandardCharsets.UTF_8)));
            }
            DeltaSourceOffset start = computeStart();
            Path tmp = metadataPath.resolve(START_FILE + ".tmp");
            Files.writeString(tmp, start.json(), StandardCharsets.UTF_8);
            Files.move(tmp, f, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return start;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep the Delta source's start in " + f, e);
        }
    }

    private DeltaSourceOffset computeStart() {
        if (opts.startingVersion().isPresent()) {
            long v = opts.startingVersion().getAsLong();
            if (v < 0) {
                return new DeltaSourceOffset(tableId, versionAtStart + 1, DeltaSourceOffset.BASE_INDEX, false);
            }
            TreeMap<Long, Long> versions = log.versions();
            if (versions.isEmpty() || v < versions.firstKey() || v > versions.lastKey()) {
                throw new IllegalArgumentException("[DELTA_VERSION_NOT_FOUND] Cannot time travel Delta table to version "
                        + v + ". Available versions: [" + (versions.isEmpty() ? "" : versions.firstKey() + ", "
                        + versions.lastKey()) + "].");
            }
            return new DeltaSourceOffset(tableId, v, DeltaSourceOffset.BASE_INDEX, false);
        }
        if (opts.startingTimestamp().isPresent()) {
            long ms = opts.startingTimestamp().get().toEpochMilli();
            TreeMap<Long, Long> versions = log.versions();
            // delta-spark's commit times are the commit files' modification times, made monotonic.
            long prev = Long.MIN_VALUE;
            Long last = null;
            for (Map.Entry<Long, Long> e : versions.entrySet()) {
                long ts = Math.max(e.getValue(), prev + 1);
                prev = ts;
                last = ts;
                if (ts >= ms) {
                    return new DeltaSourceOffset(tableId, e.getKey(), DeltaSourceOffset.BASE_INDEX, false);
                }
            }
            throw new IllegalArgumentException("[DELTA_TIMESTAMP_GREATER_THAN_COMMIT] The provided timestamp ("
                    + opts.startingTimestampText() + ") is after the latest version available to this table ("
                    + table.where + "). Please use a timestamp before or at "
                    + (last == null ? "-" : Instant.ofEpochMilli(last)) + ".");
        }
        return new DeltaSourceOffset(tableId, versionAtStart, DeltaSourceOffset.BASE_INDEX, true);
    }

    @Override
    public Offset deserializeOffset(String json) {
        return checked(DeltaSourceOffset.parse(json));
    }

    private DeltaSourceOffset checked(DeltaSourceOffset o) {
        if (!o.reservoirId().equals(tableId)) {
            throw new IllegalStateException("[DIFFERENT_DELTA_TABLE_READ_BY_STREAMING_SOURCE] The streaming query was "
                    + "reading from an unexpected Delta table (id = '" + tableId + "'). It used to read from another "
                    + "Delta table (id = '" + o.reservoirId() + "') according to checkpoint. This may happen when you "
                    + "changed the code to read from a new table or you deleted and re-created a table. Please revert "
                    + "your change or delete your streaming query checkpoint to restart from scratch.");
        }
        return o;
    }

    @Override
    public Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        DeltaSourceOffset a = (DeltaSourceOffset) previousEnd;
        DeltaSourceOffset b = (DeltaSourceOffset) end;
        return b.compareTo(a) < 0 ? Optional.of("version " + b.reservoirVersion() + " index " + b.index()
                + " is before version " + a.reservoirVersion() + " index " + a.index()) : Optional.empty();
    }

    @Override
    public ReadLimit defaultReadLimit() {
        ReadLimit files = ReadLimit.maxFiles(opts.maxFilesPerTrigger());
        return opts.maxBytesPerTrigger().isPresent()
                ? ReadLimit.composite(files, ReadLimit.maxBytes(opts.maxBytesPerTrigger().getAsLong())) : files;
    }

    @Override
    public void prepareForTriggerAvailableNow() {
        TreeMap<Long, Long> v = log.versions();
        availableNowEnd = v.isEmpty() ? -1 : v.lastKey();
    }

    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        long maxFiles = Long.MAX_VALUE;
        long maxBytes = Long.MAX_VALUE;
        for (ReadLimit l : limit instanceof ReadLimit.Composite c ? c.limits() : List.of(limit)) {
            if (l instanceof ReadLimit.MaxFiles f) {
                maxFiles = f.files();
            } else if (l instanceof ReadLimit.MaxBytes b) {
                maxBytes = b.bytes();
            }
        }
        Walk w = walk(checked((DeltaSourceOffset) start), null, maxFiles, maxBytes);
        return w.files.isEmpty() ? start : w.end;
    }

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        DeltaSourceOffset e = checked((DeltaSourceOffset) end);
        return new ArrayList<>(walk(checked((DeltaSourceOffset) start), e, Long.MAX_VALUE, Long.MAX_VALUE).files);
    }

    @Override
    public PartitionReader createReader(InputPartition partition) {
        return new DeltaFileReader(table, (DeltaFile) partition, schema, partitionColumns, physicalData);
    }

    @Override
    public void stop() {
        table.close();
    }

    @Override
    public String description() {
        return "DeltaSource[" + table.uri + "]";
    }

    private record Walk(DeltaSourceOffset end, List<DeltaFile> files) {
    }

    /**
     * The files after {@code start}, up to {@code stopAt} (inclusive) or the limits (at least one file), and the
     * position after the last one taken: the end of a version is {@code (v+1, -1, false)}.
     */
    private Walk walk(DeltaSourceOffset start, DeltaSourceOffset stopAt, long maxFiles, long maxBytes) {
        List<DeltaFile> out = new ArrayList<>();
        long bytes = 0;
        TreeMap<Long, Long> versions = log.versions();
        long latest = versions.isEmpty() ? -1 : versions.lastKey();
        if (availableNowEnd != null && stopAt == null) {
            latest = Math.min(latest, availableNowEnd);
        }
        DeltaSourceOffset pos = start;
        long v = start.reservoirVersion();
        long idx = start.index();
        boolean snap = start.isStartingVersion();
        while (true) {
            List<DeltaFile> files;
            if (snap) {
                files = snapshotFiles(v);
            } else {
                DeltaSourceOffset before = new DeltaSourceOffset(tableId, v, DeltaSourceOffset.BASE_INDEX, false);
                if (v > latest || (stopAt != null && before.compareTo(stopAt) >= 0 && idx < 0)
                        || out.size() >= maxFiles || bytes >= maxBytes) {
                    break;
                }
                if (!versions.containsKey(v)) {
                    if (opts.failOnDataLoss()) {
                        throw new IllegalStateException("[DELTA_MISSING_FILES_UNEXPECTED_VERSION] The stream from "
                                + "your Delta table was expecting process data from version " + v + ", but the "
                                + "earliest available version in the _delta_log directory is "
                                + versions.ceilingKey(v) + ". The files in the transaction log may have been deleted "
                                + "due to log cleanup. In order to avoid losing data, we recommend that you restart "
                                + "your stream with a new checkpoint location and to increase your "
                                + "delta.logRetentionDuration setting, if you have explicitly set it below 30 days. If "
                                + "you would like to ignore the missed data and continue your stream from where it "
                                + "left off, you can set the .option(\"failOnDataLoss\", \"false\") as part of your "
                                + "readStream statement.");
                    }
                    v = versions.ceilingKey(v);
                    idx = -1;
                    pos = new DeltaSourceOffset(tableId, v, DeltaSourceOffset.BASE_INDEX, false);
                    continue;
                }
                files = commitFiles(v, out.isEmpty());
                if (files == null) {
                    break;
                }
            }
            for (int i = (int) (idx + 1); i < files.size(); i++) {
                DeltaSourceOffset at = new DeltaSourceOffset(tableId, v, i, snap);
                if ((stopAt != null && at.compareTo(stopAt) > 0) || out.size() >= maxFiles || bytes >= maxBytes) {
                    return new Walk(pos, out);
                }
                out.add(files.get(i));
                bytes += files.get(i).size();
                pos = at;
            }
            DeltaSourceOffset next = new DeltaSourceOffset(tableId, v + 1, DeltaSourceOffset.BASE_INDEX, false);
            if (stopAt != null && next.compareTo(stopAt) > 0) {
                return new Walk(pos, out);
            }
            pos = next;
            v = v + 1;
            idx = -1;
            snap = false;
        }
        return new Walk(pos, out);
    }

    private List<DeltaFile> snapshotFiles(long version) {
        List<DeltaFile> cached = snapshots.get(version);
        if (cached != null) {
            return cached;
        }
        SnapshotImpl s;
        try {
            s = table.at(version);
        } catch (RuntimeException e) {
            throw new IllegalStateException("[DELTA_LOG_FILE_NOT_FOUND_FOR_STREAMING_SOURCE] File "
                    + log.commitLocation(version) + " not found: the stream's initial snapshot at version " + version
                    + " can no longer be read. Restart the query with a new checkpoint location.", e);
        }
        List<DeltaFile> files = new ArrayList<>();
        try (CloseableIterator<FilteredColumnarBatch> it = s.getScanBuilder().build().getScanFiles(table.engine)) {
            while (it.hasNext()) {
                try (CloseableIterator<io.delta.kernel.data.Row> rows = it.next().getRows()) {
                    while (rows.hasNext()) {
                        io.delta.kernel.data.Row r = rows.next();
                        FileStatus fs = InternalScanFileUtils.getAddFileStatus(r);
                        io.delta.kernel.data.Row add = r.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL);
                        String rel = add.getString(add.getSchema().indexOf("path"));
                        files.add(new DeltaFile(fs.getPath(), rel, fs.getSize(), fs.getModificationTime(),
                                InternalScanFileUtils.getPartitionValues(r),
                                DeltaDeletionVector.of(InternalScanFileUtils.getDeletionVectorDescriptorFromRow(r))));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // delta-spark's DeltaSourceSnapshot: by modification time, then path.
        files.sort(Comparator.comparingLong(DeltaFile::modificationTime).thenComparing(DeltaFile::logPath));
        snapshots.put(version, files);
        return files;
    }

    /**
     * A commit's files to read: its dataChange adds, or none, by the skip options; null when the commit changes the
     * schema and files were already taken (the batch ends before it, the next one fails).
     */
    private List<DeltaFile> commitFiles(long v, boolean nothingTaken) {
        List<DeltaFile> cached = commits.get(v);
        if (cached != null) {
            return cached;
        }
        List<JsonNode> actions = log.actions(v);
        List<DeltaFile> adds = new ArrayList<>();
        String removed = null;
        String operation = null;
        for (JsonNode a : actions) {
            if (a.has("commitInfo") && a.get("commitInfo").has("operation")) {
                operation = operationText(a.get("commitInfo"));
            }
            if (a.has("metaData")) {
                String newSchema = schemaOf(a.get("metaData"));
                if (newSchema != null && !newSchema.equals(readSchemaText())) {
                    if (!nothingTaken) {
                        return null;
                    }
                    throw new IllegalStateException("[DELTA_SCHEMA_CHANGED_WITH_VERSION] Detected schema change in "
                            + "version " + v + ":\nstreaming source schema: " + readSchemaText()
                            + "\n\ndata file schema: " + newSchema + "\n\nPlease try restarting the query. If this "
                            + "issue repeats across query restarts without making progress, you have made an "
                            + "incompatible schema change and need to start your query from scratch using a new "
                            + "checkpoint directory.");
                }
                String mapping = mappingOf(a.get("metaData"));
                if (mapping != null && !mapping.equals(mappingAtStart)) {
                    if (!nothingTaken) {
                        return null;
                    }
                    // The files after this commit name their columns otherwise than the stream reads them; a
                    // restart reads the new layout from the snapshot it starts at.
                    throw new IllegalStateException("[DELTA_STREAMING_INCOMPATIBLE_SCHEMA_CHANGE] The Delta table "
                            + table.where + " changed its column mapping at version " + v + " (from " + mappingAtStart
                            + " to " + mapping + "): the stream reads the data files by the column names it started "
                            + "with. Please restart the query: it reads the table's new column mapping.");
                }
            } else if (a.has("add")) {
                JsonNode add = a.get("add");
                if (add.path("dataChange").asBoolean(true)) {
                    String rel = add.get("path").asText();
                    adds.add(new DeltaFile(absolute(rel), rel, add.path("size").asLong(),
                            add.path("modificationTime").asLong(), DeltaLogFiles.partitionValues(add),
                            DeltaDeletionVector.of(add.get("deletionVector"))));
                }
            } else if (a.has("remove")) {
                JsonNode rm = a.get("remove");
                if (rm.path("dataChange").asBoolean(true) && removed == null) {
                    removed = rm.get("path").asText();
                }
            }
        }
        List<DeltaFile> result = adds;
        if (removed != null && operation != null) {
            // delta-spark 4.0 names the commit's operation, not a file, as its example.
            removed = operation;
        }
        if (removed != null) {
            if (opts.skipChangeCommits()) {
                result = List.of();
            } else if (!adds.isEmpty()) {
                if (!opts.ignoreChanges()) {
                    throw new UnsupportedOperationException("[DELTA_SOURCE_TABLE_IGNORE_CHANGES] Detected a data "
                            + "update (for example " + removed + ") in the source table at version " + v + ". This is "
                            + "currently not supported. If this is going to happen regularly and you are "
                            + "okay to skip changes, set the option 'skipChangeCommits' to 'true'. If you would like the data update to be reflected, "
                            + "please restart this query with a fresh checkpoint directory. The source table can be "
                            + "found at path " + dataPath() + ".");
                }
            } else if (!opts.ignoreDeletes() && !opts.ignoreChanges()) {
                throw new UnsupportedOperationException("[DELTA_SOURCE_IGNORE_DELETE] Detected deleted data (for "
                        + "example " + removed + ") from streaming source at version " + v + ". This is currently "
                        + "not supported. If you'd like to ignore deletes, set the option 'ignoreDeletes' to 'true'. "
                        + "The source table can be found at path " + dataPath() + ".");
            }
        }
        commits.put(v, result);
        return result;
    }

    private String readSchemaText;

    /** The table's path as delta-spark prints it (Hadoop's form: {@code file:/tmp/t}). */
    private String dataPath() {
        return table.dir != null ? "file:" + table.dir : table.uri;
    }

    /** A commit's operation as delta-spark 4.0 prints it: {@code DELETE (Map(predicate -> ["(id = 1)"]))}. */
    private static String operationText(JsonNode commitInfo) {
        StringBuilder sb = new StringBuilder(commitInfo.get("operation").asText()).append(" (Map(");
        JsonNode params = commitInfo.path("operationParameters");
        var it = params.fields();
        boolean first = true;
        while (it.hasNext()) {
            var e = it.next();
            sb.append(first ? "" : ", ").append(e.getKey()).append(" -> ")
                    .append(e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
            first = false;
        }
        return sb.append("))").toString();
    }

    private String readSchemaText() {
        if (readSchemaText == null) {
            readSchemaText = schema.simpleString();
        }
        return readSchemaText;
    }

    /** The column mapping mode and the top-level columns' physical names, as one comparable text. */
    private static String physicalNames(io.delta.kernel.types.StructType schema, String mode) {
        StringBuilder sb = new StringBuilder(mode.toLowerCase(java.util.Locale.ROOT)).append(':');
        if (!mode.equalsIgnoreCase("none")) {
            for (io.delta.kernel.types.StructField f : schema.fields()) {
                sb.append(f.getName()).append('=').append(
                        io.delta.kernel.internal.util.ColumnMapping.getPhysicalName(f)).append(';');
            }
        }
        return sb.toString();
    }

    private static String mappingOf(JsonNode metaData) {
        String s = metaData.path("schemaString").asText(null);
        if (s == null) {
            return null;
        }
        String mode = metaData.path("configuration").path("delta.columnMapping.mode").asText("none");
        return physicalNames(DataTypeJsonSerDe.deserializeStructType(s), mode);
    }

    private static String schemaOf(JsonNode metaData) {
        String s = metaData.path("schemaString").asText(null);
        return s == null ? null : DeltaTypes.toSluice(DataTypeJsonSerDe.deserializeStructType(s)).simpleString();
    }

    private String absolute(String rel) {
        try {
            URI u = new URI(rel);
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(u);
            return (p.isAbsolute() ? p : new org.apache.hadoop.fs.Path(new org.apache.hadoop.fs.Path(table.uri), p))
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("A data file path of " + table.where + " is not a URI: " + rel, e);
        }
    }
}
