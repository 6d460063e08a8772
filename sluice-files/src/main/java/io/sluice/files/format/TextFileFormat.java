package io.sluice.files.format;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@code text}: one string column {@code value}, a row per line (or per file with wholetext). */
public final class TextFileFormat implements FileFormat, FileFormat.Writing {

    @Override
    public String name() {
        return "text";
    }

    @Override
    public OptionSet readOptions() {
        return FormatOptions.TEXT;
    }

    @Override
    public Optional<StructType> fixedSchema(Options options) {
        return Optional.of(TextFormat.SCHEMA);
    }

    @Override
    public void validate(Options options, StructType dataSchema) {
        new TextFormat(options);
        TextFormat.verifySchema(dataSchema);
    }

    @Override
    public FileFormatReader reader(Options options, StructType dataSchema) {
        return new TextFormat(options);
    }

    @Override
    public StructType infer(Options options, List<Path> sampleFiles) {
        return TextFormat.SCHEMA;
    }

    @Override
    public Optional<Writing> writing() {
        return Optional.of(this);
    }

    @Override
    public String extension() {
        return ".txt";
    }

    @Override
    public OptionSet options() {
        return OptionSet.none();
    }

    @Override
    public void checkColumns(StructType schema, int[] dataColumns) {
        if (dataColumns.length != 1) {
            throw new IllegalArgumentException("Text data source supports only a single column, and you have "
                    + dataColumns.length + " columns.");
        }
        StructField f = schema.field(dataColumns[0]);
        if (f.dataType() != AtomicType.STRING_TYPE) {
            throw FileFormats.cannotWrite("Text", f);
        }
    }
}
