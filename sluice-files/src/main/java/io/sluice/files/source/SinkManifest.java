package io.sluice.files.source;

import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads the manifest a Spark or Sluice file sink keeps in {@code <output>/_spark_metadata}: {@code N} and
 * {@code N.compact} files, each {@code v1} then one JSON per file with {@code "action":"add"} or
 * {@code "delete"}. A source over a sink's output reads the files the manifest names, never the listing, so
 * files of a batch the sink did not commit stay invisible. Reads incrementally: each call returns what the
 * batches written since the previous call add.
 */
final class SinkManifest {
    static final String DIR = "_spark_metadata";
    private static final Logger LOG = LoggerFactory.getLogger(SinkManifest.class);
    private final Path dir;
    private final FileStorage storage;
    private long lastRead = -1;

    SinkManifest(Path outputDir, FileStorage storage) {
        this.dir = outputDir.resolve(DIR);
        this.storage = storage;
    }

    /** Whether {@code path} is a folder with a sink manifest in it (Spark's {@code FileStreamSink.hasMetadata}). */
    static boolean present(FileStorage storage, Path path) {
        try {
            Optional<FileStatus> s = storage.status(path);
            if (s.isEmpty() || !s.get().directory()) {
                return false;
            }
            Optional<FileStatus> m = storage.status(path.resolve(DIR));
            return m.isPresent() && m.get().directory();
        } catch (IOException e) {
            LOG.warn("Assume no metadata directory. Error while looking for metadata directory in the path: {}.",
                    path, e);
            return false;
        }
    }

    /** The result of one read: files added, and paths deleted, by the batches read. */
    record Delta(List<FileStatus> added, List<Path> deleted) {
    }

    /**
     * The files the sink's batches after the last read added (and deleted). The first call reads the newest
     * compact file and the batches after it; when a later compact file supersedes batch files not read yet, it is
     * read whole (it repeats older entries; the caller's seen-files state filters them).
     */
    Delta readNew() throws IOException {
        TreeMap<Long, String> files = new TreeMap<>();
        for (FileStatus s : storage.list(dir)) {
            String name = s.name();
            String digits = name.endsWith(".compact") ? name.substring(0, name.length() - 8) : name;
            if (!digits.isEmpty() && digits.chars().allMatch(Character::isDigit)) {
                long id = Long.parseLong(digits);
                // A plain file wins over a compact of the same id (a sink never writes both).
                files.merge(id, name, (a, b) -> a.endsWith(".compact") ? b : a);
            }
        }
        long from = lastRead + 1;
        Long newestCompact = null;
        for (var e : files.tailMap(from, true).entrySet()) {
            if (e.getValue().endsWith(".compact")) {
                newestCompact = e.getKey();
            }
        }
        List<FileStatus> added = new ArrayList<>();
        List<Path> deleted = new ArrayList<>();
        long start = newestCompact != null ? newestCompact : from;
        long expected = start;
        for (var e : files.tailMap(start, true).entrySet()) {
            if (e.getKey() != expected) {
                LOG.warn("The sink manifest {} has no batch {} (next is {}): files of the missing batches are not "
                        + "read", dir, expected, e.getKey());
            }
            read(dir.resolve(e.getValue()), added, deleted);
            lastRead = e.getKey();
            expected = e.getKey() + 1;
        }
        return new Delta(added, deleted);
    }

    private void read(Path file, List<FileStatus> added, List<Path> deleted) throws IOException {
        try (InputStream in = storage.open(file)) {
            LogCodec.readLines(in, "Sink manifest file " + file, (line, n) -> {
                LogCodec.SinkEntry e = LogCodec.parseSinkEntry(line);
                if (e.isDir()) {
                    return;
                }
                Path p = storage.path(e.path());
                if ("delete".equals(e.action())) {
                    deleted.add(p);
                } else {
                    added.add(new FileStatus(p, false, e.size(), e.modificationTime()));
                }
            });
        } catch (java.nio.file.NoSuchFileException e) {
            // Removed by the sink's own clean-up after a compaction: the compact file holds its entries.
            LOG.debug("Sink manifest file {} vanished while reading", file);
        }
    }

    Path dir() {
        return dir;
    }
}
