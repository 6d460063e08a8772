package io.sluice.files.format;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@code csv}: Spark's CSV data source (univocity's rules as Spark sets them). */
public final class CsvFileFormat implements FileFormat, FileFormat.Writing {

    @Override
    public String name() {
        return "csv";
    }

    @Override
    public OptionSet readOptions() {
        return FormatOptions.CSV;
    }

    @Override
    public void validate(Options options, StructType dataSchema) {
        CsvSettings s = CsvSettings.of(options);
        for (StructField f : dataSchema.fields()) {
            DataType t = f.dataType();
            if (t instanceof StructType || t instanceof ArrayType || t instanceof MapType) {
                throw new IllegalArgumentException("The CSV datasource doesn't support the column `" + f.name()
                        + "` of the type \"" + t.sql() + "\".");
            }
        }
        OptionValues.corruptIndex(dataSchema, s.corruptColumn);
    }

    @Override
    public FileFormatReader reader(Options options, StructType dataSchema) {
        return new CsvFormat(CsvSettings.of(options), dataSchema);
    }

    @Override
    public StructType infer(Options options, List<Path> sampleFiles) throws IOException {
        return CsvInference.infer(CsvSettings.of(options), options.get("dateFormat").orElse(null), sampleFiles);
    }

    @Override
    public Optional<Writing> writing() {
        return Optional.of(this);
    }

    @Override
    public String extension() {
        return ".csv";
    }

    @Override
    public OptionSet options() {
        return FormatOptions.CSV_WRITE;
    }

    @Override
    public void checkColumns(StructType schema, int[] dataColumns) {
        for (int c : dataColumns) {
            StructField f = schema.field(c);
            if (!(f.dataType() instanceof AtomicType || f.dataType() instanceof DecimalType)) {
                throw FileFormats.cannotWrite("CSV", f);
            }
        }
    }
}
