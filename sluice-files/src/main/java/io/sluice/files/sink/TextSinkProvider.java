package io.sluice.files.sink;

import io.sluice.files.format.FileFormats;

/**
 * {@code format("text")}: the file sink writing text (exactly one string column besides the partition columns) into the folder {@code path}, with Spark's
 * {@code _spark_metadata} manifest, idempotent per batch id. Options and guarantees: {@code docs/sinks/file.md}.
 * Needs a {@code checkpointLocation}.
 */
public final class TextSinkProvider extends FileSinkProvider {

    public TextSinkProvider() {
        super(FileFormats.named("text"));
    }
}
