package io.sluice.files.source;

import java.nio.file.Path;

/**
 * A file as a listing (or a sink's manifest) gave it: where it is, its URI, its length, its modification time, and
 * its identity in the seen-files state once computed. Discovery makes them, admission chooses among them.
 */
final class ListedFile {
    private final Path path;
    private final String uri;
    private final long size;
    private final long timestamp;
    /** Computed once, on first use, by {@link FileDiscovery#key}. */
    PathHash key;

    ListedFile(Path path, String uri, long size, long timestamp) {
        this.path = path;
        this.uri = uri;
        this.size = size;
        this.timestamp = timestamp;
    }

    Path path() {
        return path;
    }

    String uri() {
        return uri;
    }

    long size() {
        return size;
    }

    long timestamp() {
        return timestamp;
    }

    @Override
    public String toString() {
        return uri;
    }
}
