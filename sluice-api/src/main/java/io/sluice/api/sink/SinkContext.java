package io.sluice.api.sink;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.types.StructType;

import java.nio.file.Path;

/**
 * What the engine hands a {@link SinkProvider}.
 *
 * @param options         the user's sink options
 * @param schema          the schema of the rows the sink will receive
 * @param checkpointPath  the query's checkpoint folder (a sink may keep state under {@code <checkpoint>/sinks/})
 * @param queryId         the checkpoint's query id (stable across restarts)
 * @param queryName       the query's name, or null
 * @param clock           the engine's clock
 */
public record SinkContext(Options options, StructType schema, Path checkpointPath, String queryId,
                          String queryName, SluiceClock clock) {
}
