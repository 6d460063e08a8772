package io.sluice.files.format;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The file formats the file source reads: {@code json} (JSON lines; multiLine), {@code csv}, {@code text}.
 * Entry points used by the file source; the parsing itself lives in package-private classes.
 */
public final class FileFormats {
    /** The format names, lower case. */
    public static final Set<String> NAMES = Set.of("json", "csv", "text");

    private FileFormats() {
    }

    /**
     * The schema the format always has for these options ({@code text}: {@code value string}), or empty when the
     * user must give one.
     */
    public static Optional<StructType> fixedSchema(String format, Options options) {
        throw new UnsupportedOperationException("being written");
    }

    /**
     * Checks every format option (mode, columnNameOfCorruptRecord, sep, quote, timestampFormat...).
     *
     * @throws InvalidOptionException naming the option, the value and what is accepted
     */
    public static void validate(String format, Options options, StructType dataSchema) {
        throw new UnsupportedOperationException("being written");
    }

    /** A reader for files of this format into rows of {@code dataSchema}. Validates first. */
    public static FileFormatReader reader(String format, Options options, StructType dataSchema) {
        throw new UnsupportedOperationException("being written");
    }

    /**
     * Infers a schema from sample files, for users who opt in ({@code inferSchema}); unsafe across restarts, as
     * the files seen at start decide the schema.
     */
    public static StructType infer(String format, Options options, List<Path> sampleFiles) {
        throw new UnsupportedOperationException("being written");
    }
}
