package io.sluice.files.source;

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

    FileDiscovery(FileStorage storage, SourcePath source, SeenFilesLog log, FileSourceOptions opts,
                  boolean cleansSource, String description) {
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
                source.list(storage, s -> out.add(new ListedFile(s.path(), storage.uri(s.path()), s.size(),
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
                continue;
            }
            SeenFiles.Seen s = seen.lookup(key(f));
            if (s == null) {
                out.add(f);
            } else if (s.timestamp() != f.timestamp() || (s.size() >= 0 && s.size() != f.size())) {
                fileChanged(f, s);
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
