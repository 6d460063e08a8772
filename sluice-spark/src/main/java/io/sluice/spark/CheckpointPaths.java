package io.sluice.spark;

import org.apache.spark.sql.SparkSession;
import scala.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The folder Spark gives a source ({@code <checkpoint>/sources/<n>}) as a local path, and the query's id. */
final class CheckpointPaths {
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    /** The local property Spark's StreamExecution sets on the query thread before it creates the sources. */
    private static final String QUERY_ID_KEY = "sql.streaming.queryId";

    private CheckpointPaths() {
    }

    /**
     * @throws IllegalArgumentException when the location is not on a local file system: Sluice sources keep their
     *                                  state with java.nio
     */
    static Path local(String location) {
        URI uri = new org.apache.hadoop.fs.Path(location).toUri();
        if (uri.getScheme() != null && !uri.getScheme().equalsIgnoreCase("file")) {
            throw new IllegalArgumentException("Sluice sources keep their state in the checkpoint with java.nio, so "
                    + "the checkpointLocation must be on a local or mounted file system (a path or a file: URI), "
                    + "not " + location);
        }
        Path p = Paths.get(uri.getPath());
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the source's folder " + p + ": " + e.getMessage(), e);
        }
        return p;
    }

    /** The source's index: the folder's name, as Spark numbers its sources. */
    static int sourceIndex(Path metadataPath) {
        try {
            return Integer.parseInt(metadataPath.getFileName().toString());
        } catch (NumberFormatException | NullPointerException e) {
            return 0;
        }
    }

    /** Spark's query id (stable across restarts): from the query thread, else the checkpoint's metadata file. */
    static String queryId(Path metadataPath) {
        Option<SparkSession> active = SparkSession.getActiveSession();
        if (active.isDefined()) {
            String id = active.get().sparkContext().getLocalProperty(QUERY_ID_KEY);
            if (id != null) {
                return id;
            }
        }
        Path sources = metadataPath.getParent();
        Path metadata = sources == null || sources.getParent() == null ? null
                : sources.getParent().resolve("metadata");
        if (metadata != null && Files.isRegularFile(metadata)) {
            try {
                Matcher m = ID.matcher(Files.readString(metadata, StandardCharsets.UTF_8));
                if (m.find()) {
                    return m.group(1);
                }
            } catch (IOException e) {
                // fall through
            }
        }
        return UUID.nameUUIDFromBytes(metadataPath.toString().getBytes(StandardCharsets.UTF_8)).toString();
    }
}
