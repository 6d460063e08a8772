package io.sluice.avro;

import io.sluice.files.source.FileSourceProvider;

/**
 * {@code format("avro")} for the file source: Avro object container files from a folder or glob as they appear,
 * with the file source's options and guarantees (docs/sources/file.md) and docs/formats/avro.md. Found through
 * {@code META-INF/services/io.sluice.api.source.SourceProvider}.
 */
public final class AvroSourceProvider extends FileSourceProvider {

    public AvroSourceProvider() {
        super(AvroFileFormat.INSTANCE);
    }
}
