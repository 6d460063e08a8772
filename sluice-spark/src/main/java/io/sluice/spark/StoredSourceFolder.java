package io.sluice.spark;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.LocalPaths;
import io.sluice.api.source.SourceProvider;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import scala.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A source's folder in a Spark checkpoint on an object store ({@code s3a://lake/chk/sources/0}), through Sluice's
 * {@link Storage}: cloud Spark clusters have no shared local disk, so a source that keeps its state through the
 * storage ({@link SourceProvider#supportsMetadataOnStorage()}) keeps it beside Spark's own checkpoint files. The
 * storage is configured as Spark configures S3A for that checkpoint: the session's Hadoop configuration
 * ({@code spark.hadoop.fs.s3a.*}, {@code hadoopConfiguration().set(..)}), with the source's options over it.
 * Only the driver's stream uses it: executors never touch the checkpoint.
 */
final class StoredSourceFolder implements AutoCloseable {
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    /** The local property Spark's StreamExecution sets on the query thread before it creates the sources. */
    private static final String QUERY_ID_KEY = "sql.streaming.queryId";
    /** Hadoop's own defaults: not the user's settings, so Sluice's defaults apply instead (a 5 s connect timeout). */
    private static final String HADOOP_DEFAULTS = "core-default.xml";

    private final String location;
    private final Storage storage;

    private StoredSourceFolder(String location, Storage storage) {
        this.location = location;
        this.storage = storage;
    }

    /** True when Spark's folder for the source is not on the local disk (a path or a {@code file:} URI). */
    static boolean isStored(String location) {
        return !Storages.isLocal(location);
    }

    /**
     * Opens the storage of the source's folder {@code location}, after checking that the source can keep its state
     * there.
     *
     * @throws IllegalArgumentException when the source keeps its state in local folders only, or no Sluice storage
     *                                  serves the scheme (naming the module to add)
     */
    static StoredSourceFolder open(String location, SourceProvider provider, String source,
                                   Map<String, String> options) {
        String scheme = LocalPaths.scheme(location).orElseThrow();
        ClassLoader loader = loader();
        if (!Storages.isSupported(scheme, loader)) {
            throw new IllegalArgumentException("Sluice sources keep their state in the checkpoint through Sluice's "
                    + "storage: the checkpointLocation must be on a local or mounted file system (a path or a file: "
                    + "URI) or, with the module sluice-s3 on Spark's classpath, on s3:// or s3a://, not " + location
                    + Storages.moduleFor(scheme).map(m -> " (add the module " + m + ")").orElse(""));
        }
        if (!provider.supportsMetadataOnStorage()) {
            throw new IllegalArgumentException("The Sluice source '" + source + "' keeps its checkpoint state in a "
                    + "local folder only, and Spark's checkpointLocation is on an object store (its folder "
                    + location + "): give a checkpointLocation on a local or mounted file system for a query "
                    + "reading it");
        }
        String folder = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
        try {
            return new StoredSourceFolder(folder, Storages.of(folder, Storages.conf(hadoopConf(), options), loader));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the storage of the source's folder " + folder + ": "
                    + e.getMessage(), e);
        }
    }

    /** The folder's URI, without a trailing {@code /}: the stream's {@code metadataLocation}. */
    String location() {
        return location;
    }

    Storage storage() {
        return storage;
    }

    /** The source's index: the folder's name, as Spark numbers its sources. */
    int sourceIndex() {
        try {
            return Integer.parseInt(Storages.name(location));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Spark's query id (stable across restarts): from the query thread, else the checkpoint's metadata object. */
    String queryId() {
        Option<SparkSession> active = SparkSession.getActiveSession();
        if (active.isDefined()) {
            String id = active.get().sparkContext().getLocalProperty(QUERY_ID_KEY);
            if (id != null) {
                return id;
            }
        }
        int sources = location.lastIndexOf('/');
        int checkpoint = sources <= 0 ? -1 : location.lastIndexOf('/', sources - 1);
        if (checkpoint > 0) {
            try {
                Matcher m = ID.matcher(new String(storage.readAll(location.substring(0, checkpoint) + "/metadata",
                        64 * 1024), StandardCharsets.UTF_8));
                if (m.find()) {
                    return m.group(1);
                }
            } catch (NoSuchFileException e) {
                // fall through
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return UUID.nameUUIDFromBytes(location.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * The entries the user set in the active session's Hadoop configuration (Spark's {@code spark.hadoop.*} and
     * the SQL conf's, as Spark hands them to S3A), without Hadoop's built-in defaults.
     */
    private static Map<String, String> hadoopConf() {
        Map<String, String> out = new LinkedHashMap<>();
        Option<SparkSession> active = SparkSession.getActiveSession();
        if (active.isEmpty()) {
            return out;
        }
        Configuration conf = active.get().sessionState().newHadoopConf();
        for (Map.Entry<String, String> e : conf) {
            String key = e.getKey();
            if (!key.toLowerCase(Locale.ROOT).startsWith("fs.s3")) {
                continue;
            }
            String[] sources = conf.getPropertySources(key);
            boolean builtIn = sources != null && sources.length > 0 && sources[0].equals(HADOOP_DEFAULTS)
                    && sources.length == 1;
            if (!builtIn) {
                out.put(key, conf.get(key));
            }
        }
        return out;
    }

    @Override
    public void close() {
        try {
            storage.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Closing the storage of " + location + " failed: " + e.getMessage(), e);
        }
    }

    /** Names the folder, never a setting. */
    @Override
    public String toString() {
        return "StoredSourceFolder[" + location + "]";
    }

    private static ClassLoader loader() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l != null ? l : StoredSourceFolder.class.getClassLoader();
    }
}
