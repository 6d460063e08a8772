package io.sluice.api.datasource;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.types.StructType;

import java.nio.file.Path;

/**
 * What a {@link DataSource}'s reader is built with.
 *
 * @param options      the user's options, case-insensitive, already validated by {@link DataSource#schema}
 * @param schema       the schema rows must follow: the user's if given, else the source's
 * @param metadataPath the source's private folder in the checkpoint ({@code <checkpoint>/sources/<i>}); it exists
 *                     and survives restarts. Keep here whatever is needed to replay a range (e.g. a staging log)
 * @param clock        the engine's clock, the only source of time a reader should use
 * @param queryId      the query's id, stable across restarts
 * @param bounded      true for a one-off read ({@code Sluice.read()}); {@code metadataPath} is then temporary
 */
public record DataSourceContext(Options options, StructType schema, Path metadataPath, SluiceClock clock,
                                String queryId, boolean bounded) {
}
