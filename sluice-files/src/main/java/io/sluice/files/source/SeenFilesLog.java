package io.sluice.files.source;

import io.sluice.api.io.MetadataLogFiles;
import io.sluice.files.fs.FileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * The file source's durable state in its checkpoint folder ({@code sources/<i>/}), and the hot set built from it.
 *
 * <ul>
 *   <li>{@code N}: the files of log offset N in Spark's format ({@code v1}, then
 *       {@code {"path":"file:///...","timestamp":ms,"batchId":N}} per file), written atomically inside
 *       {@code latestOffset}, before the engine writes {@code offsets/<batch>}: so a batch's file list is durable
 *       before anything acts on it, and a re-run reads exactly the same files.</li>
 *   <li>{@code N.hot}: the hot set after log offset N ({@link HotSnapshot}): only files within maxFileAge of the
 *       newest one, plus the watermark. A restart maps the newest snapshot and reads the {@code N} files after it,
 *       so its cost does not grow with the number of files ever processed.</li>
 *   <li>{@code N.compact}: Spark's compaction of the log, read when resuming a checkpoint Spark wrote.</li>
 * </ul>
 *
 * Log files are deleted once a snapshot covers them and their batch has committed (and been cleaned), except
 * the newest. Not thread-safe: the query's batch thread only.
 */
final class SeenFilesLog {
    private static final Logger LOG = LoggerFactory.getLogger(SeenFilesLog.class);
    /** Snapshot at most this often (in log offsets) unless the rules below force it: Spark's compactInterval. */
    static final int COMPACT_MIN_DELTAS = 10;
    /**
     * Entries outside the snapshot above which a snapshot is written: 100,000, or a sixteenth of the snapshot up
     * to 500,000, so a big hot set is not rewritten too often while a restart still parses at most 500,000 log
     * lines.
     */
    static final int COMPACT_MAX_RECENT = 100_000;
    static final int COMPACT_MAX_RECENT_CAP = 500_000;
    /** Log files after the snapshot above which a snapshot is written, bounding the files a restart opens. */
    static final int COMPACT_MAX_DELTAS = 1_000;
    static final String COMPACT_SUFFIX = MetadataLogFiles.COMPACT_SUFFIX;

    /** The state folder: local, or a prefix on an object store (a checkpoint on S3). */
    private final StateFolder dir;
    private final FileStorage storage;
    private final SeenFiles seen;
    private long current = -1;
    private long snapshotOffset = -1;
    /** The lowest log offset whose file may still be on disk. */
    private long oldestFile = Long.MAX_VALUE;
    /** Entries of recent log offsets, so planning and cleaning need not read them back. */
    private final TreeMap<Long, List<FileEntry>> cache = new TreeMap<>();
    /**
     * Whether Spark's {@code N.compact} files may be in the folder, to delete: always locally (a cheap call); on
     * an object store only when the restore found some (each delete is a request).
     */
    private boolean compactsMayExist;
    /** A file of the newest log offset, or null: tells a restarted run the partition folders in use. */
    private FileEntry latestEntry;

    private SeenFilesLog(StateFolder dir, FileStorage storage, SeenFiles seen) {
        this.dir = dir;
        this.storage = storage;
        this.seen = seen;
        this.compactsMayExist = dir instanceof StateFolder.Local;
    }

    /**
     * Restores the state from the folder (empty or missing: a new query).
     *
     * @param maxAgeMs the effective maxFileAge ({@code Long.MAX_VALUE}: never forget)
     * @throws IllegalStateException naming the file and the way out when the state is damaged or was written with
     *                               another fileNameOnly
     */
    static SeenFilesLog open(Path dir, long maxAgeMs, boolean fileNameOnly, FileStorage storage) {
        return open(StateFolder.local(dir), maxAgeMs, fileNameOnly, storage);
    }

    /** {@link #open(Path, long, boolean, FileStorage)} in a local folder or on an object store. */
    static SeenFilesLog open(StateFolder dir, long maxAgeMs, boolean fileNameOnly, FileStorage storage) {
        SeenFilesLog log = new SeenFilesLog(dir, storage, new SeenFiles(maxAgeMs, fileNameOnly));
        try {
            dir.create();
            log.restore();
        } catch (IOException e) {
            throw stateUnreadable(dir.display(), e);
        }
        return log;
    }

    /** How the source words a seen-files folder it cannot read. */
    static UncheckedIOException stateUnreadable(Object dir, IOException e) {
        return new UncheckedIOException("Cannot read the file source's seen-files state in " + dir + ": "
                + e.getMessage(), e);
    }

    /**
     * The log files in a seen-files folder, by log offset, named exactly as Spark writes them ({@code N},
     * {@code N.compact}) and {@code N.hot} snapshots; a lookalike name is warned about and ignored. Shared by the
     * source and {@link FileSourceLogView}, so both take the same files.
     */
    record Listing(TreeSet<Long> plain, TreeSet<Long> compacts, TreeSet<Long> snapshots) {
        static Listing of(Path dir) throws IOException {
            return of(StateFolder.local(dir));
        }

        static Listing of(StateFolder dir) throws IOException {
            Listing l = new Listing(new TreeSet<>(), new TreeSet<>(), new TreeSet<>());
            for (String name : dir.names()) {
                OptionalLong id;
                if ((id = MetadataLogFiles.batchId(name)).isPresent()) {
                    l.plain.add(id.getAsLong());
                } else if ((id = MetadataLogFiles.compactId(name)).isPresent()) {
                    l.compacts.add(id.getAsLong());
                } else if ((id = MetadataLogFiles.idWithSuffix(name, HotSnapshot.SUFFIX)).isPresent()) {
                    l.snapshots.add(id.getAsLong());
                } else if (MetadataLogFiles.isUnexpected(name, SourceCleaner.MARKER)) {
                    // Not taken for a log offset (Spark names them Long.toString(n)): 04 is not 4.
                    LOG.warn("Ignoring {}: not a file of the file source's seen-files log (its files are named "
                            + "by log offset, as Spark writes them: 0, 1, 2..., 9.compact)", dir.display(name));
                }
            }
            return l;
        }
    }

    private void restore() throws IOException {
        Listing listing = Listing.of(dir);
        TreeSet<Long> plain = listing.plain();
        TreeSet<Long> compacts = listing.compacts();
        TreeSet<Long> snapshots = listing.snapshots();
        if (!plain.isEmpty()) {
            oldestFile = plain.first();
        }
        if (!compacts.isEmpty()) {
            oldestFile = Math.min(oldestFile, compacts.first());
            compactsMayExist = true;
        }
        long base = -1;
        if (!snapshots.isEmpty()) {
            long s = snapshots.last();
            String file = dir.display(HotSnapshot.name(s));
            HotSnapshot snap;
            try {
                snap = dir.openSnapshot(HotSnapshot.name(s));
            } catch (IOException e) {
                throw new IllegalStateException("The file source's seen-files snapshot is damaged: " + e.getMessage()
                        + ". Restore the checkpoint from a backup, or start the query with a new checkpoint "
                        + "(which reads every file present again)", e);
            }
            if (snap.fileNameOnly != seen.fileNameOnly()) {
                throw new IllegalStateException("The checkpoint's seen-files state (" + file + ") was written with "
                        + "fileNameOnly=" + snap.fileNameOnly + " but this query has fileNameOnly="
                        + seen.fileNameOnly() + ". Set fileNameOnly back, or use a new checkpoint to change it");
            }
            seen.useSnapshot(snap);
            base = s;
            snapshotOffset = s;
            if (snap.maxFileAgeMs != seen.maxAgeMs()) {
                long newWatermark = seen.maxAgeMs() == Long.MAX_VALUE ? Long.MIN_VALUE
                        : snap.maxTimestamp - seen.maxAgeMs();
                if (newWatermark < snap.watermark) {
                    LOG.warn("maxFileAge was raised from {} ms to {} ms: files modified from {} to {} that this "
                                    + "query processed, and forgot as older than the old maxFileAge, are read again "
                                    + "if they are still in the source path (the way out for restored old files; "
                                    + "use cleanSource, or touch files instead, to avoid it)", snap.maxFileAgeMs,
                            seen.maxAgeMs(), java.time.Instant.ofEpochMilli(newWatermark),
                            java.time.Instant.ofEpochMilli(snap.watermark));
                }
            }
        } else if (!compacts.isEmpty()) {
            // A checkpoint written by Spark: its newest compact file holds every entry up to its offset.
            long c = compacts.last();
            readFile(dir, c + COMPACT_SUFFIX, b -> true, this::restoreEntry);
            base = c;
        }
        long max = base;
        TreeSet<Long> later = new TreeSet<>(plain.tailSet(base + 1));
        later.addAll(compacts.tailSet(base + 1));
        long expected = base + 1;
        for (long id : later) {
            if (id != expected) {
                throw new IllegalStateException("The file source's seen-files log in " + dir.display() + " has no "
                        + "entry for log offset " + expected + " (the next one is " + id + "): a file was deleted from the "
                        + "checkpoint. Restore the checkpoint from a backup, or use a new checkpoint (which reads "
                        + "every file present again)");
            }
            List<FileEntry> entries = readBatchFile(id, plain.contains(id));
            entries.forEach(this::restoreEntry);
            latestEntry = entries.isEmpty() ? null : entries.get(0);
            max = id;
            expected = id + 1;
        }
        current = max;
        seen.purge();
        if (current >= 0 && current == base && plain.contains(current)) {
            latestEntry = firstEntry(dir, Long.toString(current));
        } else if (current >= 0 && current == base && seen.snapshot() == null) {
            List<FileEntry> last = readBatchFile(current, false);
            latestEntry = last.isEmpty() ? null : last.get(0);
        }
        for (long old : snapshots.headSet(base)) {
            // Left by a crash between writing a newer snapshot and removing this one.
            dir.deleteIfExists(HotSnapshot.name(old));
        }
        LOG.info("Restored the file source's seen-files state from {}: log offset {}, {} files in the snapshot, {} "
                        + "after it, watermark {}", dir.display(), current, seen.snapshotSize(), seen.recentSize(),
                seen.watermark());
    }

    private void restoreEntry(FileEntry e) {
        seen.add(key(canonical(e.path())), e.timestamp(), -1);
    }

    private String canonical(String uri) {
        return uri.startsWith("file:///") ? uri : storage.uri(storage.path(uri));
    }

    /** The identity of a file in the hot set: its URI, or its name with fileNameOnly. */
    PathHash key(String uri) {
        if (!seen.fileNameOnly()) {
            return PathHash.of(uri);
        }
        Path name = storage.path(uri).getFileName();
        return PathHash.of(name == null ? uri : name.toString());
    }

    /** Same as {@link #key(String)}, when the path is at hand (cheaper with fileNameOnly). */
    PathHash key(String uri, Path path) {
        if (!seen.fileNameOnly()) {
            return PathHash.of(uri);
        }
        if (path == null) {
            return key(uri);
        }
        Path name = path.getFileName();
        return PathHash.of(name == null ? uri : name.toString());
    }

    SeenFiles seen() {
        return seen;
    }

    /** The newest log offset, -1 when nothing has been logged. */
    long current() {
        return current;
    }

    long snapshotOffset() {
        return snapshotOffset;
    }

    /** A file of the newest log offset, or null (for checking partition folders across restarts). */
    FileEntry latestEntry() {
        return latestEntry;
    }

    /** The first entry of a log file, without reading the rest (a batch may hold a million files). */
    private static FileEntry firstEntry(StateFolder dir, String name) throws IOException {
        try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(dir.open(name),
                java.nio.charset.StandardCharsets.UTF_8))) {
            String version = r.readLine();
            String line = r.readLine();
            if (version == null || !version.startsWith("v") || line == null || line.isEmpty()) {
                return null;
            }
            return LogCodec.parseEntry(line);
        }
    }

    /**
     * A file chosen for a batch, with the size and modification time the listing reported, and its identity when
     * already computed (else null).
     */
    record NewFile(String uri, Path path, long size, long timestamp, PathHash key) {
        NewFile(String uri, Path path, long size, long timestamp) {
            this(uri, path, size, timestamp, null);
        }
    }

    /**
     * Logs the files as the next log offset (atomically and durably), then adds them to the hot set and moves the
     * watermark. Returns the new log offset.
     *
     * @throws IllegalStateException if that log file already exists: another query writes to this checkpoint
     */
    long append(List<NewFile> files) {
        long id = current + 1;
        List<FileEntry> entries = new ArrayList<>(files.size());
        for (NewFile f : files) {
            entries.add(new FileEntry(f.uri(), f.timestamp(), id));
        }
        String file = dir.display(Long.toString(id));
        try {
            dir.createNew(Long.toString(id), out -> LogCodec.writeEntries(entries, out));
        } catch (FileAlreadyExistsException e) {
            throw new IllegalStateException("Concurrent update to the log. Multiple streaming jobs detected for "
                    + id + " (" + file + " already exists)", e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the file source's log " + file + ": " + e.getMessage(), e);
        }
        for (NewFile f : files) {
            seen.add(f.key() != null ? f.key() : key(f.uri(), f.path()), f.timestamp(), f.size());
        }
        seen.purge();
        current = id;
        oldestFile = Math.min(oldestFile, id);
        cache.put(id, entries);
        latestEntry = entries.isEmpty() ? null : entries.get(0);
        return id;
    }

    /** The files of log offsets {@code (fromExclusive, toInclusive]}, in log order. */
    List<FileEntry> entries(long fromExclusive, long toInclusive) {
        if (toInclusive > current) {
            throw new IllegalStateException("The offset log asks for the files of log offset " + toInclusive
                    + " but the file source's seen-files log in " + dir.display() + " ends at " + current + ": the checkpoint's"
                    + " sources folder was changed or deleted. Restore it from a backup, or use a new checkpoint");
        }
        List<FileEntry> out = new ArrayList<>();
        for (long id = fromExclusive + 1; id <= toInclusive; id++) {
            out.addAll(batch(id));
        }
        return out;
    }

    /** The files of one log offset. */
    List<FileEntry> batch(long id) {
        List<FileEntry> cached = cache.get(id);
        if (cached != null) {
            return cached;
        }
        try {
            List<FileEntry> entries = readBatchFile(id, dir.exists(Long.toString(id)));
            cache.put(id, entries);
            while (cache.size() > 64) {
                cache.pollFirstEntry();
            }
            return entries;
        } catch (IOException e) {
            throw unreadable(id, dir.display(), e);
        }
    }

    private List<FileEntry> readBatchFile(long id, boolean plain) throws IOException {
        List<FileEntry> out = new ArrayList<>();
        String file = plain ? Long.toString(id) : id + COMPACT_SUFFIX;
        try {
            // A compact file holds every entry up to its offset: take those of this offset only.
            readFile(dir, file, plain ? b -> true : b -> b == id, out::add);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("The file source's log for log offset " + id + " (" + dir.display(
                    Long.toString(id)) + ") is missing: the checkpoint's sources folder was changed. Restore it "
                    + "from a backup, or use a new checkpoint", e);
        }
        return out;
    }

    /**
     * Hands over the entries of a log file whose {@code batchId} {@code batches} accepts, parsed by
     * {@link LogCodec}; errors name the file, the line and the problem. The read path of the source and of
     * {@link FileSourceLogView}.
     *
     * @throws NoSuchFileException when the file does not exist (e.g. deleted since the folder was listed)
     */
    static void readFile(Path file, LongPredicate batches, Consumer<FileEntry> out) throws IOException {
        readFile(StateFolder.local(file.getParent()), file.getFileName().toString(), batches, out);
    }

    /** {@link #readFile(Path, LongPredicate, Consumer)} of the file {@code name} of a state folder. */
    static void readFile(StateFolder dir, String name, LongPredicate batches, Consumer<FileEntry> out)
            throws IOException {
        try (InputStream in = dir.open(name)) {
            LogCodec.forEachEntry(in, "The file source's log file " + dir.display(name), e -> {
                if (batches.test(e.batchId())) {
                    out.accept(e);
                }
            });
        }
    }

    /** How the source words a log file of log offset {@code id} in {@code dir} that it cannot read. */
    static UncheckedIOException unreadable(long id, Object dir, IOException e) {
        return new UncheckedIOException("Cannot read the file source's log for log offset " + id + " in " + dir
                + ": " + e.getMessage(), e);
    }

    /**
     * The batch ending at log offset {@code end} has committed: maybe write a snapshot, then delete log files that
     * a snapshot covers, no re-run can need ({@code <= end}) and, with cleanSource, have been cleaned
     * ({@code <= releasable}). The newest log file is always kept.
     */
    void committed(long end, long releasable) {
        while (!cache.isEmpty() && cache.firstKey() <= end) {
            cache.pollFirstEntry();
        }
        long deltas = current - snapshotOffset;
        long recent = seen.recentSize();
        boolean compact = deltas > 0 && (recent >= compactionThreshold() || deltas >= COMPACT_MAX_DELTAS
                || (deltas >= COMPACT_MIN_DELTAS && recent * 8 >= seen.snapshotSize()));
        try {
            if (compact) {
                snapshot();
            }
            long through = Math.min(snapshotOffset, Math.min(end, releasable));
            for (long id = oldestFile; id <= through; id++) {
                if (id == current) {
                    break;
                }
                dir.deleteIfExists(Long.toString(id));
                if (compactsMayExist) {
                    dir.deleteIfExists(id + COMPACT_SUFFIX);
                }
                oldestFile = id + 1;
            }
        } catch (IOException e) {
            // The state stays correct: the old files are simply still there, and a restart reads the old snapshot.
            LOG.warn("Could not compact the file source's seen-files log in {}; will retry", dir.display(), e);
        }
    }

    /** How many entries outside the snapshot force a new snapshot. */
    long compactionThreshold() {
        return Math.max(COMPACT_MAX_RECENT, Math.min(COMPACT_MAX_RECENT_CAP, seen.snapshotSize() / 16));
    }

    /** Writes the hot set as the snapshot of the newest log offset and removes older snapshots. */
    void snapshot() throws IOException {
        HotSnapshot previous = seen.snapshot();
        String name = HotSnapshot.name(current);
        HotSnapshot s = dir.writeSnapshot(name, file -> seen.writeSnapshot(file, current));
        if (previous != null && previous.logOffset != current) {
            dir.deleteIfExists(HotSnapshot.name(previous.logOffset));
        }
        snapshotOffset = current;
        LOG.debug("Wrote seen-files snapshot {} ({} files)", dir.display(name), s.count);
    }
}
