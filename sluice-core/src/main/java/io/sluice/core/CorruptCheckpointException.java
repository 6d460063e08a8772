package io.sluice.core;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A checkpoint file that cannot be trusted: empty, truncated, not UTF-8, not the expected JSON, missing although
 * recovery needs it, or inconsistent with the other files; also an {@code offsets/N} a source cannot read its
 * logged offset back from, or whose logged end for a source is before the previous batch's. Thrown by
 * {@link DataStreamWriter#start()}. Sluice never falls back to an older file when this happens (neither does
 * Spark): guessing could skip or repeat data.
 *
 * <p>For a file whose content is wrong the message reads {@code Checkpoint file <path> is corrupt or incomplete
 * (<problem>). <consequence> <what to do>}, {@link #path()} is that file and {@link #problem()} the clause in
 * parentheses. For a missing file it reads {@code Checkpoint file <path> is missing (<why>). ...} and for files
 * inconsistent with each other {@code Checkpoint <dir> is inconsistent (<why>). ...} ({@link #path()} is then the
 * file named first), both without a {@link #problem()}.
 */
public final class CorruptCheckpointException extends CheckpointException {

    /** What is wrong with the file's content, as a clause; null for a missing or inconsistent file. */
    private final String problem;

    /**
     * A file that is missing or inconsistent with the others (no {@link #problem()}). Public so that the engine's
     * checkpoint code can throw it; callers catch it and have no reason to create one.
     *
     * @param path    the file at fault (absolute)
     * @param message the whole message
     * @param cause   the underlying failure, or null
     */
    public CorruptCheckpointException(Path path, String message, Throwable cause) {
        this(path, message, null, cause);
    }

    private CorruptCheckpointException(Path path, String message, String problem, Throwable cause) {
        super(path, message, cause);
        this.problem = problem;
    }

    /** {@link #CorruptCheckpointException(Path, String, Throwable)} for a file named by its location (a URI). */
    public CorruptCheckpointException(String location, String message, Throwable cause) {
        this(location, message, null, cause);
    }

    private CorruptCheckpointException(String location, String message, String problem, Throwable cause) {
        super(location, message, cause);
        this.problem = problem;
    }

    /** {@link #badFile(Path, String, String, Throwable)} for a file named by its location (a URI). */
    public static CorruptCheckpointException badFile(String location, String problem, String consequenceAndAdvice,
                                                     Throwable cause) {
        return new CorruptCheckpointException(location,
                "Checkpoint file " + location + " is corrupt or incomplete (" + problem + "). " + consequenceAndAdvice,
                problem, cause);
    }

    /**
     * A file whose content is wrong, with the message {@code Checkpoint file <file> is corrupt or incomplete
     * (<problem>). <consequenceAndAdvice>}. Public so that the engine's checkpoint code can throw it.
     *
     * @param problem              a clause such as {@code it is empty}, returned by {@link #problem()}
     * @param consequenceAndAdvice whole sentences: what this means for the query and what the operator can do
     */
    public static CorruptCheckpointException badFile(Path file, String problem, String consequenceAndAdvice,
                                                     Throwable cause) {
        return new CorruptCheckpointException(file,
                "Checkpoint file " + file + " is corrupt or incomplete (" + problem + "). " + consequenceAndAdvice,
                problem, cause);
    }

    /**
     * For a file whose content is wrong, what is wrong, as the clause the message quotes in parentheses ({@code it
     * is empty}, {@code line 1 should be the version "v1" but is "garbage"}); empty for a file that is missing or
     * inconsistent with the others.
     */
    public Optional<String> problem() {
        return Optional.ofNullable(problem);
    }
}
