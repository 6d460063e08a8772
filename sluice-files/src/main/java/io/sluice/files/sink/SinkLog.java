package io.sluice.files.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.MetadataLogFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The file sink's manifest, {@code <output>/_spark_metadata/}, in Spark's format (FileStreamSinkLog and
 * CompactibleFileStreamLog): one file per batch, {@code v1} then one {@link SinkFileStatus} JSON per line, no
 * trailing newline; every {@code compactInterval}-th batch (ids 9, 19, ... for 10) is written as
 * {@code <id>.compact} holding the entries of the previous compact file and the batches since, minus entries older
 * than {@code retention}; after each batch, files of batches before the newest compaction that still keeps
 * {@code minBatchesToRetain} batches are deleted once older than {@code cleanupDelay}.
 *
 * <p>Used by one query's batch thread; the static readers are for anyone.
 */
final class SinkLog {
    private static final Logger LOG = LoggerFactory.getLogger(SinkLog.class);
    static final String METADATA_DIR = "_spark_metadata";
    static final String COMPACT_SUFFIX = ".compact";
    static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final SluiceClock clock;
    private final int compactInterval;
    private final long retentionMs;
    private final long cleanupDelayMs;
    private final int minBatchesToRetain;
    private long latest;

    SinkLog(Path outputDir, FileSinkOptions options, SluiceClock clock) throws IOException {
        this.dir = outputDir.resolve(METADATA_DIR);
        this.clock = clock;
        this.retentionMs = options.retentionMs;
        this.cleanupDelayMs = options.cleanupDelayMs;
        this.minBatchesToRetain = options.minBatchesToRetain;
        DurableFiles.createDirectories(dir);
        TreeMap<Long, Path> files = list(dir);
        this.compactInterval = compactInterval(files, options.compactInterval);
        this.latest = files.isEmpty() ? -1 : files.lastKey();
    }

    /** The newest committed batch id, or -1. */
    long latestBatchId() {
        return latest;
    }

    int compactInterval() {
        return compactInterval;
    }

    Path fileFor(long batchId) {
        return fileFor(dir, batchId, compactInterval);
    }

    /**
     * Records batch {@code batchId} (a compaction batch merges the batches since the previous one). The file is
     * created atomically and durably, never replacing an existing one.
     */
    void add(long batchId, List<SinkFileStatus> entries) throws IOException {
        long now = clock.millis();
        List<SinkFileStatus> content;
        if (isCompactionBatch(batchId, compactInterval)) {
            content = new ArrayList<>();
            for (long id = Math.max(0, batchId - compactInterval); id < batchId; id++) {
                Path f = fileFor(id);
                if (!Files.exists(f)) {
                    throw new IllegalStateException(f + " doesn't exist when compacting batch " + batchId
                            + " (compactInterval: " + compactInterval + ")");
                }
                for (SinkFileStatus s : read(f)) {
                    if (retain(s, now)) {
                        content.add(s);
                    }
                }
            }
            for (SinkFileStatus s : entries) {
                if (retain(s, now)) {
                    content.add(s);
                }
            }
        } else {
            content = entries;
        }
        createNew(fileFor(batchId), now, out -> write(content, out));
        latest = Math.max(latest, batchId);
        deleteExpired(batchId, now);
    }

    /**
     * {@link DurableFiles#createNew} stamped with the query clock's {@code mtimeMs}: the cleanup of expired manifest
     * files compares modification times with that clock, not the wall clock. The stamp is fsynced too, so it
     * survives a power loss like the content.
     *
     * @throws java.nio.file.FileAlreadyExistsException if {@code target} exists (it is left as it was)
     */
    static void createNew(Path target, long mtimeMs, DurableFiles.Writer content) throws IOException {
        DurableFiles.createNew(target, content);
        Files.setLastModifiedTime(target, FileTime.fromMillis(mtimeMs));
        try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    private boolean retain(SinkFileStatus s, long now) {
        return retentionMs == Long.MAX_VALUE || now - s.modificationTime() <= retentionMs;
    }

    private static void write(List<SinkFileStatus> entries, OutputStream out) throws IOException {
        StringBuilder sb = new StringBuilder(64 + entries.size() * 220);
        sb.append('v').append(VERSION);
        for (SinkFileStatus s : entries) {
            sb.append('\n').append(s.toJson());
        }
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Spark's deleteExpiredLog: keep the newest compaction at or before batch {@code current + 1 -
     * minBatchesToRetain} and everything after it; older batch files go once older than the cleanup delay (a
     * reader listing the folder may still be reading them).
     */
    private void deleteExpired(long current, long now) {
        if (compactInterval > current + 1 - minBatchesToRetain) {
            return;
        }
        long minBatchId = current + 1 - minBatchesToRetain;
        long minCompactionBatchId = minBatchId - (minBatchId % compactInterval) - 1;
        long expiredTime = now - cleanupDelayMs;
        try {
            for (Map.Entry<Long, Path> e : list(dir).entrySet()) {
                if (e.getKey() >= minCompactionBatchId) {
                    break;
                }
                Path f = e.getValue();
                if (Files.getLastModifiedTime(f).toMillis() <= expiredTime) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException e) {
            LOG.warn("Could not delete expired manifest files in {}: {}", dir, e.toString());
        }
    }

    // ---------------------------------------------------------------- reading, shared with FileSinkManifest

    /**
     * Batch files by id; names that are not {@code <n>} or {@code <n>.compact} exactly as Spark writes them
     * ({@link MetadataLogFiles}: temp files, {@code 0005}) are ignored.
     */
    static TreeMap<Long, Path> list(Path metadataDir) throws IOException {
        TreeMap<Long, Path> out = new TreeMap<>();
        if (!Files.isDirectory(metadataDir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(metadataDir)) {
            for (Path p : ds) {
                // Exactly as Spark writes them (Long.toString(n)): 0005 is not batch 5.
                String name = p.getFileName().toString();
                OptionalLong id = MetadataLogFiles.batchId(name);
                if (id.isEmpty()) {
                    id = MetadataLogFiles.compactId(name);
                }
                if (id.isPresent()) {
                    out.put(id.getAsLong(), p);
                }
            }
        }
        return out;
    }

    /** Spark's rule: the interval the existing compact files were written with, else the configured one. */
    static int compactInterval(TreeMap<Long, Path> files, int defaultInterval) {
        List<Long> compacts = new ArrayList<>();
        files.descendingMap().forEach((id, p) -> {
            if (p.getFileName().toString().endsWith(COMPACT_SUFFIX)) {
                compacts.add(id);
            }
        });
        if (compacts.size() >= 2) {
            return (int) (compacts.get(0) - compacts.get(1));
        }
        if (compacts.size() == 1) {
            return deriveCompactInterval(defaultInterval, compacts.get(0).intValue());
        }
        return defaultInterval;
    }

    static int deriveCompactInterval(int defaultInterval, int latestCompactBatchId) {
        int n = latestCompactBatchId + 1;
        if (n <= defaultInterval) {
            return n;
        }
        if (defaultInterval < n / 2) {
            for (int i = defaultInterval; i <= n / 2; i++) {
                if (n % i == 0) {
                    return i;
                }
            }
        }
        return n;
    }

    static boolean isCompactionBatch(long batchId, int compactInterval) {
        return (batchId + 1) % compactInterval == 0;
    }

    static Path fileFor(Path metadataDir, long batchId, int compactInterval) {
        return metadataDir.resolve(isCompactionBatch(batchId, compactInterval)
                ? batchId + COMPACT_SUFFIX : Long.toString(batchId));
    }

    /** The entries of one manifest file. */
    static List<SinkFileStatus> read(Path file) throws IOException {
        List<SinkFileStatus> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String version = r.readLine();
            if (version == null) {
                throw new IllegalStateException("Incomplete log file " + file);
            }
            checkVersion(version, file);
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isEmpty()) {
                    continue;
                }
                JsonNode n;
                try {
                    n = JSON.readTree(line);
                } catch (IOException e) {
                    throw new IllegalStateException("Malformed entry in manifest file " + file + ": " + line, e);
                }
                out.add(new SinkFileStatus(n.path("path").asText(), n.path("size").asLong(),
                        n.path("isDir").asBoolean(), n.path("modificationTime").asLong(),
                        n.path("blockReplication").asInt(), n.path("blockSize").asLong(),
                        n.path("action").asText(SinkFileStatus.ADD_ACTION)));
            }
        }
        return out;
    }

    private static void checkVersion(String text, Path file) {
        if (text.length() > 1 && text.charAt(0) == 'v') {
            try {
                int v = Integer.parseInt(text.substring(1));
                if (v > VERSION) {
                    throw new IllegalStateException("UnsupportedLogVersion: maximum supported log version is v"
                            + VERSION + ", but encountered v" + v + " in " + file + ". The log file was produced by"
                            + " a newer version of Spark and cannot be read by this version. Please upgrade.");
                }
                if (v > 0) {
                    return;
                }
            } catch (NumberFormatException e) {
                // malformed: below
            }
        }
        throw new IllegalStateException("Log file was malformed: failed to read correct log version from " + text
                + " (" + file + ").");
    }

    /**
     * Every file the manifest lists as live: the newest compact file (which holds everything before it) and the
     * batches after it, minus entries a later {@code delete} action removed. Reading from the newest compact file
     * needs no knowledge of the interval it was written with.
     */
    static List<SinkFileStatus> allFiles(Path outputDir) throws IOException {
        Path metadataDir = outputDir.resolve(METADATA_DIR);
        TreeMap<Long, Path> files = list(metadataDir);
        if (files.isEmpty()) {
            return List.of();
        }
        long start = files.firstKey();
        for (Map.Entry<Long, Path> e : files.descendingMap().entrySet()) {
            if (e.getValue().getFileName().toString().endsWith(COMPACT_SUFFIX)) {
                start = e.getKey();
                break;
            }
        }
        long latest = files.lastKey();
        Map<String, SinkFileStatus> live = new LinkedHashMap<>();
        for (long id = start; id <= latest; id++) {
            Path f = files.get(id);
            if (f == null) {
                throw new IllegalStateException("The manifest " + metadataDir + " has no file for batch " + id
                        + " (latest batch: " + latest + ")");
            }
            for (SinkFileStatus s : read(f)) {
                if (SinkFileStatus.DELETE_ACTION.equals(s.action())) {
                    live.remove(s.path());
                } else {
                    live.put(s.path(), s);
                }
            }
        }
        return List.copyOf(live.values());
    }
}
