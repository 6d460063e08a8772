package io.sluice.files.sink;

import io.sluice.files.format.FileFormats;

/**
 * {@code format("csv")}: the file sink writing CSV (atomic column types only) into the folder {@code path}, with Spark's
 * {@code _spark_metadata} manifest, idempotent per batch id. Options and guarantees: {@code docs/sinks/file.md}.
 * Needs a {@code checkpointLocation}.
 */
public final class CsvSinkProvider extends FileSinkProvider {

    public CsvSinkProvider() {
        super(FileFormats.named("csv"));
    }
}
