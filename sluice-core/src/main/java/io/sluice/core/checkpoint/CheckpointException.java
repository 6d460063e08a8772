package io.sluice.core.checkpoint;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A checkpoint the query cannot safely use. The message is meant for an operator: it names the file or folder,
 * says what is wrong and what can be done about it; callers should show it as it is.
 *
 * <p>Sealed so that a caller can rely on the subclasses being exactly: {@link CorruptCheckpointException},
 * {@link UnsupportedCheckpointVersionException} and {@link CheckpointLockedException}. Plain I/O failures are
 * not checkpoint exceptions: they surface as {@link java.io.UncheckedIOException}.
 */
public abstract sealed class CheckpointException extends RuntimeException
        permits CorruptCheckpointException, UnsupportedCheckpointVersionException, CheckpointLockedException {

    private final Path path;

    CheckpointException(Path path, String message, Throwable cause) {
        super(message, cause);
        this.path = Objects.requireNonNull(path, "path");
    }

    /** The absolute path of the file (or, for a lock or a whole-checkpoint problem, folder) at fault. */
    public Path path() {
        return path;
    }
}
