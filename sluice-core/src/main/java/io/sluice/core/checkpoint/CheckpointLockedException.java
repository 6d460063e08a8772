package io.sluice.core.checkpoint;

import java.nio.file.Path;

/**
 * The checkpoint is in use by another running query, in another process or in this JVM. Thrown at once, never
 * after waiting. {@link #path()} is the checkpoint folder.
 *
 * <p>Message: {@code Checkpoint <dir> is in use by another running query[ in this JVM] (lock file <dir>/.lock held
 * by pid <pid> since <instant>). Stop that query first, or use a different checkpointLocation.} When the holder
 * cannot be read (it has just taken the lock, or wrote nothing), the parenthesis reads {@code (lock file
 * <dir>/.lock is held by another process)}.
 */
public final class CheckpointLockedException extends CheckpointException {

    CheckpointLockedException(Path checkpoint, String message) {
        super(checkpoint, message, null);
    }
}
