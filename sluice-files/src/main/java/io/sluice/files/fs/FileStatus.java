package io.sluice.files.fs;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What a listing says about one entry: its path, whether it is a directory, its length in bytes and its last
 * modification time in milliseconds since the epoch. A value captured at listing time; the entry may have
 * changed since.
 */
public record FileStatus(Path path, boolean directory, long size, long modificationTime) {
    public FileStatus {
        Objects.requireNonNull(path, "path");
    }

    /** The last component of the path. */
    public String name() {
        Path n = path.getFileName();
        return n == null ? path.toString() : n.toString();
    }
}
