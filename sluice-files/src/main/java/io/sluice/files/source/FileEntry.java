package io.sluice.files.source;

import java.util.Objects;

/**
 * One line of the seen-files log, Spark's {@code FileStreamSource.FileEntry}: the file's URI, its modification
 * time when it was selected, and the log offset ({@code batchId}) of the batch that took it.
 */
record FileEntry(String path, long timestamp, long batchId) {
    FileEntry {
        Objects.requireNonNull(path, "path");
    }
}
