package io.sluice.files.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.MetadataLogFiles;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
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
    static final String METADATA_DIR = "_spark_metadata";
    static final String COMPACT_SUFFIX = ".compact";
    static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final SluiceClock clock;
    private final int compactInterval;
    private final long retentionMs;
    private final ManifestCleanup cleanup;
    private long latest;

    SinkLog(Path outputDir, FileSinkOptions options, SluiceClock clock) throws IOException {
        this.dir = outputDir.resolve(METADATA_DIR);
        this.clock = clock;
        this.retentionMs = options.retentionMs;
        DurableFiles.createDirectories(dir);
        TreeMap<Long, Path> files = list(dir);
        this.compactInterval = compactInterval(files, options.compactInterval);
        this.latest = files.isEmpty() ? -1 : files.lastKey();
        this.cleanup = new ManifestCleanup(dir, files, compactInterval, options.minBatchesToRetain,
                options.cleanupDelayMs);
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
        Path target = fileFor(batchId);
        if (isCompactionBatch(batchId, compactInterval)) {
            List<Path> inputs = compactionInputs(batchId);
            createNew(target, now, out -> writeCompaction(inputs, entries, now, out));
        } else {
            createNew(target, now, out -> write(entries, out));
        }
        latest = Math.max(latest, batchId);
        cleanup.written(batchId, target, now);
        cleanup.deleteExpired(batchId, now);
    }

    /**
     * What compaction batch {@code batchId} merges: the previous compact file (which holds everything before it)
     * and the batch files since, never the whole history; each must exist.
     */
    private List<Path> compactionInputs(long batchId) {
        List<Path> inputs = new ArrayList<>(compactInterval);
        for (long id = Math.max(0, batchId - compactInterval); id < batchId; id++) {
            Path f = fileFor(id);
            if (!Files.exists(f)) {
                throw new IllegalStateException(f + " doesn't exist when compacting batch " + batchId
                        + " (compactInterval: " + compactInterval + ")");
            }
            inputs.add(f);
        }
        return inputs;
    }

    /**
     * Writes a compact file: the entry lines of {@code inputs} as they are (no JSON tree and back: the cost is a
     * copy of the previous compact file), minus those {@code retention} drops, then this batch's entries. Only
     * with a retention is an entry's {@code modificationTime} read.
     */
    private void writeCompaction(List<Path> inputs, List<SinkFileStatus> entries, long now, OutputStream out)
            throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        w.write("v" + VERSION);
        for (Path f : inputs) {
            try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                String version = r.readLine();
                if (version == null) {
                    throw new IllegalStateException("Incomplete log file " + f);
                }
                checkVersion(version, f);
                String line;
                while ((line = r.readLine()) != null) {
                    if (!line.isEmpty() && (retentionMs == Long.MAX_VALUE || retain(modificationTime(line, f), now))) {
                        w.write('\n');
                        w.write(line);
                    }
                }
            }
        }
        for (SinkFileStatus s : entries) {
            if (retain(s.modificationTime(), now)) {
                w.write('\n');
                w.write(s.toJson());
            }
        }
        w.flush();
    }

    /**
     * The {@code modificationTime} of one entry line: found by its text when the line is as Spark and Sluice write
     * it (compact JSON; a JSON string cannot hold the unescaped quotes of the field name), else parsed.
     */
    static long modificationTime(String line, Path file) {
        String field = "\"modificationTime\":";
        int at = line.indexOf(field);
        if (at >= 0) {
            int start = at + field.length();
            int end = start;
            while (end < line.length() && Character.isDigit(line.charAt(end))) {
                end++;
            }
            if (end > start && end - start < 19) {
                return Long.parseLong(line, start, end, 10);
            }
        }
        try {
            return JSON.readTree(line).path("modificationTime").asLong();
        } catch (IOException e) {
            throw new IllegalStateException("Malformed entry in manifest file " + file + ": " + line, e);
        }
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

    /** Spark's retention: an entry stays while its modification time is at most {@code retention} old. */
    private boolean retain(long modificationTime, long now) {
        return retentionMs == Long.MAX_VALUE || now - modificationTime <= retentionMs;
    }

    private static void write(List<SinkFileStatus> entries, OutputStream out) throws IOException {
        StringBuilder sb = new StringBuilder(64 + entries.size() * 220);
        sb.append('v').append(VERSION);
        for (SinkFileStatus s : entries) {
            sb.append('\n').append(s.toJson());
        }
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
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
