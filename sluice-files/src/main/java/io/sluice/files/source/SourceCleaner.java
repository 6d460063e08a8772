package io.sluice.files.source;

import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * cleanSource: archives or deletes a file once the batch that read it has committed. Best effort, as in Spark:
 * a failure is a warning and the file stays where it is (it is in the seen-files state, so it is not read again).
 *
 * <p>Beyond Spark, a file is touched only if its modification time is still the one logged when it was selected:
 * a file overwritten since (or a new file under the same name) is left alone.
 *
 * <p>The cleanup part of the file source: {@link #cleanCommitted} cleans the files of the log offsets a commit
 * covers, remembering in the marker {@value #MARKER} (beside the seen-files log) how far it got, so that the
 * offsets committed while the query was down are cleaned after a restart.
 */
final class SourceCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(SourceCleaner.class);
    /** The cleanSource marker in the source's checkpoint folder, beside the seen-files log. */
    static final String MARKER = "cleanSource";
    private final FileStorage storage;
    private final Path sourceBase;
    /** null for delete. */
    private final Path archiveDir;
    /** The folder of the cleanSource marker file (the source's state folder). */
    private final StateFolder state;

    private SourceCleaner(FileStorage storage, Path sourceBase, Path archiveDir, StateFolder state) {
        this.storage = storage;
        this.sourceBase = sourceBase;
        this.archiveDir = archiveDir;
        this.state = state;
    }

    /** The cleaner the options ask for, or null with cleanSource=off. */
    static SourceCleaner of(FileSourceOptions opts, FileStorage storage, SourcePath source, StateFolder state) {
        if (opts.cleanSource() == FileSourceOptions.CleanSource.OFF) {
            return null;
        }
        Path archive = opts.cleanSource() == FileSourceOptions.CleanSource.ARCHIVE
                ? SourcePath.parse(FileSourceOptions.SOURCE_ARCHIVE_DIR,
                opts.sourceArchiveDir().orElseThrow(), storage).pattern() : null;
        LOG.warn("cleanSource={}: each file is {} once the batch that read it has committed. Run only one "
                        + "query with cleanSource on {}: another query reading the same files would miss the "
                        + "ones this query removes first, or fail on them", opts.cleanSource().name().toLowerCase(
                        Locale.ROOT), archive == null ? "deleted" : "moved under " + storage.display(archive),
                storage.display(source.pattern()));
        return new SourceCleaner(storage, source.base(), archive, state);
    }

    /**
     * Cleans the files of the log offsets up to {@code to} not cleaned yet: from the marker on, else from the
     * range this run planned ({@code plannedStart}, {@code plannedEnd}] when it ends at {@code to}, else only
     * {@code to}. Returns up to which log offset the seen-files log may release its entries.
     */
    long cleanCommitted(SeenFilesLog log, long to, long plannedStart, long plannedEnd) {
        long cleaned = readMarker();
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
                clean(e);
            }
        }
        if (to > cleaned) {
            writeMarker(to);
        }
        return Math.max(cleaned, to);
    }

    /** The last log offset whose files cleanSource handled, or -1. */
    private long readMarker() {
        try {
            byte[] json;
            try (java.io.InputStream in = state.open(MARKER)) {
                json = in.readNBytes(4096);
            }
            return FileSourceOffset.parse(new String(json, StandardCharsets.UTF_8)).logOffset();
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn("Cannot read {}; cleaning only the batch just committed", state.display(MARKER), e);
            return -1;
        }
    }

    private void writeMarker(long id) {
        try {
            byte[] json = new FileSourceOffset(id).json().getBytes(StandardCharsets.UTF_8);
            state.replace(MARKER, json);
        } catch (IOException e) {
            LOG.warn("Cannot write {}", state.display(MARKER), e);
        }
    }

    /** Where an archived file goes: its path relative to the source's base folder, under the archive folder. */
    Path archiveTarget(Path file) {
        Path rel;
        if (file.startsWith(sourceBase) && !file.equals(sourceBase)) {
            rel = sourceBase.relativize(file);
        } else {
            // A file outside the base (a sink manifest may name one): keep its whole path, as Spark does.
            Path root = file.getRoot();
            rel = root == null ? file : root.relativize(file);
        }
        return archiveDir.resolve(rel.toString());
    }

    /** Archives or deletes one file of a committed batch. */
    void clean(FileEntry entry) {
        Path file;
        try {
            file = storage.path(entry.path());
        } catch (IllegalArgumentException e) {
            LOG.warn("Cannot clean {}: {}", entry.path(), e.getMessage());
            return;
        }
        try {
            Optional<FileStatus> s = storage.status(file);
            if (s.isEmpty()) {
                LOG.warn("Cannot {} {}: it no longer exists. Is another query with cleanSource reading the same "
                        + "files?", archiveDir == null ? "delete" : "archive", storage.display(file));
                return;
            }
            if (s.get().modificationTime() != entry.timestamp()) {
                LOG.warn("Not cleaning {}: it was modified after it was read (modification time {} then, {} now); "
                        + "it is left in place", storage.display(file), entry.timestamp(), s.get().modificationTime());
                return;
            }
        } catch (IOException e) {
            LOG.warn("Cannot check {} before cleaning it / skip", storage.display(file), e);
            return;
        }
        if (archiveDir == null) {
            try {
                if (!storage.delete(file)) {
                    LOG.warn("Failed to remove {} / skip removing file.", storage.display(file));
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("Fail to remove {} / skip removing file.", storage.display(file), e);
            }
            return;
        }
        Path target = archiveTarget(file);
        try {
            LOG.debug("Archiving completed file {} to {}", storage.display(file), storage.display(target));
            storage.move(file, target);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Fail to move {} to {} / skip moving file.", storage.display(file), storage.display(target), e);
        }
    }
}
