package io.sluice.api.source;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.types.StructType;

import java.nio.file.Path;

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
 */
public record StreamContext(Options options, StructType schema, Path metadataPath, SluiceClock clock,
                            String queryId, int sourceIndex) {
}
