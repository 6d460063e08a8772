package io.sluice.files.source;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import io.sluice.api.types.StructType;
import io.sluice.files.fs.FileStorage;
import io.sluice.values.DateTimeReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The file source's stream: Spark's {@code FileStreamSource} on Sluice's micro-batch contract, a thin stream over
 * its four concerns: {@link FileDiscovery} (listing, globs, a sink's manifest, the seen-files state, with
 * {@link PartitionColumns}), {@link FileAdmission} (which new files the next batch takes under the read limit,
 * pure), {@link FilePlanner} (the logged files of a range into partitions) and {@link SourceCleaner} (cleanSource).
 *
 * <p>Each {@link #latestOffset} lists the path (or reads a sink's manifest, or takes the next files of the
 * listing cached by a rate-limited batch), keeps the files that are new (not seen, and not older than the
 * watermark), orders them by modification time, takes what the read limit admits and logs them as the next log
 * offset before returning it. {@link #planPartitions} reads back the logged files of the range, so a re-run reads
 * exactly the same files. {@link #commit} cleans up (cleanSource) and compacts the state.
 */
final class FileStreamSource implements SupportsTriggerAvailableNow {
    private static final Logger LOG = LoggerFactory.getLogger(FileStreamSource.class);

    private final FileSourceOptions opts;
    private final FileStorage storage;
    private final SourcePath source;
    private final SeenFilesLog log;
    private final FileDiscovery discovery;
    private final PartitionColumns partitions;
    private final FilePlanner planner;
    /** null with cleanSource=off. */
    private final SourceCleaner cleaner;

    /** Files listed but left by a rate-limited batch, taken by the next ones without listing (maxCachedFiles). */
    private List<ListedFile> unread;
    /** availableNow: the new files found at start, and how far batches have taken them. */
    private List<ListedFile> availableNow;
    /** Whether {@link #availableNow} was listed for the batch now being planned (its first): nothing to re-check. */
    private boolean availableNowFresh;
    private int availableNowPos;

    private long backlogFiles;
    private long backlogBytes;
    /** Files (bytes) this run has put into new batches: with the backlog, how much of it is drained. */
    private long takenFiles;
    private long takenBytes;
    /** Files skipped because they were gone (dropped from a cached listing, or by ignoreMissingFiles). */
    private final LongAdder missingSkipped = new LongAdder();
    /** Files whose rest was skipped by ignoreCorruptFiles. */
    private final LongAdder corruptSkipped = new LongAdder();

    private long plannedStart = Long.MIN_VALUE;
    private long plannedEnd = Long.MIN_VALUE;

    FileStreamSource(String format, Options options, FileSourceOptions opts, StructType schema, Formats formats,
                     FileStorage storage, Path metadataPath, io.sluice.api.SluiceClock clock,
                     io.sluice.files.fs.ObjectNotifications notifications) {
        this(format, options, opts, schema, formats, storage, StateFolder.local(metadataPath), clock, notifications);
    }

    /** The source keeping its state in {@code state}: a local folder or a prefix of a checkpoint on a store. */
    FileStreamSource(String format, Options options, FileSourceOptions opts, StructType schema, Formats formats,
                     FileStorage storage, StateFolder state, io.sluice.api.SluiceClock clock,
                     io.sluice.files.fs.ObjectNotifications notifications) {
        this.opts = opts;
        this.storage = storage;
        this.source = SourcePath.of(opts, storage);
        if (opts.latestFirst()) {
            LOG.warn("'latestFirst' is true. New files will be processed first, which may affect the watermark\n"
                    + "value. In addition, 'maxFileAge' will be ignored.");
        }
        if (opts.fileNameOnly()) {
            LOG.warn("'fileNameOnly' is enabled. Make sure your file names are unique (e.g. using UUID), otherwise, "
                    + "files with the same name but under different paths will be considered the same and causes "
                    + "data lost.");
        }
        this.log = SeenFilesLog.open(state, opts.effectiveMaxFileAgeMs(), opts.fileNameOnly(), storage);
        this.cleaner = SourceCleaner.of(opts, storage, source, state);
        this.discovery = new FileDiscovery(storage, source, log, opts, cleaner != null, description(),
                clock, notifications);
        // Timestamp folder values are in timeZone (set to the session time zone by the provider when not given).
        this.partitions = new PartitionColumns(source, schema, DateTimeReader.zone(options, ZoneId.systemDefault()));
        this.planner = new FilePlanner(format, options, schema, formats, storage, log, partitions,
                opts.ignoreMissingFiles(), this::missing);
        FileEntry newest = log.latestEntry();
        if (newest != null) {
            // Partition folders must stay as they were: the newest logged file sets them.
            partitions.of(storage.path(newest.path()), newest.path());
        }
        LOG.info("Started {}: maxFilesPerTrigger = {}, maxBytesPerTrigger = {}, maxFileAgeMs = {}", description(),
                opts.maxFilesPerTrigger().orElse(null), opts.maxBytesPerTrigger().orElse(null),
                opts.effectiveMaxFileAgeMs());
    }

    /** The read's push-down (the Spark bridge's {@code spark.read()}); called right after construction. */
    void pushDown(io.sluice.api.source.PushDown read) {
        planner.pushDown(read);
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
        availableNow = discovery.newFiles(discovery.listAll());
        availableNowFresh = true;
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
        FileAdmission.Caps caps = FileAdmission.Caps.of(limit);
        List<ListedFile> selected;
        if (availableNow != null) {
            selected = takeAvailableNow(caps);
        } else {
            selected = takeListed(caps);
        }
        if (!selected.isEmpty()) {
            for (ListedFile f : selected) {
                partitions.check(f.path(), f.uri());
            }
            List<SeenFilesLog.NewFile> files = new ArrayList<>(selected.size());
            for (ListedFile f : selected) {
                files.add(new SeenFilesLog.NewFile(f.uri(), f.path(), f.size(), f.timestamp(), discovery.key(f)));
            }
            long id = log.append(files);
            planner.logged(id, selected);
            discovery.logged(id, selected);
            LOG.info("Log offset set to {} with {} new files", id, selected.size());
        }
        long now = log.current();
        return now < 0 ? null : new FileSourceOffset(now);
    }

    private List<ListedFile> takeAvailableNow(FileAdmission.Caps caps) {
        List<ListedFile> list = availableNow;
        int pos = FileAdmission.skipTooOld(list, availableNowPos, log.seen().watermark());
        for (ListedFile dropped : list.subList(availableNowPos, pos)) {
            backlogFiles--;
            backlogBytes -= dropped.size();
        }
        // The first batch takes files the listing has just seen, as a fresh listing's batch does (takeListed); a
        // later one takes files listed batches ago, which may have been deleted since.
        int n = availableNowFresh ? caps.fit(list, pos) : fitExisting(caps, list, pos);
        availableNowFresh = false;
        List<ListedFile> selected = new ArrayList<>(list.subList(pos, pos + n));
        availableNowPos = pos + n;
        reduceBacklog(selected);
        return selected;
    }

    private List<ListedFile> takeListed(FileAdmission.Caps caps) {
        List<ListedFile> candidates;
        boolean fromCache = unread != null && !unread.isEmpty();
        if (fromCache) {
            candidates = unread;
            // A fresh listing has just seen its files; a cached one may hold files deleted since.
            fitExisting(caps, candidates, 0);
        } else {
            candidates = discovery.newFiles(discovery.listAll());
            setBacklog(candidates, 0);
        }
        FileAdmission.Selection s = FileAdmission.admit(candidates, new FileAdmission.Limits(caps,
                opts.latestFirst(), opts.maxCachedFiles(), opts.discardCachedInputRatio()));
        unread = s.cached();
        discovery.manifestBatch(!fromCache, s.taken(), s.rest());
        if (!fromCache) {
            discovery.listingAdmitted(s.rest());
        }
        reduceBacklog(s.taken());
        return s.taken();
    }

    /**
     * How many files of {@code list} from {@code from} the caps admit, after dropping (in place) those of them
     * that no longer exist. A list kept from an earlier listing (the cache of a rate-limited query, the
     * availableNow list) may name a file deleted since; logging it would make the query fail on it at every
     * restart. Only the files about to be logged are checked, one status each, all of them at once
     * ({@link FileStorage#existing}: an object store sends those requests several at a time).
     */
    private int fitExisting(FileAdmission.Caps caps, List<ListedFile> list, int from) {
        while (true) {
            int n = caps.fit(list, from);
            List<java.nio.file.Path> paths = new ArrayList<>(n);
            for (ListedFile f : list.subList(from, from + n)) {
                paths.add(f.path());
            }
            boolean[] exists = storage.existing(paths);
            boolean dropped = false;
            for (int i = from + n - 1; i >= from; i--) {
                if (!exists[i - from]) {
                    vanished(list.remove(i));
                    dropped = true;
                }
            }
            if (!dropped) {
                return n;
            }
        }
    }

    private void vanished(ListedFile f) {
        missingSkipped.increment();
        backlogFiles = Math.max(0, backlogFiles - 1);
        backlogBytes = Math.max(0, backlogBytes - f.size());
        LOG.warn("File {} was listed by {} but no longer exists when its batch is planned: it was deleted or moved "
                + "meanwhile, and is not read. Counted in metric numMissingFilesSkipped.", f.uri(), description());
    }

    private void setBacklog(List<ListedFile> files, int from) {
        backlogFiles = 0;
        backlogBytes = 0;
        for (int i = from; i < files.size(); i++) {
            backlogFiles++;
            backlogBytes += files.get(i).size();
        }
    }

    private void reduceBacklog(List<ListedFile> taken) {
        for (ListedFile f : taken) {
            backlogFiles--;
            backlogBytes -= f.size();
            takenFiles++;
            takenBytes += f.size();
        }
        backlogFiles = Math.max(0, backlogFiles);
        backlogBytes = Math.max(0, backlogBytes);
    }

    // ---------------------------------------------------------------- batches

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        long from = FileSourceOffset.of(start);
        long to = FileSourceOffset.of(end);
        plannedStart = from;
        plannedEnd = to;
        return planner.plan(from, to);
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
                + description() + ": " + reason + (reason.endsWith(".") ? "" : ".") + " Repair or replace the file and restart (the batch is run "
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
        planner.prepare(files);
        return new FilePartitionReader(files, planner.layouts, planner.readers, storage, failures);
    }

    @Override
    public void commit(Offset end) {
        long to = FileSourceOffset.of(end);
        planner.committed(to);
        long releasable = cleaner == null ? to : cleaner.cleanCommitted(log, to, plannedStart, plannedEnd);
        log.committed(to, releasable);
        discovery.committed(to);
    }

    /** {@link FileStorage#listingCounts()} at the previous progress report. */
    private Map<String, Long> lastListing = Map.of();

    @Override
    public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("numBytesOutstanding", Long.toString(backlogBytes));
        m.put("numFilesChangedAfterRead", Long.toString(discovery.changedFiles()));
        m.put("numSpecialFilesSkipped", Long.toString(discovery.specialFiles()));
        m.put("numMissingFilesSkipped", Long.toString(missingSkipped.sum()));
        m.put("numCorruptFilesSkipped", Long.toString(corruptSkipped.sum()));
        m.put("numFilesOutstanding", Long.toString(backlogFiles));
        m.put("numBytesTaken", Long.toString(takenBytes));
        m.put("numFilesTaken", Long.toString(takenFiles));
        // An object store's listing work since the previous progress report (one a trigger): prefix listings
        // and keys listed, the cost of "huge directories" (none on the local disk).
        discovery.metrics(m);
        Map<String, Long> listing = storage.listingCounts();
        for (Map.Entry<String, Long> e : listing.entrySet()) {
            m.put(e.getKey(), Long.toString(e.getValue() - lastListing.getOrDefault(e.getKey(), 0L)));
        }
        lastListing = listing;
        // The format readers' own counts (Parquet's row groups read and skipped), summed over the layouts.
        Map<String, Long> formatCounts = new java.util.TreeMap<>();
        for (io.sluice.files.format.FileFormatReader r : planner.readers.values()) {
            r.metrics().forEach((k, v) -> formatCounts.merge(k, v, Long::sum));
        }
        formatCounts.forEach((k, v) -> m.put(k, Long.toString(v)));
        return m;
    }

    @Override
    public void stop() {
        unread = null;
        availableNow = null;
        discovery.close();
        io.sluice.files.fs.ObjectFileStorage.closeQuietly(storage); // an object store's client and connections
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

    List<ListedFile> unreadForTest() {
        return unread;
    }
}
