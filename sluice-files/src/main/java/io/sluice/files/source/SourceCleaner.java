package io.sluice.files.source;

import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * cleanSource: archives or deletes a file once the batch that read it has committed. Best effort, as in Spark:
 * a failure is a warning and the file stays where it is (it is in the seen-files state, so it is not read again).
 *
 * <p>Beyond Spark, a file is touched only if its modification time is still the one logged when it was selected:
 * a file overwritten since (or a new file under the same name) is left alone.
 */
final class SourceCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(SourceCleaner.class);
    private final FileStorage storage;
    private final Path sourceBase;
    /** null for delete. */
    private final Path archiveDir;

    SourceCleaner(FileStorage storage, Path sourceBase, Path archiveDir) {
        this.storage = storage;
        this.sourceBase = sourceBase;
        this.archiveDir = archiveDir;
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
                        + "files?", archiveDir == null ? "delete" : "archive", file);
                return;
            }
            if (s.get().modificationTime() != entry.timestamp()) {
                LOG.warn("Not cleaning {}: it was modified after it was read (modification time {} then, {} now); "
                        + "it is left in place", file, entry.timestamp(), s.get().modificationTime());
                return;
            }
        } catch (IOException e) {
            LOG.warn("Cannot check {} before cleaning it / skip", file, e);
            return;
        }
        if (archiveDir == null) {
            try {
                if (!storage.delete(file)) {
                    LOG.warn("Failed to remove {} / skip removing file.", file);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("Fail to remove {} / skip removing file.", file, e);
            }
            return;
        }
        Path target = archiveTarget(file);
        try {
            LOG.debug("Archiving completed file {} to {}", file, target);
            storage.move(file, target);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Fail to move {} to {} / skip moving file.", file, target, e);
        }
    }
}
