package io.sluice.files.source;

import io.sluice.api.Options;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.FileFormats;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The format parsers as the file source uses them: {@link FileFormats}, or a stand-in in tests. */
interface Formats {

    /** The format's reading options. */
    default io.sluice.api.OptionSet options(String format) {
        return FileFormats.options(format);
    }

    Optional<StructType> fixedSchema(String format, Options options);

    void validate(String format, Options options, StructType dataSchema);

    FileFormatReader reader(String format, Options options, StructType dataSchema);

    /** A reader that may use the filters ({@link FileFormat#reader(Options, StructType, List)}); not by default. */
    default FileFormatReader reader(String format, Options options, StructType dataSchema,
                                    List<ColumnFilter> filters) {
        return reader(format, options, dataSchema);
    }

    /** {@link FileFormat#prunesColumns}; JSON without the corrupt-record column by default (the stand-ins). */
    default boolean prunesColumns(String format, Options options, StructType schema) {
        return format.equals("json")
                && schema.indexOf(options.get("columnNameOfCorruptRecord", "_corrupt_record")) < 0;
    }

    StructType infer(String format, Options options, List<Path> sampleFiles);

    /** The parsers of this one format, whatever name is asked for (a format not in {@link FileFormats#ALL}). */
    static Formats of(FileFormat f) {
        return new Formats() {
            @Override
            public io.sluice.api.OptionSet options(String format) {
                return f.readOptions();
            }

            @Override
            public Optional<StructType> fixedSchema(String format, Options options) {
                return f.fixedSchema(options);
            }

            @Override
            public void validate(String format, Options options, StructType dataSchema) {
                f.validate(options, dataSchema);
            }

            @Override
            public FileFormatReader reader(String format, Options options, StructType dataSchema) {
                f.validate(options, dataSchema);
                return f.reader(options, dataSchema);
            }

            @Override
            public FileFormatReader reader(String format, Options options, StructType dataSchema,
                                           List<ColumnFilter> filters) {
                f.validate(options, dataSchema);
                return f.reader(options, dataSchema, filters);
            }

            @Override
            public boolean prunesColumns(String format, Options options, StructType schema) {
                return f.prunesColumns(options, schema);
            }

            @Override
            public StructType infer(String format, Options options, List<Path> sampleFiles) {
                return FileFormats.infer(f, options, sampleFiles);
            }
        };
    }

    /** The real parsers. */
    Formats DEFAULT = new Formats() {
        @Override
        public Optional<StructType> fixedSchema(String format, Options options) {
            return FileFormats.fixedSchema(format, options);
        }

        @Override
        public void validate(String format, Options options, StructType dataSchema) {
            FileFormats.validate(format, options, dataSchema);
        }

        @Override
        public FileFormatReader reader(String format, Options options, StructType dataSchema) {
            return FileFormats.reader(format, options, dataSchema);
        }

        @Override
        public FileFormatReader reader(String format, Options options, StructType dataSchema,
                                       List<ColumnFilter> filters) {
            return FileFormats.reader(format, options, dataSchema, filters);
        }

        @Override
        public boolean prunesColumns(String format, Options options, StructType schema) {
            return FileFormats.named(format).prunesColumns(options, schema);
        }

        @Override
        public StructType infer(String format, Options options, List<Path> sampleFiles) {
            return FileFormats.infer(format, options, sampleFiles);
        }
    };
}
