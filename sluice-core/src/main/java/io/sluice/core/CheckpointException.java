package io.sluice.core;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A checkpoint ({@code checkpointLocation}) the query cannot safely use. Thrown by {@link DataStreamWriter#start()}:
 * everything recovery needs (the lock, {@code metadata}, the newest {@code offsets/N} and {@code commits/N}, the
 * logged offsets read back by their sources) is read before the query thread starts, so a bad checkpoint fails
 * {@code start()} itself, with nothing created in it, rather than the running query. {@link CheckpointView#open}
 * does not throw it: it reports a bad file as that file's problem.
 *
 * <p>The message is meant for an operator: it names the file or folder, says what is wrong and what can be done
 * about it; callers should show it as it is. Sealed so that a caller can rely on the subclasses being exactly:
 * {@link CorruptCheckpointException}, {@link UnsupportedCheckpointVersionException} and
 * {@link CheckpointLockedException}. Plain I/O failures are not checkpoint exceptions: they surface as
 * {@link java.io.UncheckedIOException}.
 */
public abstract sealed class CheckpointException extends RuntimeException
        permits CorruptCheckpointException, UnsupportedCheckpointVersionException, CheckpointLockedException {

    private final Path path;
    private final String location;

    CheckpointException(Path path, String message, Throwable cause) {
        super(message, cause);
        this.path = Objects.requireNonNull(path, "path");
        this.location = path.toString();
    }

    /** For a checkpoint on an object store: {@code location} is the URI ({@code s3a://lake/chk/offsets/3}). */
    CheckpointException(String location, String message, Throwable cause) {
        super(message, cause);
        this.location = Objects.requireNonNull(location, "location");
        this.path = java.nio.file.Path.of(location);
    }

    /**
     * The file or folder at fault as the message names it: {@link #path()} as a string for a local checkpoint, the
     * URI ({@code s3a://lake/chk/offsets/3}) for one on an object store, where {@link #path()} is only that URI
     * made a relative {@link Path} (use this instead).
     */
    public String location() {
        return location;
    }

    /**
     * The absolute path at fault: the file for {@link CorruptCheckpointException} and
     * {@link UnsupportedCheckpointVersionException}, the checkpoint folder for {@link CheckpointLockedException}
     * (and for a checkpoint whose files are inconsistent with each other).
     */
    public Path path() {
        return path;
    }
}
