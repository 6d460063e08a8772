package io.sluice.core.checkpoint;

import io.sluice.api.SluiceClock;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import io.sluice.core.CheckpointLockedException;
import io.sluice.core.json.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The exclusive lock of a checkpoint on an object store, where there is no file lock: a lease object
 * {@code <checkpoint>/.lease} naming its owner and when it expires. Taken with {@link Storage#createExclusive}
 * (first writer wins), renewed with {@link Storage#replaceIfVersion} on its version tag (S3: {@code If-Match} on
 * the ETag) so that an owner that lost it finds out, and taken over by another query only once it has expired, so
 * a crashed owner (kill -9, lost machine) blocks the next run for at most {@link #DEFAULT_TTL_MS}. Released at close
 * by a conditional write of an already-expired lease, so the next run starts at once.
 *
 * <p>A renewer thread renews it every third of the time to live, on the engine's clock ({@link SluiceClock}, so a
 * test's manual clock drives it). Before each write to the checkpoint, {@link #ensureHeld} renews it when it is due
 * and fails the write with a clear message if it was lost (another query took it over after it expired, for
 * example after this process was paused for longer than the lease): the other query's entries are never
 * overwritten anyway, as every checkpoint file is created exclusively.
 */
final class CheckpointLease implements AutoCloseable {

    static final String FILE_NAME = ".lease";
    /** How long a lease is valid after its last renewal. */
    static final long DEFAULT_TTL_MS = 60_000;

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointLease.class);

    private final Storage storage;
    private final String checkpoint;
    private final String uri;
    private final SluiceClock clock;
    private final long ttlMs;
    private final String owner = UUID.randomUUID().toString();
    private final Thread renewer;
    private String tag;
    private long expiresMs;
    private String lost;
    private boolean closed;

    private CheckpointLease(Storage storage, String checkpoint, SluiceClock clock, long ttlMs) {
        this.storage = storage;
        this.checkpoint = checkpoint;
        this.uri = Storages.child(checkpoint, FILE_NAME);
        this.clock = clock;
        this.ttlMs = ttlMs;
        this.renewer = new Thread(this::renewLoop, "sluice-checkpoint-lease " + checkpoint);
        this.renewer.setDaemon(true);
    }

    /**
     * Takes the lease of the checkpoint {@code checkpoint} (a URI on {@code storage}).
     *
     * @throws CheckpointLockedException if another query holds a lease that has not expired
     */
    static CheckpointLease acquire(Storage storage, String checkpoint, SluiceClock clock, long ttlMs) {
        CheckpointLease lease = new CheckpointLease(storage, checkpoint, clock, ttlMs);
        try {
            lease.take();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot take the lease " + lease.uri + " of checkpoint " + checkpoint
                    + ": " + e.getMessage(), e);
        }
        lease.renewer.start();
        return lease;
    }

    private byte[] content(long expires) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown";
        }
        String h = host;
        return FileFormat.json(g -> {
            g.writeStartObject();
            g.writeStringField("owner", owner);
            g.writeNumberField("pid", ProcessHandle.current().pid());
            g.writeStringField("host", h);
            g.writeStringField("expires", Instant.ofEpochMilli(expires).toString());
            g.writeNumberField("expiresMs", expires);
            g.writeEndObject();
        }).getBytes(StandardCharsets.UTF_8);
    }

    private void take() throws IOException {
        for (int attempt = 0; attempt < 3; attempt++) {
            long now = clock.millis();
            long expires = now + ttlMs;
            if (storage.createExclusive(uri, content(expires))) {
                Optional<StoredObject> st = storage.status(uri);
                if (st.isEmpty()) {
                    continue;
                }
                tag = st.get().versionTag();
                expiresMs = expires;
                return;
            }
            Optional<StoredObject> st = storage.status(uri);
            if (st.isEmpty()) {
                continue; // deleted by hand meanwhile: try again
            }
            Held held;
            try {
                held = Held.parse(storage.open(uri, st.get().versionTag()).readAllBytes(), st.get(), ttlMs);
            } catch (NoSuchFileException | io.sluice.api.io.VersionChangedException e) {
                continue; // changed while read: look again
            }
            if (now < held.expiresMs) {
                throw locked(held);
            }
            Optional<String> next = storage.replaceIfVersion(uri, content(expires), st.get().versionTag());
            if (next.isEmpty()) {
                continue; // another query took it over first: look again (it now holds a live lease)
            }
            if (held.expiresMs > 0) {
                LOG.warn("Checkpoint {}: took over the lease of owner {} (pid {} on {}), which expired at {} without"
                        + " being released: that query crashed or lost its store", checkpoint, held.owner, held.pid,
                        held.host, Instant.ofEpochMilli(held.expiresMs));
            }
            tag = next.get();
            expiresMs = expires;
            return;
        }
        throw new CheckpointLockedException(checkpoint, "Checkpoint " + checkpoint + " is in use by another running"
                + " query (its lease " + uri + " changed three times while this query tried to take it). Stop that"
                + " query first, or use a different checkpointLocation.");
    }

    private CheckpointLockedException locked(Held held) {
        return new CheckpointLockedException(checkpoint, "Checkpoint " + checkpoint + " is in use by another "
                + "running query (lease " + uri + " held by " + held.describe() + " until "
                + Instant.ofEpochMilli(held.expiresMs) + "). Stop that query first, or use a different "
                + "checkpointLocation; if that query crashed, its lease expires at that time and a new run can "
                + "start then.");
    }

    /**
     * Renews the lease when a third of its time to live has passed; fails if it was lost. Called before every write
     * to the checkpoint.
     *
     * @throws IllegalStateException if the lease was lost or has expired
     */
    synchronized void ensureHeld() {
        if (closed) {
            throw new IllegalStateException("The lease " + uri + " of checkpoint " + checkpoint + " was released: "
                    + "the checkpoint must not be written after it is closed");
        }
        if (lost == null && clock.millis() >= expiresMs - 2 * ttlMs / 3) {
            renew();
        }
        if (lost == null && clock.millis() >= expiresMs) {
            lost = "it expired at " + Instant.ofEpochMilli(expiresMs) + " before it could be renewed";
        }
        if (lost != null) {
            throw new IllegalStateException("This query lost the lease " + uri + " of checkpoint " + checkpoint
                    + " (" + lost + "), so it stops rather than write beside another query. Restart it when the "
                    + "other query has stopped.");
        }
    }

    /** Renews now; records (does not throw) a loss. */
    synchronized void renew() {
        if (closed || lost != null) {
            return;
        }
        long expires = clock.millis() + ttlMs;
        try {
            Optional<String> next = storage.replaceIfVersion(uri, content(expires), tag);
            if (next.isEmpty()) {
                lost = "another query replaced it, after it expired at " + Instant.ofEpochMilli(expiresMs);
                LOG.error("Checkpoint {}: {}", checkpoint, lost);
                return;
            }
            tag = next.get();
            expiresMs = expires;
        } catch (IOException | RuntimeException e) {
            // Transient: the next renewal (or ensureHeld) tries again while the lease is still valid.
            LOG.warn("Checkpoint {}: cannot renew the lease {} (valid until {}): {}", checkpoint, uri,
                    Instant.ofEpochMilli(expiresMs), e.toString());
        }
    }

    private void renewLoop() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                long due;
                synchronized (this) {
                    if (closed || lost != null) {
                        return;
                    }
                    due = expiresMs - 2 * ttlMs / 3;
                }
                clock.waitUntil(due);
                renew();
            }
        } catch (InterruptedException e) {
            // close()
        }
    }

    /** The owner's id (a random UUID per run). */
    String owner() {
        return owner;
    }

    /** Releases the lease: stops renewing and marks it expired, so the next run takes it at once. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        renewer.interrupt();
        try {
            renewer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (lost != null) {
                return;
            }
            try {
                storage.replaceIfVersion(uri, content(0), tag);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Checkpoint {}: cannot release the lease {}; the next run can take it when it expires at "
                        + "{}: {}", checkpoint, uri, Instant.ofEpochMilli(expiresMs), e.toString());
            }
        }
    }

    /** A lease as read back. */
    private record Held(String owner, long pid, String host, long expiresMs) {
        static Held parse(byte[] bytes, StoredObject st, long ttlMs) {
            try {
                Map<String, Object> node = FileFormat.object(Json.parse(new String(bytes, StandardCharsets.UTF_8)));
                if (node != null && node.get("owner") instanceof String owner
                        && node.get("expiresMs") instanceof Long expires) {
                    long pid = node.get("pid") instanceof Long p ? p : -1;
                    String host = node.get("host") instanceof String h ? h : "?";
                    return new Held(owner, pid, host, expires);
                }
            } catch (IOException | RuntimeException e) {
                // Not a lease Sluice wrote: below.
            }
            // Unreadable: treat it as a lease written when the object was, so it expires in time.
            return new Held("unknown", -1, "?", st.lastModified() + ttlMs);
        }

        String describe() {
            return "owner " + owner + (pid >= 0 ? " (pid " + pid + " on " + host + ")" : "");
        }
    }
}
