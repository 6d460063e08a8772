package io.sluice.core.checkpoint;

import java.nio.file.Path;

/**
 * A checkpoint file that cannot be trusted: empty, truncated, not UTF-8, not the expected JSON, missing although
 * recovery needs it, or inconsistent with the other files. Sluice never falls back to an older file when this
 * happens (neither does Spark): guessing could skip or repeat data.
 *
 * <p>For a bad file the message reads {@code Checkpoint file <path> is corrupt or incomplete (<what>). <consequence>
 * <what to do>}; {@link #path()} is that file.
 */
public final class CorruptCheckpointException extends CheckpointException {

    /** What an operator can always do, whatever the file. */
    static final String RESTORE_OR_START_OVER =
            "restore the checkpoint from a backup or start over with a new checkpoint location.";

    static final String CANNOT_START = "The query cannot start from it without risking data loss.";

    /** What is wrong with the file's content, as a clause; null for a missing or inconsistent file. */
    private final String problem;

    CorruptCheckpointException(Path path, String message, Throwable cause) {
        this(path, message, null, cause);
    }

    private CorruptCheckpointException(Path path, String message, String problem, Throwable cause) {
        super(path, message, cause);
        this.problem = problem;
    }

    /** A file whose content is wrong; {@code problem} is a clause such as {@code it is empty}. */
    static CorruptCheckpointException badFile(Path file, String problem, String consequenceAndAdvice, Throwable cause) {
        return new CorruptCheckpointException(file,
                "Checkpoint file " + file + " is corrupt or incomplete (" + problem + "). " + consequenceAndAdvice,
                problem, cause);
    }

    /**
     * For a file whose content is wrong, what is wrong, as the clause the message quotes in parentheses ({@code it
     * is empty}, {@code line 1 should be the version "v1" but is "garbage"}); empty for a file that is missing or
     * inconsistent with the others.
     */
    public java.util.Optional<String> problem() {
        return java.util.Optional.ofNullable(problem);
    }
}
