package io.sluice.parquet;

import io.sluice.files.source.FileSourceProvider;

/**
 * {@code format("parquet")} for the file source: Parquet files from a folder or glob as they appear, with the
 * file source's options and guarantees (docs/sources/file.md) and docs/formats/parquet.md. Found through
 * {@code META-INF/services/io.sluice.api.source.SourceProvider}.
 */
public final class ParquetSourceProvider extends FileSourceProvider {

    public ParquetSourceProvider() {
        super(ParquetFileFormat.INSTANCE);
    }
}
