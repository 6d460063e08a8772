package io.sluice.files.format;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@code json}: JSON lines (whole-file JSON with multiLine), Spark's JSON data source. */
public final class JsonFileFormat implements FileFormat, FileFormat.Writing {

    @Override
    public String name() {
        return "json";
    }

    @Override
    public OptionSet readOptions() {
        return FormatOptions.JSON;
    }

    @Override
    public void validate(Options options, StructType dataSchema) {
        JsonSettings s = JsonSettings.of(options);
        for (StructField f : dataSchema.fields()) {
            if (!readable(f.dataType())) {
                throw new IllegalArgumentException("The JSON datasource doesn't support the column `" + f.name()
                        + "` of the type \"" + f.dataType().sql() + "\": JSON object keys are strings, so a map "
                        + "column needs string keys.");
            }
        }
        OptionValues.corruptIndex(dataSchema, s.corruptColumn);
    }

    private static boolean readable(DataType t) {
        if (t instanceof MapType m) {
            return m.keyType() == DataType.stringType() && readable(m.valueType());
        }
        if (t instanceof ArrayType a) {
            return readable(a.elementType());
        }
        if (t instanceof StructType s) {
            return s.fields().stream().allMatch(f -> readable(f.dataType()));
        }
        return true;
    }

    @Override
    public FileFormatReader reader(Options options, StructType dataSchema) {
        return new JsonFormat(JsonSettings.of(options), dataSchema);
    }

    /**
     * As Spark's JSON reader: only the required columns are parsed (a malformed value in another is then not
     * seen), unless the schema has the corrupt-record column, since a record is malformed or not by all of them.
     */
    @Override
    public boolean prunesColumns(Options options, StructType dataSchema) {
        return dataSchema.indexOf(options.get("columnNameOfCorruptRecord", "_corrupt_record")) < 0;
    }

    @Override
    public StructType infer(Options options, List<Path> sampleFiles) throws IOException {
        return JsonInference.infer(JsonSettings.of(options), sampleFiles);
    }

    @Override
    public Optional<Writing> writing() {
        return Optional.of(this);
    }

    @Override
    public String extension() {
        return ".json";
    }

    @Override
    public OptionSet options() {
        return FormatOptions.JSON_WRITE;
    }

    @Override
    public void checkColumns(StructType schema, int[] dataColumns) {
        // Every type has a JSON form.
    }
}
