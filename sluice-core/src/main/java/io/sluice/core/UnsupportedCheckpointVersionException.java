package io.sluice.core;

import java.nio.file.Path;

/**
 * A log file ({@code offsets/N} or {@code commits/N}) whose version line (e.g. {@code v2}) is newer than this
 * version of Sluice reads. Thrown by {@link DataStreamWriter#start()}. The file is probably fine; this Sluice cannot
 * know its layout, so it refuses rather than misread it. {@link #path()} is that file.
 *
 * <p>Message: {@code Checkpoint file <path> was written by a newer version (log format v<found>; this version of
 * Sluice reads only v<supported>). Upgrade Sluice to run this query, or start over with a new checkpoint location.}
 */
public final class UnsupportedCheckpointVersionException extends CheckpointException {

    private final int found;
    private final int supported;

    /**
     * Public so that the engine's checkpoint code can throw it; callers catch it and have no reason to create one.
     *
     * @param file      the log file (absolute)
     * @param found     the version its first line names
     * @param supported the newest version this Sluice reads
     */
    public UnsupportedCheckpointVersionException(Path file, int found, int supported) {
        this(file.toString(), found, supported);
    }

    /** For a file named by its location (a URI for a checkpoint on an object store). */
    public UnsupportedCheckpointVersionException(String file, int found, int supported) {
        super(file, "Checkpoint file " + file + " was written by a newer version (log format v" + found
                + "; this version of Sluice reads only v" + supported + "). Upgrade Sluice to run this query,"
                + " or start over with a new checkpoint location.", null);
        this.found = found;
        this.supported = supported;
    }

    /** The version the file's first line names ({@code 2} for {@code v2}). */
    public int foundVersion() {
        return found;
    }

    /** The newest version this Sluice reads ({@code 1}). */
    public int supportedVersion() {
        return supported;
    }
}
