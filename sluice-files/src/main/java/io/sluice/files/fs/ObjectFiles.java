package io.sluice.files.fs;

import java.nio.file.Path;
import java.util.Optional;

/** For the formats' file opening (another package): the object storage a path names, if any. */
public final class ObjectFiles {
    private ObjectFiles() {
    }

    /** The open object storage whose object {@code path} names ({@link ObjectFileStorage}), or empty. */
    public static Optional<FileStorage> owner(Path path) {
        return ObjectFileStorage.owner(path).map(o -> o);
    }
}
