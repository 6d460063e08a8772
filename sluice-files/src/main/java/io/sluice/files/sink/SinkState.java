package io.sluice.files.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.sink.BatchInfo;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the file sink records beside Spark's manifest, in the hidden folder {@code <output>/.sluice-sink/} (Spark
 * and every reader of the manifest ignore it; it moves with the output folder when that is copied or restored):
 * <ul>
 *   <li>{@code owner}: the query id that writes the folder. A query with another id is refused at start, since
 *       two queries share the manifest's batch numbering and one's batches would be skipped;</li>
 *   <li>{@code lock}: locked while a sink writes the folder, so a folder in use is never taken over;</li>
 *   <li>{@code batches/<N>}: the identity of batch N ({@link BatchInfo}: query id, digest, end offsets), written
 *       before {@code _spark_metadata/N}, so a batch id that comes back with another range (a checkpoint restored
 *       from an older copy) fails instead of being skipped. The last {@code keep} batches are kept.</li>
 * </ul>
 * Used by one sink on its query's thread.
 */
final class SinkState implements AutoCloseable {
    static final String DIR = ".sluice-sink";
    static final String OWNER = "owner";
    private static final String LOCK = "lock";
    private static final String BATCHES = "batches";
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The sinks of this JVM holding a folder's lock, by folder: a file lock cannot be taken twice in one JVM, and a
     * sink of the same query left open (a run that stopped without closing it) hands its lock on.
     */
    private static final Map<Path, SinkState> HELD = new HashMap<>();

    private final Path outputDir;
    private final Path dir;
    private final Path batches;
    private final int keep;
    private final Path key;
    private String queryId;
    private FileChannel lockChannel;
    private FileLock lock;

    /** What {@code batches/<N>} holds. */
    record Recorded(String queryId, String digest, long plannedAtMs, List<String> endOffsets) {
        /** The recorded batch, as {@link BatchInfo#range()} shows one. */
        String range() {
            return BatchInfo.describe(plannedAtMs, endOffsets);
        }
    }

    SinkState(Path outputDir, int keep) {
        this.outputDir = outputDir;
        this.dir = outputDir.resolve(DIR);
        this.batches = dir.resolve(BATCHES);
        this.keep = Math.max(1, keep);
        this.key = dir.toAbsolutePath().normalize();
    }

    /** The folder's recorded owner, or null when none was recorded (a new folder, Spark's, or an older Sluice's). */
    static String owner(Path outputDir) throws IOException {
        Path f = outputDir.resolve(DIR).resolve(OWNER);
        return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8).trim() : null;
    }

    /**
     * Takes the folder for {@code queryId}: locks it, and records the owner when none is recorded, or when the
     * recorded one left nothing to clash with (no batch in the manifest).
     *
     * @throws IllegalStateException naming both queries and the way out, when another query owns the folder or a
     *         running sink writes it
     */
    void claim(String queryId, Path checkpoint, boolean manifestHasBatches) throws IOException {
        DurableFiles.createDirectories(dir);
        String owner = owner(outputDir);
        String other = owner == null || owner.equals(queryId) ? "another query" : "query " + owner;
        if (!tryLock(queryId)) {
            throw new IllegalStateException("The file sink's output folder " + outputDir + " is being written by "
                    + other + " (" + dir.resolve(LOCK) + " is locked), and this query's checkpoint " + checkpoint
                    + " has query id " + queryId + ". Two queries must not write one folder: they share the "
                    + "manifest's batch numbers, so one's batches would be skipped and their rows lost. Give this "
                    + "query its own path, or stop the other query first.");
        }
        if (owner != null && !owner.equals(queryId) && manifestHasBatches) {
            close();
            throw new IllegalStateException("The file sink's output folder " + outputDir + " belongs to " + other
                    + " (" + dir.resolve(OWNER) + "), but this query's checkpoint " + checkpoint + " has query id "
                    + queryId + ". Two queries must not write one folder: they share the manifest's batch numbers, "
                    + "so one's batches would be skipped and their rows lost. Give this query its own path, or, to "
                    + "continue " + other + ", start it with its own checkpoint. If " + other + " is gone and its "
                    + "output is not needed, delete " + outputDir + " to start over.");
        }
        if (!queryId.equals(owner)) {
            DurableFiles.replace(dir.resolve(OWNER), (queryId + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Locks {@code lock}; false when another query's sink (in this JVM or another process) holds it. A sink of
     * the same query in this JVM that was never closed hands the lock over.
     */
    private boolean tryLock(String queryId) throws IOException {
        synchronized (HELD) {
            SinkState held = HELD.get(key);
            if (held != null) {
                if (!held.queryId.equals(queryId)) {
                    return false;
                }
                lockChannel = held.lockChannel;
                lock = held.lock;
                held.lockChannel = null;
                held.lock = null;
            } else {
                FileChannel ch = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock l;
                try {
                    l = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    l = null;
                }
                if (l == null) {
                    ch.close();
                    return false;
                }
                lockChannel = ch;
                lock = l;
            }
            this.queryId = queryId;
            HELD.put(key, this);
            return true;
        }
    }

    /** The recorded identity of a batch, or null when none is recorded. */
    Recorded recorded(long batchId) throws IOException {
        Path f = batches.resolve(Long.toString(batchId));
        if (!Files.exists(f)) {
            return null;
        }
        JsonNode n;
        try {
            n = JSON.readTree(f.toFile());
        } catch (IOException e) {
            throw new IllegalStateException("The file sink's batch record " + f + " is damaged (" + e.getMessage()
                    + "). Delete it: batch " + batchId + " is then trusted as written, as a sink without records is",
                    e);
        }
        List<String> offsets = new ArrayList<>();
        n.path("endOffsets").forEach(o -> offsets.add(o.asText()));
        return new Recorded(n.path("queryId").asText(), n.path("digest").asText(), n.path("plannedAtMs").asLong(-1),
                offsets);
    }

    /** True when any batch identity is recorded (the folder was written by a sink that records them). */
    boolean hasRecords() throws IOException {
        return !list().isEmpty();
    }

    /** Records batch {@code info}'s identity (replacing an attempt's that crashed) and drops the oldest ones. */
    void record(BatchInfo info) throws IOException {
        if (!info.known()) {
            return;
        }
        DurableFiles.createDirectories(batches);
        ObjectNode n = JSON.createObjectNode();
        n.put("queryId", info.queryId());
        n.put("batchId", info.batchId());
        n.put("plannedAtMs", info.plannedAtMs());
        n.put("digest", info.digest());
        ArrayNode offsets = n.putArray("endOffsets");
        info.endOffsets().forEach(offsets::add);
        DurableFiles.replace(batches.resolve(Long.toString(info.batchId())), JSON.writeValueAsBytes(n));
        for (long id : list().headMap(info.batchId() + 1 - keep).keySet()) {
            Files.deleteIfExists(batches.resolve(Long.toString(id)));
        }
    }

    /** Recorded batch ids, ascending. */
    private TreeMap<Long, Path> list() throws IOException {
        TreeMap<Long, Path> out = new TreeMap<>();
        if (!Files.isDirectory(batches)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(batches)) {
            for (Path p : ds) {
                try {
                    out.put(Long.parseLong(p.getFileName().toString()), p);
                } catch (NumberFormatException e) {
                    // a temp file of DurableFiles
                }
            }
        }
        return out;
    }

    /** Releases the lock, unless this sink handed it to a successor. Idempotent. */
    @Override
    public void close() {
        synchronized (HELD) {
            HELD.remove(key, this);
            try {
                if (lockChannel != null) {
                    lockChannel.close(); // releases the lock
                }
            } catch (IOException e) {
                // Nothing else to do: a closed channel holds no lock.
            } finally {
                lock = null;
                lockChannel = null;
            }
        }
    }
}
