package io.sluice.core.checkpoint;

import io.sluice.core.CheckpointException;
import io.sluice.core.CheckpointLockedException;
import io.sluice.core.CorruptCheckpointException;
import io.sluice.api.io.DurableFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;

/**
 * A query's checkpoint folder ({@code checkpointLocation}), opened and locked for one run of the query.
 *
 * <pre>
 * &lt;dir&gt;/metadata       {"id":"&lt;uuid&gt;"}: the query id, written once
 * &lt;dir&gt;/offsets/N      what batch N reads ({@link OffsetLog}), written before it reads
 * &lt;dir&gt;/commits/N      batch N is done ({@link CommitLog})
 * &lt;dir&gt;/sources/&lt;i&gt;/  private to source i
 * &lt;dir&gt;/.lock         held while the query runs
 * </pre>
 *
 * <p>Callers may rely on: while a {@code Checkpoint} is open no other query (in any process on this machine, or
 * in this JVM) can open the same folder; every file written through it is atomic and durable when the call
 * returns; bad files throw {@link CheckpointException}s with operator-facing messages, and plain I/O failures
 * throw {@link UncheckedIOException}. Not thread-safe: meant for the query's batch thread. Close it when the run
 * ends; a crashed process's lock is released by the OS.
 */
public final class Checkpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Checkpoint.class);

    private final Path path;
    /** The folder as messages name it: the local path, or the URI on an object store. */
    private final String location;
    /** Null for a local checkpoint. */
    private final Storage storage;
    private final AutoCloseable lock;
    /** {@link #stateStorage()}: the local disk, or the object store with the lease checked before each write. */
    private final Storage stateStorage;
    private final String queryId;
    private final OffsetLog offsetLog;
    private final CommitLog commitLog;

    private Checkpoint(Path path, String location, Storage storage, AutoCloseable lock, String queryId,
                       OffsetLog offsetLog, CommitLog commitLog, Storage stateStorage) {
        this.path = path;
        this.location = location;
        this.storage = storage;
        this.lock = lock;
        this.stateStorage = stateStorage;
        this.queryId = queryId;
        this.offsetLog = offsetLog;
        this.commitLog = commitLog;
    }

    /**
     * Opens (creating it if needed) the checkpoint at {@code uri} on an object store. First checks that the store
     * honours conditional writes ({@link Storage#probeConditionalWrites}), refusing it otherwise; then takes the
     * checkpoint's lease ({@link CheckpointLease}, expiring {@value CheckpointLease#DEFAULT_TTL_MS} ms after its last
     * renewal) and reads or writes {@code metadata}. Every file is then written with
     * {@link Storage#createExclusive}, after checking the lease is still held.
     *
     * @param storage the store; the caller closes it after the checkpoint
     * @param clock   the engine's clock, for the lease's expiry and renewals
     * @throws CheckpointLockedException if another running query holds the lease
     * @throws IllegalStateException     if the store ignores conditional writes
     */
    public static Checkpoint open(Storage storage, String uri, SluiceClock clock) {
        return open(storage, uri, clock, CheckpointLease.DEFAULT_TTL_MS);
    }

    /** {@link #open(Storage, String, SluiceClock)} with a lease valid {@code leaseTtlMs} after each renewal. */
    public static Checkpoint open(Storage storage, String uri, SluiceClock clock, long leaseTtlMs) {
        Objects.requireNonNull(storage, "storage");
        String root = uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
        Optional<String> broken;
        try {
            broken = storage.probeConditionalWrites(root + "/");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot use checkpoint location " + root + ": " + e.getMessage(), e);
        }
        if (broken.isPresent()) {
            throw new IllegalStateException("Checkpoint location " + root + " is on a store that does not honour "
                    + "conditional writes: " + broken.get() + ". A checkpoint needs create-if-absent (PUT with "
                    + "If-None-Match: *) and compare-and-swap (PUT with If-Match) so that two queries can never both "
                    + "write a batch; AWS S3 supports both since 2024. Use a store that does, or a local "
                    + "checkpointLocation.");
        }
        CheckpointLease lease = CheckpointLease.acquire(storage, root, clock, leaseTtlMs);
        try {
            Folder folder = Folder.stored(storage, root, lease::ensureHeld);
            String id = QueryMetadata.readOrCreate(folder, QueryMetadata.FILE_NAME);
            Folder commits = folder.child("commits");
            CommitLog commitLog = new CommitLog(commits, true);
            OffsetLog offsetLog = new OffsetLog(folder.child("offsets"), commits, true);
            return new Checkpoint(Path.of(root), root, storage, lease, id, offsetLog, commitLog,
                    new LeaseGuardedStorage(storage, lease::ensureHeld));
        } catch (RuntimeException | Error e) {
            lease.close();
            throw e;
        }
    }

    /**
     * Opens (creating it if needed) the checkpoint at {@code dir}: takes the lock, then reads the query id from
     * {@code metadata}, writing a new random one on first use.
     *
     * @throws CheckpointLockedException  if another running query holds it
     * @throws CorruptCheckpointException if {@code metadata} is unreadable
     */
    public static Checkpoint open(Path dir) {
        Path path = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
        try {
            DurableFiles.createDirectories(path);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // The exception's message is the path alone: say what is in the way.
            throw new UncheckedIOException("Cannot create checkpoint location " + path + ": " + e.getFile()
                    + " is a file, not a folder; checkpointLocation must name a folder (or one to create)", e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create checkpoint location " + path + ": " + e.getMessage(), e);
        }
        CheckpointLock lock = CheckpointLock.acquire(path);
        try {
            String id = QueryMetadata.readOrCreate(path.resolve(QueryMetadata.FILE_NAME));
            Path commits = path.resolve("commits");
            CommitLog commitLog = new CommitLog(commits);
            OffsetLog offsetLog = new OffsetLog(path.resolve("offsets"), commits);
            return new Checkpoint(path, path.toString(), null, lock, id, offsetLog, commitLog, Storages.local());
        } catch (RuntimeException | Error e) {
            lock.close();
            throw e;
        }
    }

    /**
     * The checkpoint folder, absolute. For a checkpoint on an object store, only its URI made a relative path: use
     * {@link #location()} and {@link #storage()} there.
     */
    public Path path() {
        return path;
    }

    /** The checkpoint as messages name it: its absolute local path, or its URI on an object store. */
    public String location() {
        return location;
    }

    /** The object store the checkpoint is on; empty for a local checkpoint. */
    public Optional<Storage> storage() {
        return Optional.ofNullable(storage);
    }

    /**
     * The storage the operators' state ({@code state/} under {@link #location()}) is read and written with:
     * {@link Storages#local()} for a local checkpoint; on an object store, the checkpoint's storage with the lease
     * checked (and renewed when due) before every write and delete, as for the logs, so that a query that lost its
     * lease writes no state beside the query that took it over (its write fails with {@code This query lost the
     * lease ...}). Not to be closed: the checkpoint's opener closes the storage.
     */
    public Storage stateStorage() {
        return stateStorage;
    }

    /** The URI of source {@code i}'s private folder {@code sources/<i>} on the object store (nothing is created). */
    public String sourceLocation(int i) {
        if (i < 0) {
            throw new IllegalArgumentException("A source index must be >= 0, was " + i);
        }
        return storage == null ? sourceDirOf(path, i).toString() : location + "/sources/" + i;
    }

    /** The query id from {@code metadata}: a UUID string, the same on every run of this checkpoint. */
    public String queryId() {
        return queryId;
    }

    public OffsetLog offsetLog() {
        return offsetLog;
    }

    public CommitLog commitLog() {
        return commitLog;
    }

    /** Source {@code i}'s private folder {@code sources/<i>/}, created (durably) if needed. Local checkpoints only. */
    public Path sourceDir(int i) {
        if (storage != null) {
            throw new IllegalStateException("Checkpoint " + location + " is on an object store: a source has no "
                    + "local folder there (use sourceLocation)");
        }
        if (i < 0) {
            throw new IllegalArgumentException("A source index must be >= 0, was " + i);
        }
        Path dir = sourceDirOf(path, i);
        try {
            DurableFiles.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create source folder " + dir + ": " + e.getMessage(), e);
        }
        return dir;
    }

    /** {@code <root>/sources/<i>}: the one place that names a source's folder. */
    static Path sourceDirOf(Path root, int i) {
        return root.resolve("sources").resolve(Integer.toString(i));
    }

    /**
     * Where the query starts, following Spark's recovery (L = latest offsets id, C = latest commit id):
     * no offsets: {@link RecoveryPlan.Fresh}; C == L: {@link RecoveryPlan.Resume} at L+1 from offsets/L; no commit
     * or C &lt; L: {@link RecoveryPlan.Rerun} of batch L from offsets/(L-1) (none for L = 0) to offsets/L. Like Spark,
     * C &lt; L-1 re-runs only batch L (with a warning). Reads the files it needs, so their checks apply.
     *
     * @throws CorruptCheckpointException if a needed file is bad or missing (offsets/(L-1) purged or lost), or if
     *                                    a commit is newer than the newest offsets (a batch is committed only
     *                                    after its offsets are logged)
     */
    public RecoveryPlan recover() {
        OptionalLong latestOffsets = offsetLog.latestId();
        OptionalLong latestCommit = commitLog.latestId();
        if (latestOffsets.isEmpty()) {
            if (latestCommit.isPresent()) {
                throw inconsistent(commitLog.fileFor(latestCommit.getAsLong()), "commits/" + latestCommit.getAsLong()
                        + " exists but offsets/ is empty");
            }
            LOG.info("Checkpoint {} is empty: starting a new query at batch 0", path);
            return new RecoveryPlan.Fresh();
        }
        long l = latestOffsets.getAsLong();
        if (latestCommit.isPresent() && latestCommit.getAsLong() > l) {
            long c = latestCommit.getAsLong();
            throw inconsistent(commitLog.fileFor(c), "commits/" + c + " exists but the newest offsets file is offsets/"
                    + l + "; a batch is committed only after its offsets are logged");
        }
        OffsetSeq end = offsetLog.get(l).orElseThrow(() -> missing(l, "it is the newest batch"));
        if (latestCommit.isPresent()) {
            long c = latestCommit.getAsLong();
            CommitMetadata commit = commitLog.get(c).orElseThrow(() -> missingCommit(c));
            if (c == l) {
                LOG.info("Checkpoint {}: batch {} is committed, resuming at batch {}", location, l, l + 1);
                return new RecoveryPlan.Resume(l + 1, end, commit);
            }
            if (c < l - 1) {
                LOG.warn("Checkpoint {}: the newest commit is commits/{} but the newest offsets file is offsets/{}"
                        + " (not one behind); re-running batch {} only, as Spark does", path, c, l, l);
            }
        } else {
            LOG.info("Checkpoint {}: no commit yet", path);
        }
        OffsetSeq start = null;
        if (l > 0) {
            start = offsetLog.get(l - 1).orElseThrow(() -> missing(l - 1,
                    "batch " + l + " was not committed and must be re-run from the end of batch " + (l - 1)
                            + ", which this file records"));
        }
        LOG.info("Checkpoint {}: batch {} was logged but not committed, re-running it", location, l);
        return new RecoveryPlan.Rerun(l, start, end);
    }

    /**
     * Deletes old log entries, exactly as Spark's MicroBatchExecution: call it right after writing
     * {@code offsets/<currentBatchId>}; when {@code minBatchesToRetain < currentBatchId} it deletes offsets and
     * commits with id {@code < currentBatchId - minBatchesToRetain}. Kept afterwards: offsets
     * {@code currentBatchId - minBatchesToRetain .. currentBatchId} and the commits among those ids, so with the
     * minimum of 1, {@code offsets/<currentBatchId - 1>} (where a re-run of the current batch starts) survives.
     * Spark's default for {@code spark.sql.streaming.minBatchesToRetain} is 100.
     *
     * @throws IllegalArgumentException if {@code minBatchesToRetain < 1}
     */
    public void purge(long currentBatchId, int minBatchesToRetain) {
        if (minBatchesToRetain < 1) {
            throw new IllegalArgumentException("minBatchesToRetain must be at least 1, was " + minBatchesToRetain);
        }
        if (minBatchesToRetain < currentBatchId) {
            long threshold = currentBatchId - minBatchesToRetain;
            offsetLog.purge(threshold);
            commitLog.purge(threshold);
        }
    }

    /** Releases the lock. Idempotent. The checkpoint must not be written after this. */
    @Override
    public void close() {
        try {
            lock.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e); // neither lock throws checked exceptions
        }
    }

    private CorruptCheckpointException missing(long batchId, String why) {
        String file = offsetLog.fileFor(batchId);
        return new CorruptCheckpointException(file, "Checkpoint file " + file + " is missing (" + why
                + "). The query cannot start without risking data loss. Restore the checkpoint from a backup or"
                + " start over with a new checkpoint location.", null);
    }

    private CorruptCheckpointException missingCommit(long batchId) {
        String file = commitLog.fileFor(batchId);
        return new CorruptCheckpointException(file, "Checkpoint file " + file + " is missing (it is the newest"
                + " commit and vanished while being read). Is another process changing the checkpoint?", null);
    }

    private CorruptCheckpointException inconsistent(String file, String why) {
        return new CorruptCheckpointException(file, "Checkpoint " + location + " is inconsistent (" + why
                + "). The query cannot start without risking data loss. Restore the checkpoint from a backup or"
                + " start over with a new checkpoint location.", null);
    }
}
