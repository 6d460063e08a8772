package io.sluice.api.sink;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Objects;

/**
 * What the engine hands a {@link SinkProvider}.
 *
 * @param options         the user's sink options
 * @param schema          the schema of the rows the sink will receive
 * @param checkpointPath  the query's checkpoint folder (a sink may keep state under {@code <checkpoint>/sinks/})
 * @param queryId         the checkpoint's query id (stable across restarts)
 * @param queryName       the query's name, or null
 * @param clock           the engine's clock
 * @param sessionTimeZone the session time zone, Spark's {@code spark.sql.session.timeZone} (the engine's
 *                        {@code Sluice.sessionTimeZone()}; the JVM's default zone unless configured): a sink with a
 *                        {@code timeZone} option (the file sink, the console sink) writes timestamps in this zone
 *                        when that option is not given, as Spark's sinks do
 */
public record SinkContext(Options options, StructType schema, Path checkpointPath, String queryId,
                          String queryName, SluiceClock clock, ZoneId sessionTimeZone) {

    public SinkContext {
        Objects.requireNonNull(sessionTimeZone, "sessionTimeZone");
    }

    /** A context in the JVM's default time zone (Spark's default session time zone). */
    public SinkContext(Options options, StructType schema, Path checkpointPath, String queryId, String queryName,
                       SluiceClock clock) {
        this(options, schema, checkpointPath, queryId, queryName, clock, ZoneId.systemDefault());
    }
}
