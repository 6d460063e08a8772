package io.sluice.files.source;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The hot set of files already taken, Spark's {@code SeenFilesMap} with the same rules: a file is new when its
 * modification time is at or after the watermark ({@code lastPurgeTimestamp}) and it has not been seen; after a
 * batch is added the watermark becomes (newest modification time seen - maxFileAge) and older entries are
 * forgotten.
 *
 * <p>Held in two parts: the snapshot ({@link HotSnapshot}, memory-mapped, outside the heap) and the entries
 * added since ({@link HashIndex}). Forgetting is lazy: an entry older than the watermark counts as absent at once
 * and is dropped from disk at the next snapshot. Not thread-safe.
 */
final class SeenFiles {
    /** A recorded file: its modification time and size (-1 when the log did not say) when it was taken. */
    record Seen(long timestamp, long size) {
    }

    private final long maxAgeMs;
    private final boolean fileNameOnly;
    private HotSnapshot snapshot;
    private final HashIndex recent = new HashIndex();
    private long maxTimestamp = Long.MIN_VALUE;
    private long watermark = Long.MIN_VALUE;

    /** @param maxAgeMs the effective maxFileAge; {@code Long.MAX_VALUE} never forgets */
    SeenFiles(long maxAgeMs, boolean fileNameOnly) {
        if (maxAgeMs < 0) {
            throw new IllegalArgumentException("maxFileAge must not be negative: " + maxAgeMs);
        }
        this.maxAgeMs = maxAgeMs;
        this.fileNameOnly = fileNameOnly;
    }

    void useSnapshot(HotSnapshot s) {
        snapshot = s;
        maxTimestamp = Math.max(maxTimestamp, s.maxTimestamp);
    }

    HotSnapshot snapshot() {
        return snapshot;
    }

    boolean fileNameOnly() {
        return fileNameOnly;
    }

    long maxAgeMs() {
        return maxAgeMs;
    }

    /** The recorded entry, or null when the file was never seen or has been forgotten. */
    Seen lookup(PathHash k) {
        int slot = recent.find(k.h1(), k.h2());
        if (slot >= 0) {
            long ts = recent.timestampAt(slot);
            return ts < watermark ? null : new Seen(ts, recent.sizeAt(slot));
        }
        if (snapshot != null) {
            long i = snapshot.find(k.h1(), k.h2());
            if (i >= 0) {
                long ts = snapshot.timestamp(i);
                return ts < watermark ? null : new Seen(ts, snapshot.size(i));
            }
        }
        return null;
    }

    boolean isNew(PathHash k, long timestamp) {
        return timestamp >= watermark && lookup(k) == null;
    }

    void add(PathHash k, long timestamp, long size) {
        recent.put(k.h1(), k.h2(), timestamp, size);
        if (timestamp > maxTimestamp) {
            maxTimestamp = timestamp;
        }
    }

    /** Spark's purge: the watermark follows the newest file seen. */
    void purge() {
        if (maxAgeMs != Long.MAX_VALUE && maxTimestamp != Long.MIN_VALUE) {
            watermark = maxTimestamp - maxAgeMs;
        }
    }

    long watermark() {
        return watermark;
    }

    long maxTimestamp() {
        return maxTimestamp;
    }

    int recentSize() {
        return recent.size();
    }

    long snapshotSize() {
        return snapshot == null ? 0 : snapshot.count;
    }

    /**
     * Writes the live entries (snapshot and recent merged, entries older than the watermark dropped) as the
     * snapshot of log offset {@code logOffset}, then serves lookups from it. Returns the new snapshot.
     */
    HotSnapshot writeSnapshot(Path file, long logOffset) throws IOException {
        long[][] r = recent.sorted();
        HotSnapshot old = snapshot;
        long floor = watermark;
        HotSnapshot.Records merged = new HotSnapshot.Records() {
            long i;
            int j;
            long c1;
            long c2;
            long cts;
            long csize;

            @Override
            public boolean next() {
                while (true) {
                    boolean hasOld = old != null && i < old.count;
                    boolean hasNew = j < r[0].length;
                    if (!hasOld && !hasNew) {
                        return false;
                    }
                    int cmp;
                    if (!hasOld) {
                        cmp = 1;
                    } else if (!hasNew) {
                        cmp = -1;
                    } else {
                        cmp = PathHash.compare(old.h1(i), old.h2(i), r[0][j], r[1][j]);
                    }
                    if (cmp < 0) {
                        c1 = old.h1(i);
                        c2 = old.h2(i);
                        cts = old.timestamp(i);
                        csize = old.size(i);
                        i++;
                    } else {
                        if (cmp == 0) {
                            i++; // the newer entry replaces the snapshot's
                        }
                        c1 = r[0][j];
                        c2 = r[1][j];
                        cts = r[2][j];
                        csize = r[3][j];
                        j++;
                    }
                    if (cts >= floor) {
                        return true;
                    }
                }
            }

            @Override
            public long h1() {
                return c1;
            }

            @Override
            public long h2() {
                return c2;
            }

            @Override
            public long timestamp() {
                return cts;
            }

            @Override
            public long size() {
                return csize;
            }
        };
        HotSnapshot.write(file, logOffset, maxTimestamp, watermark, maxAgeMs, fileNameOnly, merged);
        HotSnapshot s = HotSnapshot.open(file);
        snapshot = s;
        recent.clear();
        return s;
    }
}
