package io.sluice.avro;

import io.sluice.files.sink.FileSinkProvider;

/**
 * {@code format("avro")} for the file sink: Avro files as spark-avro writes them, with the {@code _spark_metadata}
 * manifest (docs/sinks/file.md, docs/formats/avro.md). Found through
 * {@code META-INF/services/io.sluice.api.sink.SinkProvider}.
 */
public final class AvroSinkProvider extends FileSinkProvider {

    public AvroSinkProvider() {
        super(AvroFileFormat.INSTANCE);
    }
}
