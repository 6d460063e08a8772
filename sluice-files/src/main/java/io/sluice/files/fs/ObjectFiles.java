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

    /**
     * Random access to the object {@code path} names, when it is one of an open object storage: for formats that
     * seek (Parquet, Avro). Empty for a local path.
     *
     * @throws java.nio.file.NoSuchFileException when there is no such object
     */
    public static Optional<RangedInput> ranged(Path path) throws java.io.IOException {
        Optional<ObjectFileStorage> owner = ObjectFileStorage.owner(path);
        if (owner.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(owner.get().openRanged(path));
    }
}
