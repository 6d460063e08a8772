package io.sluice.core;

import java.nio.file.Path;

/**
 * The checkpoint is in use by another running query, in another process or in this JVM. Thrown by
 * {@link DataStreamWriter#start()} at once, never after waiting; the folder is left as it was (never deleted, even
 * when the other query created it). {@link #path()} is the checkpoint folder.
 *
 * <p>Message: {@code Checkpoint <dir> is in use by another running query[ in this JVM] (lock file <dir>/.lock held
 * by pid <pid> since <instant>). Stop that query first, or use a different checkpointLocation.} When the holder
 * cannot be read (it has just taken the lock, or wrote nothing), the parenthesis reads {@code (lock file
 * <dir>/.lock is held by another process)}.
 */
public final class CheckpointLockedException extends CheckpointException {

    /**
     * Public so that the engine's checkpoint code can throw it; callers catch it and have no reason to create one.
     *
     * @param checkpoint the checkpoint folder
     * @param message    the whole message, as above
     */
    public CheckpointLockedException(Path checkpoint, String message) {
        super(checkpoint, message, null);
    }

    /**
     * A checkpoint on an object store, held through its lease object {@code <checkpoint>/.lease}.
     *
     * @param checkpoint the checkpoint's URI
     */
    public CheckpointLockedException(String checkpoint, String message) {
        super(checkpoint, message, null);
    }
}
