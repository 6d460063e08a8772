package io.sluice.files.source;

import io.sluice.api.Options;
import io.sluice.api.source.InputPartition;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Planning of the file source: the logged files of a range into partitions (whole files, about equal cost, as
 * Spark packs them), with each file's layout (its partition columns and the data schema its format reads) and
 * the format reader of each layout, made once.
 */
final class FilePlanner {
    private static final Logger LOG = LoggerFactory.getLogger(FilePlanner.class);
    /** Spark's spark.sql.files.maxPartitionBytes and openCostInBytes: how files are packed into partitions. */
    static final long MAX_PARTITION_BYTES = 128L << 20;
    static final long OPEN_COST_BYTES = 4L << 20;
    /** The least data worth a partition of its own when there are more partitions than 128 MB ones need. */
    static final long MIN_SPLIT_BYTES = 8L << 20;

    private final String format;
    private final Options options;
    private final StructType schema;
    private final Formats formats;
    private final FileStorage storage;
    private final SeenFilesLog log;
    private final PartitionColumns partitions;
    private final boolean ignoreMissingFiles;
    /** The message for a logged file that is gone: (uri, log offset). */
    private final BiFunction<String, Long, String> missing;
    final Map<String, Layout> layouts = new ConcurrentHashMap<>();
    final Map<String, FileFormatReader> readers = new ConcurrentHashMap<>();
    /** What the read pushed down; set before any other call ({@link #pushDown}). */
    private FilePushDown pushDown;
    /** Sizes the listing gave for the files of log offsets logged in this run and not yet committed. */
    private final TreeMap<Long, Map<String, Long>> loggedSizes = new TreeMap<>();

    FilePlanner(String format, Options options, StructType schema, Formats formats, FileStorage storage,
                SeenFilesLog log, PartitionColumns partitions, boolean ignoreMissingFiles,
                BiFunction<String, Long, String> missing) {
        this.format = format;
        this.options = options;
        this.schema = schema;
        this.formats = formats;
        this.storage = storage;
        this.log = log;
        this.partitions = partitions;
        this.ignoreMissingFiles = ignoreMissingFiles;
        this.missing = missing;
        this.pushDown = FilePushDown.none(schema);
    }

    /** The read's push-down (an engine query, the Spark bridge's {@code spark.read()}); right after construction. */
    void pushDown(io.sluice.api.source.PushDown read) {
        this.pushDown = new FilePushDown(formats.prunesColumns(format, options, schema), read);
    }

    /** Remembers the listed sizes of the files just logged as log offset {@code id}: no status call to plan them. */
    void logged(long id, List<ListedFile> files) {
        Map<String, Long> sizes = new java.util.HashMap<>(files.size() * 2);
        for (ListedFile f : files) {
            sizes.put(f.uri(), f.size());
        }
        loggedSizes.put(id, sizes);
    }

    /** Forgets the sizes of log offsets up to {@code to}, committed. */
    void committed(long to) {
        loggedSizes.headMap(to, true).clear();
    }

    /** The partitions of the files logged in ({@code from}, {@code to}]. */
    List<InputPartition> plan(long from, long to) {
        List<FileEntry> entries = log.entries(from, to);
        LOG.info("Processing {} files from {}:{}", entries.size(), from + 1, to);
        List<FilePartition.Slice> slices = new ArrayList<>(entries.size());
        long total = 0;
        for (FileEntry e : entries) {
            Path p = storage.path(e.path());
            Map<String, Long> known = loggedSizes.get(e.batchId());
            Long size = known == null ? null : known.get(e.path());
            if (size == null) {
                // Logged by an earlier run (a re-run after a restart): ask the file system.
                Optional<FileStatus> st;
                try {
                    st = storage.status(p);
                } catch (IOException ex) {
                    throw new UncheckedIOException("Cannot read the status of " + e.path(), ex);
                }
                if (st.isEmpty() && !ignoreMissingFiles) {
                    throw new IllegalStateException(missing.apply(e.path(), e.batchId()));
                }
                size = st.isEmpty() ? 0L : st.get().size(); // gone: its reader skips it (ignoreMissingFiles)
            }
            int[] cols = partitions.of(p, e.path());
            List<Object> values = partitions.values(p, e.path(), cols);
            if (!pushDown.mayMatch(schema, cols, values)) {
                continue; // a partition folder the read's filters exclude
            }
            Layout l = layout(cols);
            slices.add(new FilePartition.Slice(e.path(), e.batchId(), size, l.key, values));
            total += size;
        }
        return pack(slices, total);
    }

    private Layout layout(int[] cols) {
        String key = Layout.keyOf(cols);
        return layouts.computeIfAbsent(key, k -> {
            Layout l = Layout.of(schema, cols, pushDown::reads);
            readers.computeIfAbsent(k, kk -> {
                java.util.List<io.sluice.api.source.ColumnFilter> filters = pushDown.dataFilters(l.dataSchema);
                return filters.isEmpty() ? formats.reader(format, options, l.dataSchema)
                        : formats.reader(format, options, l.dataSchema, filters);
            });
            return l;
        });
    }

    /** Makes the layouts of a partition's files: a stream built only to read (the Spark bridge's executors). */
    void prepare(FilePartition files) {
        for (FilePartition.Slice s : files.files()) {
            if (!layouts.containsKey(s.layout())) {
                layout(Layout.columnsOf(s.layout()));
            }
        }
    }

    /**
     * Packs whole files, in log order, into partitions of about equal cost (bytes plus 4 MB per file, as Spark
     * counts): as many as 128 MB partitions need, rounded up to a multiple of the cores, and up to 4 per core
     * while each still has 8 MB of data (so that a reader thread that finishes early takes another small one
     * instead of idling while the other reads a big one); never more than the files.
     */
    static List<InputPartition> pack(List<FilePartition.Slice> slices, long totalBytes) {
        return pack(slices, totalBytes, Runtime.getRuntime().availableProcessors());
    }

    static List<InputPartition> pack(List<FilePartition.Slice> slices, long totalBytes, int cores) {
        if (slices.isEmpty()) {
            return List.of();
        }
        cores = Math.max(1, cores);
        long totalCost = totalBytes + slices.size() * OPEN_COST_BYTES;
        long k = (totalCost + MAX_PARTITION_BYTES - 1) / MAX_PARTITION_BYTES;
        k = Math.max(k, Math.min(4L * cores, Math.max(cores, totalBytes / MIN_SPLIT_BYTES)));
        k = (k + cores - 1) / cores * cores;
        k = Math.max(1, Math.min(k, slices.size()));
        List<InputPartition> out = new ArrayList<>((int) k);
        List<FilePartition.Slice> current = new ArrayList<>();
        long before = 0;
        long index = 0;
        for (FilePartition.Slice s : slices) {
            long c = s.size() + OPEN_COST_BYTES;
            // A file goes to the partition its cost's midpoint falls in: cuts at every totalCost / k.
            long at = Math.min(k - 1, (long) ((before + c / 2.0) * k / totalCost));
            if (at != index && !current.isEmpty()) {
                out.add(new FilePartition(List.copyOf(current)));
                current.clear();
            }
            index = at;
            current.add(s);
            before += c;
        }
        out.add(new FilePartition(List.copyOf(current)));
        return out;
    }
}
