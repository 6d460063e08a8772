package io.sluice.files.source;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import io.sluice.api.types.StructType;
import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import io.sluice.files.format.FileFormatReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The file source's stream: Spark's {@code FileStreamSource} on Sluice's micro-batch contract.
 *
 * <p>Each {@link #latestOffset} lists the path (or reads a sink's manifest, or takes the next files of the
 * listing cached by a rate-limited batch), keeps the files that are new (not seen, and not older than the
 * watermark), orders them by modification time, takes what the read limit admits and logs them as the next log
 * offset before returning it. {@link #planPartitions} reads back the logged files of the range, so a re-run reads
 * exactly the same files. {@link #commit} cleans up (cleanSource) and compacts the state.
 */
final class FileStreamSource implements SupportsTriggerAvailableNow {
    private static final Logger LOG = LoggerFactory.getLogger(FileStreamSource.class);
    /** Spark's spark.sql.files.maxPartitionBytes and openCostInBytes: how files are packed into partitions. */
    static final long MAX_PARTITION_BYTES = 128L << 20;
    /** The cleanSource marker in the source's checkpoint folder, beside the seen-files log. */
    static final String CLEAN_MARKER = "cleanSource";
    static final long OPEN_COST_BYTES = 4L << 20;
    /** The least data worth a partition of its own when there are more partitions than 128 MB ones need. */
    static final long MIN_SPLIT_BYTES = 8L << 20;

    private final String format;
    private final Options options;
    private final FileSourceOptions opts;
    private final StructType schema;
    private final Formats formats;
    private final FileStorage storage;
    private final SourcePath source;
    private final SeenFilesLog log;
    private final SourceCleaner cleaner;
    private final Path cleanMarker;

    /** Whether the path is a sink's output: null while undecided (empty, and no manifest yet). */
    private Boolean hasManifest;
    private SinkManifest manifest;
    /** Files the manifest named that were still new at the last look, by URI. */
    private final Map<String, Listed> manifestBacklog = new LinkedHashMap<>();

    /** Files listed but left by a rate-limited batch, taken by the next ones without listing (maxCachedFiles). */
    private List<Listed> unread;
    /** availableNow: the new files found at start, and how far batches have taken them. */
    private List<Listed> availableNow;
    private int availableNowPos;

    private long backlogFiles;
    private long backlogBytes;
    /** Files (bytes) this run has put into new batches: with the backlog, how much of it is drained. */
    private long takenFiles;
    private long takenBytes;
    private long changedFiles;
    private final Set<String> reportedChanges = new HashSet<>();
    /** Special files (FIFOs, sockets, devices) the listings skipped, each counted and warned once per run. */
    private final Set<String> reportedSpecial = new HashSet<>();
    /** Files skipped because they were gone (dropped from a cached listing, or by ignoreMissingFiles). */
    private final LongAdder missingSkipped = new LongAdder();
    /** Files whose rest was skipped by ignoreCorruptFiles. */
    private final LongAdder corruptSkipped = new LongAdder();

    /** The schema columns filled from key=value folders, fixed by the first file seen: null until then. */
    private int[] partitionColumns;
    private String partitionReference;
    private final Map<String, Layout> layouts = new ConcurrentHashMap<>();
    private final Map<String, FileFormatReader> readers = new ConcurrentHashMap<>();
    /** What the read pushed down; set before any other call ({@link #pushDown}). */
    private FilePushDown pushDown;

    private long plannedStart = Long.MIN_VALUE;
    private long plannedEnd = Long.MIN_VALUE;
    /** Sizes the listing gave for the files of log offsets logged in this run and not yet committed. */
    private final TreeMap<Long, Map<String, Long>> loggedSizes = new TreeMap<>();

    /** A file as listed: where it is, its URI, its length, its modification time, and its identity once known. */
    static final class Listed {
        private final Path path;
        private final String uri;
        private final long size;
        private final long timestamp;
        private PathHash key;

        Listed(Path path, String uri, long size, long timestamp) {
            this.path = path;
            this.uri = uri;
            this.size = size;
            this.timestamp = timestamp;
        }

        Path path() {
            return path;
        }

        String uri() {
            return uri;
        }

        long size() {
            return size;
        }

        long timestamp() {
            return timestamp;
        }

        @Override
        public String toString() {
            return uri;
        }
    }

    /** The file's identity in the seen-files state, computed once per listed file. */
    private PathHash key(Listed f) {
        if (f.key == null) {
            f.key = log.key(f.uri(), f.path());
        }
        return f.key;
    }

    FileStreamSource(String format, Options options, FileSourceOptions opts, StructType schema, Formats formats,
                     FileStorage storage, Path metadataPath) {
        this.format = format;
        this.options = options;
        this.opts = opts;
        this.schema = schema;
        this.formats = formats;
        this.storage = storage;
        this.source = SourcePath.of(opts, storage);
        this.pushDown = FilePushDown.none(format, options, schema);
        if (opts.latestFirst()) {
            LOG.warn("'latestFirst' is true. New files will be processed first, which may affect the watermark\n"
                    + "value. In addition, 'maxFileAge' will be ignored.");
        }
        if (opts.fileNameOnly()) {
            LOG.warn("'fileNameOnly' is enabled. Make sure your file names are unique (e.g. using UUID), otherwise, "
                    + "files with the same name but under different paths will be considered the same and causes "
                    + "data lost.");
        }
        this.log = SeenFilesLog.open(metadataPath, opts.effectiveMaxFileAgeMs(), opts.fileNameOnly(), storage);
        if (opts.cleanSource() == FileSourceOptions.CleanSource.OFF) {
            this.cleaner = null;
        } else {
            Path archive = opts.cleanSource() == FileSourceOptions.CleanSource.ARCHIVE
                    ? SourcePath.parse(FileSourceOptions.SOURCE_ARCHIVE_DIR,
                    opts.sourceArchiveDir().orElseThrow(), storage).pattern() : null;
            this.cleaner = new SourceCleaner(storage, source.base(), archive);
            LOG.warn("cleanSource={}: each file is {} once the batch that read it has committed. Run only one "
                            + "query with cleanSource on {}: another query reading the same files would miss the "
                            + "ones this query removes first, or fail on them", opts.cleanSource().name().toLowerCase(
                            Locale.ROOT), archive == null ? "deleted" : "moved under " + archive, source);
        }
        this.cleanMarker = metadataPath.resolve(CLEAN_MARKER);
        if (source.isGlob()) {
            hasManifest = Boolean.FALSE;
        }
        FileEntry newest = log.latestEntry();
        if (newest != null) {
            // Partition folders must stay as they were: the newest logged file sets them.
            partitionColumnsOf(storage.path(newest.path()), newest.path());
        }
        LOG.info("Started {}: maxFilesPerTrigger = {}, maxBytesPerTrigger = {}, maxFileAgeMs = {}", description(),
                opts.maxFilesPerTrigger().orElse(null), opts.maxBytesPerTrigger().orElse(null),
                opts.effectiveMaxFileAgeMs());
    }

    /** The read's push-down (the Spark bridge's {@code spark.read()}); called right after construction. */
    void pushDown(io.sluice.api.source.PushDown read) {
        this.pushDown = new FilePushDown(format, options, schema, read);
    }

    // ---------------------------------------------------------------- offsets

    @Override
    public Offset initialOffset() {
        return FileSourceOffset.INITIAL;
    }

    @Override
    public Offset deserializeOffset(String json) {
        return FileSourceOffset.parse(json);
    }

    @Override
    public Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        long before = FileSourceOffset.of(previousEnd);
        long after = FileSourceOffset.of(end);
        return after < before ? Optional.of("logOffset " + after + " is before " + before) : Optional.empty();
    }

    @Override
    public ReadLimit defaultReadLimit() {
        if (opts.maxFilesPerTrigger().isPresent()) {
            return ReadLimit.maxFiles(opts.maxFilesPerTrigger().get());
        }
        if (opts.maxBytesPerTrigger().isPresent()) {
            return ReadLimit.maxBytes(opts.maxBytesPerTrigger().get());
        }
        return ReadLimit.allAvailable();
    }

    @Override
    public void prepareForTriggerAvailableNow() {
        // Listed once: files that arrive later wait for the next run.
        availableNow = filterNew(listAll());
        availableNowPos = 0;
        setBacklog(availableNow, 0);
    }

    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        long startId = FileSourceOffset.of(start);
        long current = log.current();
        if (startId > current) {
            throw new IllegalStateException("The offset log says " + description() + " is at log offset " + startId
                    + " but its seen-files log ends at " + current + ": the checkpoint's sources folder was changed "
                    + "or deleted. Restore it from a backup, or use a new checkpoint");
        }
        if (current > startId) {
            // Files logged by a run that stopped before offering them: they make the next batch on their own,
            // so the batch stays within the limit.
            return new FileSourceOffset(current);
        }
        Caps caps = Caps.of(limit);
        List<Listed> selected;
        if (availableNow != null) {
            selected = takeAvailableNow(caps);
        } else {
            selected = takeListed(caps);
        }
        if (!selected.isEmpty()) {
            for (Listed f : selected) {
                checkPartitions(f.path(), f.uri());
            }
            List<SeenFilesLog.NewFile> files = new ArrayList<>(selected.size());
            for (Listed f : selected) {
                files.add(new SeenFilesLog.NewFile(f.uri(), f.path(), f.size(), f.timestamp(), key(f)));
            }
            long id = log.append(files);
            Map<String, Long> sizes = new java.util.HashMap<>(selected.size() * 2);
            for (Listed f : selected) {
                sizes.put(f.uri(), f.size());
            }
            loggedSizes.put(id, sizes);
            LOG.info("Log offset set to {} with {} new files", id, selected.size());
        }
        long now = log.current();
        return now < 0 ? null : new FileSourceOffset(now);
    }

    /** What a read limit allows: at most so many files and so many bytes (at least one file). */
    record Caps(int files, long bytes) {
        static Caps of(ReadLimit limit) {
            int files = Integer.MAX_VALUE;
            long bytes = Long.MAX_VALUE;
            List<ReadLimit> all = limit instanceof ReadLimit.Composite c ? c.limits() : List.of(limit);
            for (ReadLimit l : all) {
                if (l instanceof ReadLimit.MaxFiles f) {
                    files = Math.min(files, f.files());
                } else if (l instanceof ReadLimit.MaxBytes b) {
                    bytes = Math.min(bytes, b.bytes());
                }
                // Other kinds (rows, minimums) mean nothing for files: all available, as Spark does.
            }
            return new Caps(files, bytes);
        }

        boolean capped() {
            return files != Integer.MAX_VALUE || bytes != Long.MAX_VALUE;
        }

        /** How many of {@code files}, from {@code from}, fit: the first always; stop at the first that does not. */
        int fit(List<Listed> list, int from) {
            int n = 0;
            long total = 0;
            for (int i = from; i < list.size() && n < files; i++) {
                long size = list.get(i).size();
                if (n > 0 && (total + size < 0 || total + size > bytes)) {
                    break;
                }
                total += size;
                n++;
            }
            return n;
        }
    }

    private List<Listed> takeAvailableNow(Caps caps) {
        long watermark = log.seen().watermark();
        List<Listed> list = availableNow;
        // Files before the position were taken or are older than the watermark, which only rises.
        while (availableNowPos < list.size() && list.get(availableNowPos).timestamp() < watermark) {
            Listed dropped = list.get(availableNowPos++);
            backlogFiles--;
            backlogBytes -= dropped.size();
        }
        int n = fitExisting(caps, list, availableNowPos);
        List<Listed> selected = new ArrayList<>(list.subList(availableNowPos, availableNowPos + n));
        availableNowPos += n;
        reduceBacklog(selected);
        return selected;
    }

    private List<Listed> takeListed(Caps caps) {
        List<Listed> candidates;
        boolean fromCache = unread != null && !unread.isEmpty();
        if (fromCache) {
            candidates = unread;
        } else {
            candidates = filterNew(listAll());
            setBacklog(candidates, 0);
        }
        // A fresh listing has just seen its files; a cached one may hold files deleted since.
        int n = fromCache ? fitExisting(caps, candidates, 0) : caps.fit(candidates, 0);
        List<Listed> selected = new ArrayList<>(candidates.subList(0, n));
        List<Listed> rest = candidates.subList(n, candidates.size());
        boolean shouldCache = !opts.latestFirst() && caps.capped();
        boolean keep = shouldCache && !rest.isEmpty() && opts.maxCachedFiles() > 0;
        if (keep) {
            // Too little left to make a batch of ordinary size: list again next time, so new files join it.
            if (caps.files() != Integer.MAX_VALUE && rest.size() < caps.files() * opts.discardCachedInputRatio()) {
                keep = false;
            }
            if (caps.bytes() != Long.MAX_VALUE) {
                long restBytes = 0;
                for (Listed f : rest) {
                    restBytes += f.size();
                }
                if (restBytes < caps.bytes() * (double) opts.discardCachedInputRatio()) {
                    keep = false;
                }
            }
        }
        unread = keep ? new ArrayList<>(rest.subList(0, Math.min(rest.size(), opts.maxCachedFiles()))) : null;
        if (Boolean.TRUE.equals(hasManifest) && !fromCache) {
            // Only files still new stay: the backlog of a sink's output is bounded by what is unread.
            manifestBacklog.clear();
            for (Listed f : rest) {
                manifestBacklog.put(f.uri(), f);
            }
        } else if (Boolean.TRUE.equals(hasManifest)) {
            for (Listed f : selected) {
                manifestBacklog.remove(f.uri());
            }
        }
        reduceBacklog(selected);
        return selected;
    }

    /**
     * How many files of {@code list} from {@code from} the caps admit, after dropping (in place) those of them
     * that no longer exist. A list kept from an earlier listing (the cache of a rate-limited query, the
     * availableNow list) may name a file deleted since; logging it would make the query fail on it at every
     * restart. Only the files about to be logged are checked, one status each.
     */
    private int fitExisting(Caps caps, List<Listed> list, int from) {
        while (true) {
            int n = caps.fit(list, from);
            boolean dropped = false;
            for (int i = from + n - 1; i >= from; i--) {
                Listed f = list.get(i);
                if (!exists(f)) {
                    list.remove(i);
                    vanished(f);
                    dropped = true;
                }
            }
            if (!dropped) {
                return n;
            }
        }
    }

    private boolean exists(Listed f) {
        try {
            return storage.status(f.path()).isPresent();
        } catch (IOException e) {
            return true; // cannot tell: the reader will say what is wrong with it
        }
    }

    private void vanished(Listed f) {
        missingSkipped.increment();
        backlogFiles = Math.max(0, backlogFiles - 1);
        backlogBytes = Math.max(0, backlogBytes - f.size());
        LOG.warn("File {} was listed by {} but no longer exists when its batch is planned: it was deleted or moved "
                + "meanwhile, and is not read. Counted in metric numMissingFilesSkipped.", f.uri(), description());
    }

    private void setBacklog(List<Listed> files, int from) {
        backlogFiles = 0;
        backlogBytes = 0;
        for (int i = from; i < files.size(); i++) {
            backlogFiles++;
            backlogBytes += files.get(i).size();
        }
    }

    private void reduceBacklog(List<Listed> taken) {
        for (Listed f : taken) {
            backlogFiles--;
            backlogBytes -= f.size();
            takenFiles++;
            takenBytes += f.size();
        }
        backlogFiles = Math.max(0, backlogFiles);
        backlogBytes = Math.max(0, backlogBytes);
    }

    // ---------------------------------------------------------------- discovery

    /** Every data file of the path (or of the sink's manifest), in no particular order. */
    private List<Listed> listAll() {
        List<Listed> all;
        try {
            if (hasManifest == null && SinkManifest.present(storage, source.base())) {
                useManifest();
            }
            if (Boolean.TRUE.equals(hasManifest)) {
                all = fromManifest();
            } else {
                all = new ArrayList<>();
                List<Listed> out = all;
                source.list(storage, s -> out.add(new Listed(s.path(), storage.uri(s.path()), s.size(),
                        s.modificationTime())), this::specialFile);
                if (hasManifest == null && !all.isEmpty()) {
                    // A manifest written between the check and the listing still wins (Spark's double check).
                    if (SinkManifest.present(storage, source.base())) {
                        useManifest();
                        all = fromManifest();
                    } else {
                        hasManifest = Boolean.FALSE;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + source + ": " + e.getMessage(), e);
        }
        return all;
    }

    /** A FIFO, socket or device (or a link to one) in the listing: never data, counted and warned once. */
    private void specialFile(FileStatus s) {
        String uri = storage.uri(s.path());
        if (reportedSpecial.add(uri)) {
            LOG.warn("{} is not a regular file (a FIFO, socket or device, or a link to one): {} skips it, since "
                    + "only regular files are data and reading a FIFO could block forever. Counted in metric "
                    + "numSpecialFilesSkipped.", uri, description());
        }
    }

    private void useManifest() {
        if (cleaner != null) {
            throw new UnsupportedOperationException("Clean up source files is not supported when reading from the "
                    + "output directory of FileStreamSink.");
        }
        hasManifest = Boolean.TRUE;
        manifest = new SinkManifest(source.base(), storage);
        LOG.info("{} is the output of a file sink: reading the files its manifest {} names", source,
                manifest.dir());
    }

    private List<Listed> fromManifest() throws IOException {
        for (SinkManifest.Change c : manifest.readNew()) {
            FileStatus s = c.file();
            String uri = storage.uri(s.path());
            if (c.deleted()) {
                manifestBacklog.remove(uri);
            } else if (source.acceptsFileName(s.name())) { // pathGlobFilter applies to a manifest's files too
                manifestBacklog.put(uri, new Listed(s.path(), uri, s.size(), s.modificationTime()));
            }
        }
        return new ArrayList<>(manifestBacklog.values());
    }

    /**
     * The listed files that are new (at or after the watermark and not seen), ordered by modification time
     * (newest first with latestFirst), then URI. A seen file whose length or
     * modification time changed is reported (once per run): counted, warned, or failing the query with
     * failOnFileChange. With fileNameOnly, of several new files with one name only the first counts.
     */
    private List<Listed> filterNew(List<Listed> all) {
        SeenFiles seen = log.seen();
        long watermark = seen.watermark();
        List<Listed> out = new ArrayList<>();
        for (Listed f : all) {
            if (f.timestamp() < watermark) {
                continue;
            }
            SeenFiles.Seen s = seen.lookup(key(f));
            if (s == null) {
                out.add(f);
            } else if (s.timestamp() != f.timestamp() || (s.size() >= 0 && s.size() != f.size())) {
                fileChanged(f, s);
            }
        }
        // Sorted after filtering: a trigger that finds nothing new sorts nothing. One plain comparator rather than
        // a chain of composed ones: the first trigger sorts up to every listed file in a cold JVM, where each
        // level of indirection is paid per comparison.
        boolean newestFirst = opts.latestFirst();
        out.sort((a, b) -> {
            int c = newestFirst ? Long.compare(b.timestamp(), a.timestamp()) : Long.compare(a.timestamp(), b.timestamp());
            return c != 0 ? c : a.uri().compareTo(b.uri());
        });
        if (opts.fileNameOnly()) {
            Set<PathHash> names = new HashSet<>();
            out.removeIf(f -> !names.add(key(f)));
        }
        return out;
    }

    private void fileChanged(Listed f, SeenFiles.Seen s) {
        if (!reportedChanges.add(f.uri())) {
            return;
        }
        changedFiles++;
        String what = "File " + f.uri() + " was modified after " + description() + " read it (modification time "
                + s.timestamp() + " then, " + f.timestamp() + " now; size " + (s.size() < 0 ? "unknown" : s.size())
                + " then, " + f.size() + " now). A file source reads each file once: the change is not read. "
                + "Write new data to new files";
        if (opts.failOnFileChange()) {
            throw new IllegalStateException(what + " (failOnFileChange is true).");
        }
        LOG.warn("{}; set failOnFileChange=true to fail the query instead. Counted in metric "
                + "numFilesChangedAfterRead.", what);
    }

    // ---------------------------------------------------------------- partitions

    /**
     * The schema columns the file's {@code key=value} folders fill, checked against the first file's: a
     * partition column that appears or disappears while the query runs is an error.
     */
    private int[] partitionColumnsOf(Path file, String uri) {
        Map<String, String> folders = source.partitionsOf(file);
        List<Integer> cols = new ArrayList<>();
        for (String key : folders.keySet()) {
            int i = schema.indexOf(key);
            if (i >= 0) {
                cols.add(i);
            }
        }
        int[] found = new int[cols.size()];
        for (int k = 0; k < found.length; k++) {
            found[k] = cols.get(k);
        }
        Arrays.sort(found);
        if (partitionColumns == null) {
            partitionColumns = found;
            partitionReference = uri;
        } else if (!Arrays.equals(partitionColumns, found)) {
            throw new IllegalStateException("The partition columns changed while the query runs: " + uri + " has "
                    + names(found) + " but " + partitionReference + " has " + names(partitionColumns)
                    + ". The key=value folders that fill schema columns must stay the same for the life of a "
                    + "query: move the file, or start a new query (new checkpoint) for the new layout");
        }
        return found;
    }

    private String names(int[] cols) {
        List<String> n = new ArrayList<>();
        for (int c : cols) {
            n.add(schema.field(c).name());
        }
        return n.toString();
    }

    /** Checks the file's partition folders and values before it is logged, so a bad one never enters the log. */
    private void checkPartitions(Path file, String uri) {
        partitionValues(file, uri, partitionColumnsOf(file, uri));
    }

    private List<Object> partitionValues(Path file, String uri, int[] cols) {
        if (cols.length == 0) {
            return List.of();
        }
        Map<String, String> folders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        folders.putAll(source.partitionsOf(file));
        Object[] values = new Object[cols.length];
        for (int i = 0; i < cols.length; i++) {
            var f = schema.field(cols[i]);
            values[i] = Partitions.cast(folders.get(f.name()), f.dataType(), f.name(), uri);
        }
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    private Layout layout(int[] cols) {
        String key = Layout.keyOf(cols);
        return layouts.computeIfAbsent(key, k -> {
            Layout l = Layout.of(schema, cols, pushDown::reads);
            readers.computeIfAbsent(k, kk -> formats.reader(format, options, l.dataSchema));
            return l;
        });
    }

    // ---------------------------------------------------------------- batches

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        long from = FileSourceOffset.of(start);
        long to = FileSourceOffset.of(end);
        List<FileEntry> entries = log.entries(from, to);
        plannedStart = from;
        plannedEnd = to;
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
                if (st.isEmpty() && !opts.ignoreMissingFiles()) {
                    throw new IllegalStateException(missing(e.path(), e.batchId()));
                }
                size = st.isEmpty() ? 0L : st.get().size(); // gone: its reader skips it (ignoreMissingFiles)
            }
            int[] cols = partitionColumnsOf(p, e.path());
            List<Object> values = partitionValues(p, e.path(), cols);
            if (!pushDown.mayMatch(schema, cols, values)) {
                continue; // a partition folder the read's filters exclude
            }
            Layout l = layout(cols);
            slices.add(new FilePartition.Slice(e.path(), e.batchId(), size, l.key, values));
            total += size;
        }
        return pack(slices, total);
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

    /** Why a logged file cannot be read: it vanished between listing and reading. */
    String missing(String uri, long logOffset) {
        return "File " + uri + " of log offset " + logOffset + " of " + description() + " does not exist any more: "
                + "it was deleted or moved after it was listed. Is another query with cleanSource reading the same "
                + "path, or does another process remove files? Put the file back to let the query go on, or set "
                + "ignoreMissingFiles=true to skip it";
    }

    /** Why a logged file could not be read (damaged, not what its name says), and the ways out. */
    String corrupt(String uri, long logOffset, String reason) {
        return "Encountered error while reading file " + uri + " of log offset " + logOffset + " of "
                + description() + ": " + reason + ". Repair or replace the file and restart (the batch is run "
                + "again and reads it again), or set ignoreCorruptFiles=true to skip what cannot be read of it";
    }

    /** The reader's view of the source's failure handling; shared by every reader of the stream. */
    private final FilePartitionReader.Failures failures = new FilePartitionReader.Failures() {
        @Override
        public String missing(String uri, long logOffset) {
            return FileStreamSource.this.missing(uri, logOffset);
        }

        @Override
        public String corrupt(String uri, long logOffset, String reason) {
            return FileStreamSource.this.corrupt(uri, logOffset, reason);
        }

        @Override
        public boolean ignoreMissingFiles() {
            return opts.ignoreMissingFiles();
        }

        @Override
        public boolean ignoreCorruptFiles() {
            return opts.ignoreCorruptFiles();
        }

        @Override
        public void skippedMissing(String uri) {
            missingSkipped.increment();
        }

        @Override
        public void skippedCorrupt(String uri) {
            corruptSkipped.increment();
        }
    };

    @Override
    public PartitionReader createReader(InputPartition partition) {
        FilePartition files = (FilePartition) partition;
        // A stream built only to read (the Spark bridge's executors) has planned nothing: make the layouts here.
        for (FilePartition.Slice s : files.files()) {
            if (!layouts.containsKey(s.layout())) {
                layout(Layout.columnsOf(s.layout()));
            }
        }
        return new FilePartitionReader(files, layouts, readers, storage, failures);
    }

    @Override
    public void commit(Offset end) {
        long to = FileSourceOffset.of(end);
        loggedSizes.headMap(to, true).clear();
        long releasable = to;
        if (cleaner != null) {
            long cleaned = readCleanMarker();
            long from;
            if (cleaned >= 0) {
                from = cleaned;
            } else if (plannedEnd == to) {
                from = plannedStart;
            } else {
                from = to - 1;
            }
            for (long id = from + 1; id <= to; id++) {
                List<FileEntry> files;
                try {
                    files = log.batch(id);
                } catch (IllegalStateException | UncheckedIOException e) {
                    // Only when cleanSource was switched on for a checkpoint whose old log files are compacted.
                    LOG.warn("Cannot clean the files of log offset {}: {}", id, e.getMessage());
                    continue;
                }
                for (FileEntry e : files) {
                    cleaner.clean(e);
                }
            }
            if (to > cleaned) {
                writeCleanMarker(to);
            }
            releasable = Math.max(cleaned, to);
        }
        log.committed(to, releasable);
    }

    /** The last log offset whose files cleanSource handled, or -1. */
    private long readCleanMarker() {
        try {
            return FileSourceOffset.parse(Files.readString(cleanMarker, StandardCharsets.UTF_8)).logOffset();
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn("Cannot read {}; cleaning only the batch just committed", cleanMarker, e);
            return -1;
        }
    }

    private void writeCleanMarker(long id) {
        try {
            byte[] json = new FileSourceOffset(id).json().getBytes(StandardCharsets.UTF_8);
            DurableFiles.replace(cleanMarker, out -> out.write(json));
        } catch (IOException e) {
            LOG.warn("Cannot write {}", cleanMarker, e);
        }
    }

    @Override
    public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("numBytesOutstanding", Long.toString(backlogBytes));
        m.put("numFilesChangedAfterRead", Long.toString(changedFiles));
        m.put("numSpecialFilesSkipped", Long.toString(reportedSpecial.size()));
        m.put("numMissingFilesSkipped", Long.toString(missingSkipped.sum()));
        m.put("numCorruptFilesSkipped", Long.toString(corruptSkipped.sum()));
        m.put("numFilesOutstanding", Long.toString(backlogFiles));
        m.put("numBytesTaken", Long.toString(takenBytes));
        m.put("numFilesTaken", Long.toString(takenFiles));
        return m;
    }

    @Override
    public void stop() {
        unread = null;
        availableNow = null;
    }

    @Override
    public String description() {
        return "FileStreamSource[" + storage.display(source.pattern()) + "]";
    }

    @Override
    public String toString() {
        return description();
    }

    // ---------------------------------------------------------------- for tests

    SeenFilesLog seenFilesLog() {
        return log;
    }

    List<Listed> unreadForTest() {
        return unread;
    }
}
