package io.sluice.files.source;

import io.sluice.api.SluiceClock;
import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Discovery of the file source: which files are there (the path's listing with its globs and filters, or a file
 * sink's manifest when the path is one's output) and which of them are new against the seen-files state. Files
 * changed after they were read and special files are reported here, each once per run.
 */
final class FileDiscovery {
    private static final Logger LOG = LoggerFactory.getLogger(FileDiscovery.class);

    private final FileStorage storage;
    private final SourcePath source;
    private final SeenFilesLog log;
    private final FileSourceOptions opts;
    private final boolean cleansSource;
    private final String description;

    /** Whether the path is a sink's output: null while undecided (empty, and no manifest yet). */
    private Boolean hasManifest;
    private SinkManifest manifest;
    /** Files the manifest named that were still new at the last look, by URI. */
    private final Map<String, ListedFile> manifestBacklog = new LinkedHashMap<>();

    private long changedFiles;
    private final Set<String> reportedChanges = new HashSet<>();
    /** Special files (FIFOs, sockets, devices) the listings skipped, each counted and warned once per run. */
    private final Set<String> reportedSpecial = new HashSet<>();

    /**
     * useIncrementalListing on a store that lists from a key: the next listing starts after {@link #startAfter}
     * (null: a full listing), and a full one comes every backfillInterval of the engine's clock.
     */
    private final boolean incremental;
    private final SluiceClock clock;
    private String startAfter;
    private long lastFullListingMs;
    /** The URIs the last incremental-mode listing gave, in key order, and where it started (null: full). */
    private List<String> lastListing;
    private String lastListingFrom;
    private long fullListings;

    /** useNotifications: the queue's messages instead of a listing per trigger; null otherwise. */
    private final NotifiedListing notified;

    FileDiscovery(FileStorage storage, SourcePath source, SeenFilesLog log, FileSourceOptions opts,
                  boolean cleansSource, String description, SluiceClock clock,
                  io.sluice.files.fs.ObjectNotifications notifications) {
        this.clock = clock;
        this.notified = notifications == null ? null : new NotifiedListing(notifications, storage, source, log,
                clock, opts.backfillIntervalMs(), description);
        this.incremental = opts.useIncrementalListing() && storage.listsFromKey();
        if (opts.useIncrementalListing() && !incremental) {
            LOG.info("{}: useIncrementalListing changes nothing on the local disk (every listing is full)",
                    description);
        }
        this.storage = storage;
        this.source = source;
        this.log = log;
        this.opts = opts;
        this.cleansSource = cleansSource;
        this.description = description;
        if (source.isGlob()) {
            hasManifest = Boolean.FALSE;
        }
    }

    /** The file's identity in the seen-files state, computed once per listed file. */
    PathHash key(ListedFile f) {
        if (f.key == null) {
            f.key = log.key(f.uri(), f.path());
        }
        return f.key;
    }

    /** Every data file of the path (or of the sink's manifest), in no particular order. */
    List<ListedFile> listAll() {
        List<ListedFile> all;
        try {
            if (hasManifest == null && SinkManifest.present(storage, source.base())) {
                useManifest();
            }
            if (Boolean.TRUE.equals(hasManifest)) {
                all = fromManifest();
            } else {
                all = new ArrayList<>();
                List<ListedFile> out = all;
                java.util.function.Consumer<FileStatus> add = s -> out.add(new ListedFile(s.path(),
                        storage.uri(s.path()), s.size(), s.modificationTime()));
                if (notified != null) {
                    all.addAll(notified.list(this::key, this::specialFile));
                } else if (incremental) {
                    listIncrementally(add);
                } else {
                    source.list(storage, add, this::specialFile);
                }
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

    /**
     * One listing of the incremental mode: from {@link #startAfter}, or whole when there is none yet (the first
     * listing of a run) or the last full listing is backfillInterval old (keys written late that sort before the
     * position are found only then).
     */
    private void listIncrementally(java.util.function.Consumer<FileStatus> add) throws IOException {
        long now = clock.millis();
        boolean full = startAfter == null || now - lastFullListingMs >= opts.backfillIntervalMs();
        String from = full ? null : startAfter;
        if (full) {
            lastFullListingMs = now;
            fullListings++;
        }
        List<String> uris = new ArrayList<>();
        source.listFrom(storage, from, s -> {
            uris.add(storage.uri(s.path()));
            add.accept(s);
        }, this::specialFile);
        lastListing = uris;
        lastListingFrom = from;
        LOG.debug("{}: {} listing from {} gave {} files", description, full ? "full" : "incremental",
                from, uris.size());
    }

    /**
     * After a batch took files from a fresh listing: the incremental listing's next position is the greatest key
     * it listed before the first new file not taken ({@code rest}: left for later batches or dropped from the
     * cache), so that a file is never passed over before it is logged.
     */
    void listingAdmitted(Collection<ListedFile> rest) {
        if (!incremental || lastListing == null) {
            return;
        }
        String firstLeft = null;
        for (ListedFile f : rest) {
            if (firstLeft == null || KEY_ORDER.compare(f.uri(), firstLeft) < 0) {
                firstLeft = f.uri();
            }
        }
        String pos = lastListingFrom;
        for (String u : lastListing) {
            if ((firstLeft == null || KEY_ORDER.compare(u, firstLeft) < 0)
                    && (pos == null || KEY_ORDER.compare(u, pos) > 0)) {
                pos = u;
            }
        }
        startAfter = pos;
        lastListing = null;
    }

    /** An object store's listing order: by the UTF-8 bytes of the key, which is code point order. */
    static final java.util.Comparator<String> KEY_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    /** Files just logged as log offset {@code id}. */
    void logged(long id, List<ListedFile> files) {
        if (notified != null) {
            notified.logged(id, files);
        }
    }

    /** Log offsets up to {@code to} committed. */
    void committed(long to) {
        if (notified != null) {
            notified.committed(to);
        }
    }

    /** The listing mode's metrics: full listings and, with notifications, messages. */
    void metrics(Map<String, String> m) {
        if (notified != null) {
            notified.metrics(m);
        } else if (incremental) {
            m.put("numFullListings", Long.toString(fullListings));
        }
    }

    /** Closes the notifications' queue client, if any. */
    void close() {
        if (notified != null) {
            notified.close();
        }
    }

    /** Full listings of the incremental mode this run (metric numFullListings). */
    long fullListings() {
        return fullListings;
    }

    /** Whether the incremental listing is on (a store that lists from a key). */
    boolean incremental() {
        return incremental;
    }

    /**
     * After a batch chose among a sink manifest's files: only files still new stay in the manifest's backlog
     * (so it is bounded by what is unread). {@code fresh}: the batch listed; else it took cached files.
     */
    void manifestBatch(boolean fresh, Collection<ListedFile> taken, Collection<ListedFile> rest) {
        if (!Boolean.TRUE.equals(hasManifest)) {
            return;
        }
        if (fresh) {
            manifestBacklog.clear();
            for (ListedFile f : rest) {
                manifestBacklog.put(f.uri(), f);
            }
        } else {
            for (ListedFile f : taken) {
                manifestBacklog.remove(f.uri());
            }
        }
    }

    /** A FIFO, socket or device (or a link to one) in the listing: never data, counted and warned once. */
    private void specialFile(FileStatus s) {
        String uri = storage.uri(s.path());
        if (reportedSpecial.add(uri)) {
            LOG.warn("{} is not a regular file (a FIFO, socket or device, or a link to one): {} skips it, since "
                    + "only regular files are data and reading a FIFO could block forever. Counted in metric "
                    + "numSpecialFilesSkipped.", uri, description);
        }
    }

    private void useManifest() {
        if (cleansSource) {
            throw new UnsupportedOperationException("Clean up source files is not supported when reading from the "
                    + "output directory of FileStreamSink.");
        }
        hasManifest = Boolean.TRUE;
        manifest = new SinkManifest(source.base(), storage);
        LOG.info("{} is the output of a file sink: reading the files its manifest {} names", source,
                manifest.dir());
    }

    private List<ListedFile> fromManifest() throws IOException {
        for (SinkManifest.Change c : manifest.readNew()) {
            FileStatus s = c.file();
            String uri = storage.uri(s.path());
            if (c.deleted()) {
                manifestBacklog.remove(uri);
            } else if (source.acceptsFileName(s.name())) { // pathGlobFilter applies to a manifest's files too
                manifestBacklog.put(uri, new ListedFile(s.path(), uri, s.size(), s.modificationTime()));
            }
        }
        return new ArrayList<>(manifestBacklog.values());
    }

    /**
     * The listed files that are new (at or after the watermark and not seen), in admission's order
     * ({@link FileAdmission#order}). A seen file whose length or modification time changed is reported (once per
     * run): counted, warned, or failing the query with failOnFileChange. With fileNameOnly, of several new files
     * with one name only the first counts.
     */
    List<ListedFile> newFiles(List<ListedFile> all) {
        SeenFiles seen = log.seen();
        long watermark = seen.watermark();
        List<ListedFile> out = new ArrayList<>();
        for (ListedFile f : all) {
            if (FileAdmission.tooOld(f, watermark)) {
                storage.forget(f.path());
                continue;
            }
            SeenFiles.Seen s = seen.lookup(key(f));
            if (s == null) {
                out.add(f);
            } else {
                // Seen, so read already (a batch is planned only after the previous one ran): its version tag is
                // no longer needed.
                storage.forget(f.path());
                if (s.timestamp() != f.timestamp() || (s.size() >= 0 && s.size() != f.size())) {
                    fileChanged(f, s);
                }
            }
        }
        // Sorted after filtering: a trigger that finds nothing new sorts nothing.
        FileAdmission.order(out, opts.latestFirst());
        if (opts.fileNameOnly()) {
            Set<PathHash> names = new HashSet<>();
            out.removeIf(f -> !names.add(key(f)));
        }
        return out;
    }

    private void fileChanged(ListedFile f, SeenFiles.Seen s) {
        if (!reportedChanges.add(f.uri())) {
            return;
        }
        changedFiles++;
        String what = "File " + f.uri() + " was modified after " + description + " read it (modification time "
                + s.timestamp() + " then, " + f.timestamp() + " now; size " + (s.size() < 0 ? "unknown" : s.size())
                + " then, " + f.size() + " now). A file source reads each file once: the change is not read. "
                + "Write new data to new files";
        if (opts.failOnFileChange()) {
            throw new IllegalStateException(what + " (failOnFileChange is true).");
        }
        LOG.warn("{}; set failOnFileChange=true to fail the query instead. Counted in metric "
                + "numFilesChangedAfterRead.", what);
    }

    /** Files found changed after they were read, this run (metric numFilesChangedAfterRead). */
    long changedFiles() {
        return changedFiles;
    }

    /** Special files skipped, this run (metric numSpecialFilesSkipped). */
    long specialFiles() {
        return reportedSpecial.size();
    }
}
