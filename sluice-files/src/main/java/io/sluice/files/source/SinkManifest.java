package io.sluice.files.source;

import io.sluice.api.io.MetadataLogFiles;
import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
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
    /** Unexpected names already warned about: the manifest is listed every batch. */
    private final Set<String> warned = new HashSet<>();

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

    /** One manifest entry: a file added, or (with {@code deleted}) removed from the output. */
    record Change(FileStatus file, boolean deleted) {
    }

    /**
     * The entries of the sink's batches after the last read, in manifest order. The first call reads the newest
     * compact file and the batches after it; when a later compact file supersedes batch files not read yet, it is
     * read whole (it repeats older entries; the caller's seen-files state filters them).
     */
    List<Change> readNew() throws IOException {
        TreeMap<Long, String> files = new TreeMap<>();
        for (FileStatus s : storage.list(dir)) {
            String name = s.name();
            OptionalLong id = MetadataLogFiles.batchId(name);
            if (id.isEmpty()) {
                id = MetadataLogFiles.compactId(name);
            }
            if (id.isPresent()) {
                // A plain file wins over a compact of the same id (a sink never writes both).
                files.merge(id.getAsLong(), name, (a, b) -> a.endsWith(MetadataLogFiles.COMPACT_SUFFIX) ? b : a);
            } else if (MetadataLogFiles.isUnexpected(name) && warned.add(name)) {
                // Spark names batch files Long.toString(n): 0005 is not batch 5, whatever Long.parseLong says.
                LOG.warn("Ignoring {}: not a batch file of the sink manifest (batch files are named by batch id, "
                        + "as Spark writes them: 0, 1, 2..., 9.compact)", dir.resolve(name));
            }
        }
        long from = lastRead + 1;
        Long newestCompact = null;
        for (var e : files.tailMap(from, true).entrySet()) {
            if (e.getValue().endsWith(".compact")) {
                newestCompact = e.getKey();
            }
        }
        List<Change> changes = new ArrayList<>();
        long start = newestCompact != null ? newestCompact : from;
        long expected = start;
        for (var e : files.tailMap(start, true).entrySet()) {
            if (e.getKey() != expected) {
                LOG.warn("The sink manifest {} has no batch {} (next is {}): files of the missing batches are not "
                        + "read", dir, expected, e.getKey());
            }
            read(dir.resolve(e.getValue()), changes);
            lastRead = e.getKey();
            expected = e.getKey() + 1;
        }
        return changes;
    }

    private void read(Path file, List<Change> changes) throws IOException {
        try (InputStream in = storage.open(file)) {
            LogCodec.readLines(in, "Sink manifest file " + file, (line, n) -> {
                LogCodec.SinkEntry e = LogCodec.parseSinkEntry(line);
                if (e.isDir()) {
                    return;
                }
                changes.add(new Change(new FileStatus(storage.path(e.path()), false, e.size(), e.modificationTime()),
                        "delete".equals(e.action())));
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
