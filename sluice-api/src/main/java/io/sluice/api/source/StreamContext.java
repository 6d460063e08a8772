package io.sluice.api.source;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Objects;

/**
 * What the engine hands a {@link SourceProvider} when it builds a stream.
 *
 * @param options       the user's options (validated by {@link SourceProvider#resolveSchema})
 * @param schema        the resolved schema the stream's rows must follow
 * @param metadataPath  the source's private folder in the checkpoint ({@code <checkpoint>/sources/<i>}); it exists.
 *                      A source keeps here whatever it needs to replay a logged range after a restart
 * @param clock         the engine's clock; the only source of time a stream should use
 * @param queryId       the checkpoint's query id (stable across restarts)
 * @param sourceIndex   the source's position in the query (its {@code <i>})
 * @param bounded       true for a batch read ({@code Sluice.read()}): the engine asks for
 *                      {@code latestOffset(initialOffset(), allAvailable)} once, reads that range and stops the
 *                      stream; {@code metadataPath} is then a temporary folder deleted afterwards. A source may
 *                      accept batch-only options (e.g. an ending position) when this is true
 * @param sessionTimeZone the session time zone, Spark's {@code spark.sql.session.timeZone} (the engine's
 *                        {@code Sluice.sessionTimeZone()}; the JVM's default zone unless configured): a source with
 *                        a {@code timeZone} option (the file source's formats) reads timestamps without a zone in
 *                        this zone when that option is not given, as Spark's sources do
 */
public record StreamContext(Options options, StructType schema, Path metadataPath, SluiceClock clock,
                            String queryId, int sourceIndex, boolean bounded, ZoneId sessionTimeZone) {

    public StreamContext {
        Objects.requireNonNull(sessionTimeZone, "sessionTimeZone");
    }

    /** A context in the JVM's default time zone (Spark's default session time zone). */
    public StreamContext(Options options, StructType schema, Path metadataPath, SluiceClock clock, String queryId,
                         int sourceIndex, boolean bounded) {
        this(options, schema, metadataPath, clock, queryId, sourceIndex, bounded, ZoneId.systemDefault());
    }

    /** A context for a streaming query (not bounded), in the JVM's default time zone. */
    public StreamContext(Options options, StructType schema, Path metadataPath, SluiceClock clock, String queryId,
                         int sourceIndex) {
        this(options, schema, metadataPath, clock, queryId, sourceIndex, false);
    }
}
