package io.sluice.files.sink;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One line of a file sink manifest ({@code <output>/_spark_metadata/<batchId>}): a data file the batch committed,
 * as Spark's {@code SinkFileStatus}. Spark's JSON form, field order included:
 * {@code {"path":"file:///out/part-00000-<uuid>-c000.json","size":153,"isDir":false,"modificationTime":1718000000000,
 * "blockReplication":1,"blockSize":33554432,"action":"add"}}.
 *
 * @param path             the file's URI, {@code file:///...} with URI escaping ({@code %20} for a space,
 *                         {@code %25} for the {@code %} of an escaped partition value)
 * @param size             bytes
 * @param isDir            always false for files written by the sink
 * @param modificationTime epoch milliseconds (the sink sets the file's time from the query's clock)
 * @param blockReplication 1 for local files
 * @param blockSize        33554432 for local files (Hadoop's local default)
 * @param action           {@code add}, or {@code delete} in logs of old Spark versions
 */
public record SinkFileStatus(String path, long size, boolean isDir, long modificationTime, int blockReplication,
                             long blockSize, String action) {
    /** Hadoop's block size for the local file system, as Spark records it. */
    public static final long LOCAL_BLOCK_SIZE = 33_554_432L;
    public static final String ADD_ACTION = "add";
    public static final String DELETE_ACTION = "delete";

    public SinkFileStatus {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(action, "action");
    }

    /** A local file the sink added. */
    static SinkFileStatus added(Path file, long size, long modificationTime) {
        return new SinkFileStatus(uriOf(file), size, false, modificationTime, 1, LOCAL_BLOCK_SIZE, ADD_ACTION);
    }

    /** The local file this entry names. */
    public Path localPath() {
        try {
            return Path.of(new URI(path).getPath());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Not a file URI in the manifest: " + path, e);
        }
    }

    /** Spark's one-line JSON form. */
    public String toJson() {
        StringBuilder sb = new StringBuilder(path.length() + 160);
        sb.append("{\"path\":\"");
        JsonStringEncoder.getInstance().quoteAsString(path, sb);
        return sb.append("\",\"size\":").append(size)
                .append(",\"isDir\":").append(isDir)
                .append(",\"modificationTime\":").append(modificationTime)
                .append(",\"blockReplication\":").append(blockReplication)
                .append(",\"blockSize\":").append(blockSize)
                .append(",\"action\":\"").append(action).append("\"}")
                .toString();
    }

    /** {@code file:///abs/path}, escaped as Hadoop's Path.toUri escapes (non-ASCII kept as is). */
    static String uriOf(Path file) {
        try {
            return new URI("file", "", file.toAbsolutePath().toString(), null, null).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Cannot make a URI of " + file, e);
        }
    }
}
