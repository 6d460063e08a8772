package io.sluice.files.sink;

import io.sluice.files.format.FileFormats;

/**
 * {@code format("json")}: the file sink writing JSON lines (one object per row) into the folder {@code path}, with Spark's
 * {@code _spark_metadata} manifest, idempotent per batch id. Options and guarantees: {@code docs/sinks/file.md}.
 * Needs a {@code checkpointLocation}.
 */
public final class JsonSinkProvider extends FileSinkProvider {

    public JsonSinkProvider() {
        super(FileFormats.named("json"));
    }
}
