package io.sluice.files.sink;

import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;

import java.util.Map;

/**
 * The file sink's encoder of each writable {@link FileFormat}, by the format's name: the one place the sink names
 * formats. A new writable format is its {@code FileFormat} (extension, options, column checks) and its encoder
 * registered here.
 */
final class SinkEncoders {
    /** Makes the encoders of one query, for the data columns of the schema. */
    interface Maker {
        RowEncoder.Factory make(StructType schema, int[] dataColumns, FileSinkOptions options);
    }

    private static final Map<String, Maker> BY_FORMAT = Map.of(
            "json", JsonEncoders::new,
            "csv", CsvEncoders::new,
            "text", (schema, dataColumns, options) -> new TextEncoders(dataColumns[0], options));

    private SinkEncoders() {
    }

    /** The encoders for the format's data columns; the columns were checked by its {@code Writing}. */
    static RowEncoder.Factory of(FileFormat format, StructType schema, int[] dataColumns, FileSinkOptions options) {
        Maker m = BY_FORMAT.get(format.name());
        if (m == null) {
            throw new IllegalArgumentException("The file sink cannot write format " + format.name());
        }
        return m.make(schema, dataColumns, options);
    }
}
