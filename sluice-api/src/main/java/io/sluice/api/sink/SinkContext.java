package io.sluice.api.sink;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Map;
import java.util.Objects;

/**
 * What the engine hands a {@link SinkProvider}.
 *
 * @param options         the user's sink options
 * @param schema          the schema of the rows the sink will receive
 * @param checkpointPath  the query's checkpoint folder (a sink may keep state under {@code <checkpoint>/sinks/});
 *                        null when the checkpoint is on an object store: see {@code checkpointLocation}
 * @param queryId         the checkpoint's query id (stable across restarts)
 * @param queryName       the query's name, or null
 * @param clock           the engine's clock
 * @param sessionTimeZone the session time zone, Spark's {@code spark.sql.session.timeZone} (the engine's
 *                        {@code Sluice.sessionTimeZone()}; the JVM's default zone unless configured): a sink with a
 *                        {@code timeZone} option (the file sink, the console sink) writes timestamps in this zone
 *                        when that option is not given, as Spark's sinks do
 * @param outputMode      the query's output mode, {@code append}, {@code update} or {@code complete} (only
 *                        for a sink whose {@link SinkProvider#supportsOutputMode} took it): in {@code complete}
 *                        each batch holds the whole result, so a table-like sink replaces what it holds
 * @param checkpointLocation the checkpoint as a {@link Storage} URI ({@code checkpointPath} as a string when it is
 *                           local; {@code s3a://lake/chk} on an object store), or null when there is none
 * @param storageConf     the engine's configuration entries for storage ({@code Sluice.builder().config},
 *                        {@code spark.hadoop.} stripped), for {@link Storages#of} with {@link Storages#conf}
 */
public record SinkContext(Options options, StructType schema, Path checkpointPath, String queryId,
                          String queryName, SluiceClock clock, ZoneId sessionTimeZone, String outputMode,
                          String checkpointLocation, Map<String, String> storageConf) {

    public SinkContext {
        Objects.requireNonNull(sessionTimeZone, "sessionTimeZone");
        outputMode = outputMode == null ? "append" : outputMode;
        storageConf = storageConf == null ? Map.of() : Map.copyOf(storageConf);
    }

    /** A context of a query in the {@code append} output mode, on a store (see {@code checkpointLocation}). */
    public SinkContext(Options options, StructType schema, Path checkpointPath, String queryId, String queryName,
                       SluiceClock clock, ZoneId sessionTimeZone, String checkpointLocation,
                       Map<String, String> storageConf) {
        this(options, schema, checkpointPath, queryId, queryName, clock, sessionTimeZone, "append",
                checkpointLocation, storageConf);
    }

    /** A context whose checkpoint, if any, is the local {@code checkpointPath}, with no storage configuration. */
    public SinkContext(Options options, StructType schema, Path checkpointPath, String queryId, String queryName,
                       SluiceClock clock, ZoneId sessionTimeZone, String outputMode) {
        this(options, schema, checkpointPath, queryId, queryName, clock, sessionTimeZone, outputMode,
                checkpointPath == null ? null : checkpointPath.toString(), Map.of());
    }

    /** A context of a query in the {@code append} output mode whose checkpoint, if any, is local. */
    public SinkContext(Options options, StructType schema, Path checkpointPath, String queryId, String queryName,
                       SluiceClock clock, ZoneId sessionTimeZone) {
        this(options, schema, checkpointPath, queryId, queryName, clock, sessionTimeZone, "append");
    }

    /** A context in the JVM's default time zone (Spark's default session time zone). */
    public SinkContext(Options options, StructType schema, Path checkpointPath, String queryId, String queryName,
                       SluiceClock clock) {
        this(options, schema, checkpointPath, queryId, queryName, clock, ZoneId.systemDefault());
    }
}
