package io.sluice.files.sink;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Reads the manifest a file sink (Sluice's or Spark's) keeps in {@code <output>/_spark_metadata/}. The manifest,
 * not a listing of the folder, says which data files are committed: a reader that lists files from it never sees a
 * partial file, a file of a failed attempt, or a batch twice.
 */
public final class FileSinkManifest {
    /** The manifest folder's name inside the output folder. */
    public static final String METADATA_DIR = SinkLog.METADATA_DIR;

    private FileSinkManifest() {
    }

    /** True when {@code outputDir} holds a manifest folder. */
    public static boolean exists(Path outputDir) {
        return java.nio.file.Files.isDirectory(outputDir.resolve(METADATA_DIR));
    }

    /** The newest committed batch id, or empty when no batch was committed. */
    public static OptionalLong latestBatchId(Path outputDir) throws IOException {
        TreeMap<Long, Path> files = SinkLog.list(outputDir.resolve(METADATA_DIR));
        return files.isEmpty() ? OptionalLong.empty() : OptionalLong.of(files.lastKey());
    }

    /**
     * Every committed data file, in commit order (batch by batch, each batch's files in partition order).
     *
     * @throws IllegalStateException when a manifest file is missing or malformed (the message names it)
     */
    public static List<SinkFileStatus> allFiles(Path outputDir) throws IOException {
        return SinkLog.allFiles(outputDir);
    }

    /** The entries recorded by one batch file, {@code <id>} or {@code <id>.compact}; empty if it does not exist. */
    public static List<SinkFileStatus> batch(Path outputDir, long batchId) throws IOException {
        Path f = SinkLog.list(outputDir.resolve(METADATA_DIR)).get(batchId);
        return f == null ? List.of() : SinkLog.read(f);
    }
}
