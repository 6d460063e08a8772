package io.sluice.core.checkpoint;

import io.sluice.core.CheckpointLockedException;
import io.sluice.core.json.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock on a checkpoint folder, so that a second query on a live checkpoint fails at once instead of
 * interleaving batches with the first (Spark only notices a rename collision, possibly much later).
 *
 * <p>The lock is an OS file lock on {@code <checkpoint>/.lock} (a dot name: not data, and not a batch file). The
 * OS drops it when the holder dies, even by kill -9, so a restart after a crash just works. The file is never
 * deleted: deleting a lock file lets two processes lock two different files of the same name.
 *
 * <p>Within one JVM a file lock does not exclude (and closing a second channel on the file would drop the
 * first's lock on POSIX), so a static table of held folders is checked first, and no second channel is opened.
 * The holder's pid and start time are written into the file for the other side's message.
 */
final class CheckpointLock implements AutoCloseable {

    static final String FILE_NAME = ".lock";

    /** Folders locked by this JVM (real paths), with who holds them. */
    private static final Map<Path, Holder> HELD = new ConcurrentHashMap<>();

    record Holder(long pid, Instant since) {
        String json() {
            return FileFormat.json(g -> {
                g.writeStartObject();
                g.writeNumberField("pid", pid);
                g.writeStringField("since", since.toString());
                g.writeEndObject();
            });
        }
    }

    private final Path key;
    private final Holder holder;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean closed;

    private CheckpointLock(Path key, Holder holder, FileChannel channel, FileLock lock) {
        this.key = key;
        this.holder = holder;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks the (existing) checkpoint folder {@code dir}.
     *
     * @throws CheckpointLockedException if another query, here or in another process, holds it
     */
    static CheckpointLock acquire(Path dir) {
        Path shown = dir.toAbsolutePath().normalize();
        Path lockFile = shown.resolve(FILE_NAME);
        Path key;
        try {
            key = shown.toRealPath(); // one key per folder, however it is spelled
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot lock checkpoint " + shown + ": " + e.getMessage(), e);
        }
        Holder me = new Holder(ProcessHandle.current().pid(), Instant.now().truncatedTo(ChronoUnit.SECONDS));
        Holder other = HELD.putIfAbsent(key, me);
        if (other != null) {
            throw locked(shown, lockFile, " in this JVM", other);
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held in this JVM outside this class: still "in use"
            }
            if (lock == null) {
                Holder holder = readHolder(channel);
                throw locked(shown, lockFile, "", holder);
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(me.json().getBytes(StandardCharsets.UTF_8)), 0);
            return new CheckpointLock(key, me, channel, lock);
        } catch (IOException e) {
            giveUp(key, me, channel, e);
            throw new UncheckedIOException("Cannot lock checkpoint " + shown + " (lock file " + lockFile + "): "
                    + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            giveUp(key, me, channel, e);
            throw e;
        }
    }

    /** Undoes a failed acquire: this JVM must not keep the folder marked, nor the channel open. */
    private static void giveUp(Path key, Holder me, FileChannel channel, Throwable failure) {
        if (channel != null) {
            try {
                channel.close(); // we hold no lock on the file, so closing cannot drop anyone's lock
            } catch (IOException e) {
                failure.addSuppressed(e);
            }
        }
        HELD.remove(key, me);
    }

    /** Releases the lock; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            // Clear our details first: a later holder writes its own, and a reader must not see stale ones.
            channel.truncate(0);
            lock.release();
        } catch (IOException e) {
            // Closing the channel below releases the lock anyway.
        } finally {
            try {
                channel.close();
            } catch (IOException e) {
                // The OS releases the lock with the file descriptor.
            }
            HELD.remove(key, holder);
        }
    }

    private static CheckpointLockedException locked(Path dir, Path lockFile, String where, Holder holder) {
        String by = holder == null
                ? "lock file " + lockFile + " is held by another process"
                : "lock file " + lockFile + " held by pid " + holder.pid() + " since " + holder.since();
        return new CheckpointLockedException(dir, "Checkpoint " + dir + " is in use by another running query"
                + where + " (" + by + "). Stop that query first, or use a different checkpointLocation.");
    }

    /** The other holder's details, or null when unreadable (it may not have written them yet). */
    private static Holder readHolder(FileChannel channel) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(256);
            int n = channel.read(buf, 0);
            if (n <= 0) {
                return null;
            }
            Map<String, Object> node = FileFormat.object(
                    Json.parse(new String(Arrays.copyOf(buf.array(), n), StandardCharsets.UTF_8)));
            if (node == null || !(node.get("pid") instanceof Long pid) || !(node.get("since") instanceof String since)) {
                return null;
            }
            return new Holder(pid, Instant.parse(since));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
