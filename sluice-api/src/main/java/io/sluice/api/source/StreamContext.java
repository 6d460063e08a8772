package io.sluice.api.source;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
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
 *                      A source keeps here whatever it needs to replay a logged range after a restart. Null when
 *                      the checkpoint is on an object store ({@code s3a://...}): then only a source whose provider
 *                      says {@link SourceProvider#supportsMetadataOnStorage()} is started, and it keeps its state
 *                      at {@code metadataLocation} through {@code metadataStorage}
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
 * @param metadataLocation the source's private folder as a {@link Storage} URI: {@code metadataPath} as a string
 *                         for a local checkpoint, {@code s3a://lake/chk/sources/0} on an object store (nothing
 *                         exists there until the source writes under it)
 * @param metadataStorage  the storage {@code metadataLocation} is on ({@link Storages#local()} for a local
 *                         checkpoint); owned by the engine, never closed by the source
 */
public record StreamContext(Options options, StructType schema, Path metadataPath, SluiceClock clock,
                            String queryId, int sourceIndex, boolean bounded, ZoneId sessionTimeZone,
                            String metadataLocation, Storage metadataStorage) {

    public StreamContext {
        Objects.requireNonNull(sessionTimeZone, "sessionTimeZone");
        Objects.requireNonNull(metadataLocation, "metadataLocation");
        Objects.requireNonNull(metadataStorage, "metadataStorage");
    }

    /** A context whose private folder is the local {@code metadataPath}. */
    public StreamContext(Options options, StructType schema, Path metadataPath, SluiceClock clock, String queryId,
                         int sourceIndex, boolean bounded, ZoneId sessionTimeZone) {
        this(options, schema, metadataPath, clock, queryId, sourceIndex, bounded, sessionTimeZone,
                Objects.requireNonNull(metadataPath, "metadataPath").toString(), Storages.local());
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
