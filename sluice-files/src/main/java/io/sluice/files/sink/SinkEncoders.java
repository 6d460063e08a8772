package io.sluice.files.sink;

import io.sluice.api.Options;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;
import io.sluice.files.format.FormatEncoder;

import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The file sink's encoder of each writable {@link FileFormat}: the format's own
 * ({@link FileFormat.Writing#encoders}, formats of other modules), else the sink's built-in one of json, csv and
 * text, by name (the one place the sink names formats). A new format of another module needs no change here.
 */
final class SinkEncoders {
    /** Makes the encoders of one query, for the data columns of the schema. */
    interface Maker {
        RowEncoder.Factory make(StructType schema, int[] dataColumns, FileSinkOptions options);
    }

    /** A format's encoder: the check of its own options (when the sink's options are checked), and its maker. */
    private record Encoding(Consumer<Options> checkOptions, Maker maker) {
    }

    private static final Map<String, Encoding> BY_FORMAT = Map.of(
            "json", new Encoding(o -> { }, JsonEncoders::new),
            "csv", new Encoding(FileSinkOptions::csvSettings, CsvEncoders::new),
            "text", new Encoding(o -> { }, (schema, dataColumns, options) -> new TextEncoders(dataColumns[0],
                    options)));

    private SinkEncoders() {
    }

    /**
     * Checks the options only the format's encoder reads (csv: sep, quote, escape...).
     *
     * @throws io.sluice.api.InvalidOptionException naming the option, the value and what is accepted
     */
    static void checkOptions(FileFormat format, Options options) {
        format.writing().ifPresent(w -> w.checkOptions(options));
        Encoding e = BY_FORMAT.get(format.name());
        if (e != null) {
            e.checkOptions().accept(options);
        }
    }

    /** The encoders for the format's data columns; the columns were checked by its {@code Writing}. */
    static FormatEncoder.Factory of(FileFormat format, StructType schema, int[] dataColumns,
                                    FileSinkOptions options) {
        Optional<FormatEncoder.Factory> own = options.writing.encoders(schema, dataColumns, options.raw);
        if (own.isPresent()) {
            return own.get();
        }
        return encoding(format).maker().make(schema, dataColumns, options);
    }

    private static Encoding encoding(FileFormat format) {
        Encoding e = BY_FORMAT.get(format.name());
        if (e == null) {
            throw new IllegalArgumentException("The file sink cannot write format " + format.name());
        }
        return e;
    }
}
