package io.sluice.parquet;

import io.sluice.files.sink.FileSinkProvider;

/**
 * {@code format("parquet")} for the file sink: Parquet files as Spark writes them, with the {@code _spark_metadata}
 * manifest (docs/sinks/file.md, docs/formats/parquet.md). Found through
 * {@code META-INF/services/io.sluice.api.sink.SinkProvider}.
 */
public final class ParquetSinkProvider extends FileSinkProvider {

    public ParquetSinkProvider() {
        super(ParquetFileFormat.INSTANCE);
    }
}
