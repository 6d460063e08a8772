package io.sluice.files.format;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One file format of the file connector (json, csv, text, and formats of other modules such as parquet): its
 * name, its options, how it reads files and infers a schema, and how the file sink writes it. Each format is one
 * public implementation with a public no-argument constructor, listed in
 * {@code META-INF/services/io.sluice.files.format.FileFormat} and so found by {@link FileFormats#ALL}; the file
 * source and the file sink dispatch through it, never switching on the format's name. A format of another module
 * also registers its source and sink providers (subclasses of {@code FileSourceProvider} and
 * {@code FileSinkProvider} naming the format instance) and gives its own encoder
 * ({@link Writing#encoders}); the built-in formats' encoders are the sink's own.
 * (Not to be confused with the checkpoint's {@code io.sluice.core.checkpoint.FileFormat}, the engine's own log
 * file layout.) Implementations are stateless and thread-safe.
 */
public interface FileFormat {

    /** The short name users give to {@code format(..)}, lower case: {@code json}. */
    String name();

    /** The reading options, declared (docs/sources/file-formats.md); the file source adds its own. */
    OptionSet readOptions();

    /**
     * The schema the format always has for these options ({@code text}: {@code value string}), or empty when the
     * user must give one (or infer it).
     */
    default Optional<StructType> fixedSchema(Options options) {
        return Optional.empty();
    }

    /**
     * Checks every reading option and that the format can read the schema (see {@link FileFormats#validate}).
     *
     * @throws io.sluice.api.InvalidOptionException naming the option, the value and what is accepted
     * @throws IllegalArgumentException             for a schema the format cannot read
     */
    void validate(Options options, StructType dataSchema);

    /** A reader of files of this format into rows of {@code dataSchema}; options already validated. */
    FileFormatReader reader(Options options, StructType dataSchema);

    /**
     * Whether the file source may hand {@link #reader} only the data columns a read requires (column pruning:
     * the others read as null), for a source of these options and this data schema. Only when it gives the same
     * records as reading every column (a format whose rows are malformed or not by all their columns at once, as
     * JSON with the corrupt-record column, must not). False by default.
     */
    default boolean prunesColumns(Options options, StructType dataSchema) {
        return false;
    }

    /**
     * A reader as {@link #reader(Options, StructType)}, which may leave out rows that cannot match
     * {@code filters} (their AND; each on columns of {@code dataSchema}, with {@link ColumnFilter}'s semantics),
     * e.g. by skipping the parts of a file its statistics rule out. Inexact: it may return rows that do not
     * match, and the file source's host evaluates the filters again; it must never leave out one that matches.
     * By default the filters are not used.
     */
    default FileFormatReader reader(Options options, StructType dataSchema, List<ColumnFilter> filters) {
        return reader(options, dataSchema);
    }

    /** A schema inferred from sample files (see {@link FileFormats#infer}). */
    StructType infer(Options options, List<Path> sampleFiles) throws IOException;

    /** How the file sink writes this format, or empty for a format it cannot write. */
    default Optional<Writing> writing() {
        return Optional.empty();
    }

    /** The file sink's side of a format. The encoders themselves are the sink's (registered there by name). */
    interface Writing {
        /** The data files' extension, with its dot: {@code .json}. */
        String extension();

        /** The options the sink takes for this format besides the sink's own, declared (docs/sinks/file.md). */
        OptionSet options();

        /**
         * Checks that the format can write the data columns (the columns that are not {@code partitionBy} ones)
         * of {@code schema}, with Spark's message ({@code [UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE]}...).
         *
         * @throws IllegalArgumentException for a column the format cannot write
         */
        void checkColumns(StructType schema, int[] dataColumns);

        /**
         * The data files' extension for these sink options, with its dot; by default {@link #extension()}.
         * Parquet: {@code .snappy.parquet}, the codec in the name as Spark writes it.
         */
        default String extension(Options options) {
            return extension();
        }

        /**
         * Whether the format compresses inside its files (parquet): the sink then neither reads
         * {@code compression} / {@code codec} itself nor gzips the files; the format declares and checks them.
         */
        default boolean compressesItself() {
            return false;
        }

        /**
         * The format's own encoder for the data columns of {@code schema} (already checked), with the sink's
         * options; empty for the built-in formats, whose encoders the file sink holds.
         *
         * @throws io.sluice.api.InvalidOptionException for a bad option of the format (checked at validate time
         *                                              through {@link #checkOptions})
         */
        default Optional<FormatEncoder.Factory> encoders(StructType schema, int[] dataColumns, Options options) {
            return Optional.empty();
        }

        /**
         * Checks the sink options only this format reads (called from the sink's {@code validate}).
         *
         * @throws io.sluice.api.InvalidOptionException naming the option, the value and what is accepted
         */
        default void checkOptions(Options options) {
        }
    }
}
