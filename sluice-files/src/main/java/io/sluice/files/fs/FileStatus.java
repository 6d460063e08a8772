package io.sluice.files.fs;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What a listing says about one entry: its path, whether it is a directory, its length in bytes, its last
 * modification time in milliseconds since the epoch, and whether it is a special file (a FIFO, a socket or a
 * device: neither a regular file nor a directory, after following symbolic links), which is never data: reading
 * a FIFO blocks until someone writes to it. A value captured at listing time; the entry may have changed since.
 */
public record FileStatus(Path path, boolean directory, long size, long modificationTime, boolean special) {
    public FileStatus {
        Objects.requireNonNull(path, "path");
    }

    /** A regular file or a directory. */
    public FileStatus(Path path, boolean directory, long size, long modificationTime) {
        this(path, directory, size, modificationTime, false);
    }

    /** The last component of the path. */
    public String name() {
        Path n = path.getFileName();
        return n == null ? path.toString() : n.toString();
    }
}
