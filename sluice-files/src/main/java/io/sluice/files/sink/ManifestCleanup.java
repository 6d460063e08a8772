package io.sluice.files.sink;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

/**
 * Spark's {@code deleteExpiredLog} for the sink's manifest: after batch {@code N}, files of batches before the
 * compaction {@code C} that lists batch {@code N + 1 - minBatchesToRetain} on are deleted once their modification
 * time (the query clock's, stamped by {@link SinkLog#createNew}) is {@code cleanupDelay} old.
 *
 * <p>Unlike Spark, which lists the folder and reads every old file's modification time after each batch (a cost
 * that grows with the files kept for {@code cleanupDelay}), the files are kept in memory in batch order, listed
 * once at start: each batch looks at the oldest ones only and stops at the first that is too recent, since one
 * query writes its files in batch order on one clock. A file whose time runs ahead of the ones after it (a clock
 * set back) only delays the deletion of the later ones until it expires.
 */
final class ManifestCleanup {
    private static final Logger LOG = LoggerFactory.getLogger(ManifestCleanup.class);

    private record Kept(long batchId, Path file, long modifiedMs) {
    }

    private final Path dir;
    private final int compactInterval;
    private final int minBatchesToRetain;
    private final long cleanupDelayMs;
    private final ArrayDeque<Kept> kept = new ArrayDeque<>();

    /** {@code existing}: the manifest's files at start, by batch id ({@link SinkLog#list}). */
    ManifestCleanup(Path dir, TreeMap<Long, Path> existing, int compactInterval, int minBatchesToRetain,
                    long cleanupDelayMs) {
        this.dir = dir;
        this.compactInterval = compactInterval;
        this.minBatchesToRetain = minBatchesToRetain;
        this.cleanupDelayMs = cleanupDelayMs;
        for (Map.Entry<Long, Path> e : existing.entrySet()) {
            try {
                kept.addLast(new Kept(e.getKey(), e.getValue(), Files.getLastModifiedTime(e.getValue()).toMillis()));
            } catch (NoSuchFileException gone) {
                // deleted since the listing (by a reader's clean-up of an older run): nothing to do
            } catch (IOException ex) {
                LOG.warn("Cannot read the modification time of {}: it is not deleted by this run: {}", e.getValue(),
                        ex.toString());
            }
        }
    }

    /** Records the file batch {@code batchId} just wrote, stamped {@code modifiedMs}. */
    void written(long batchId, Path file, long modifiedMs) {
        if (kept.isEmpty() || kept.peekLast().batchId() < batchId) {
            kept.addLast(new Kept(batchId, file, modifiedMs));
        }
    }

    /** The oldest batch id whose file must stay after batch {@code current}, or -1 when every file stays. */
    long firstKept(long current) {
        if (compactInterval > current + 1 - minBatchesToRetain) {
            return -1;
        }
        long minBatchId = current + 1 - minBatchesToRetain;
        return minBatchId - (minBatchId % compactInterval) - 1;
    }

    /** After batch {@code current} at {@code now}: deletes the expired files of batches before {@link #firstKept}. */
    void deleteExpired(long current, long now) {
        long firstKept = firstKept(current);
        long expiredTime = now - cleanupDelayMs;
        while (!kept.isEmpty() && kept.peekFirst().batchId() < firstKept) {
            Kept k = kept.peekFirst();
            if (k.modifiedMs() > expiredTime) {
                return;
            }
            try {
                Files.deleteIfExists(k.file());
            } catch (IOException e) {
                LOG.warn("Could not delete expired manifest file {} in {}: {}", k.file().getFileName(), dir,
                        e.toString());
                return;
            }
            kept.removeFirst();
        }
    }
}
