package io.sluice.files.format;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The file formats the file source reads: {@code json} (JSON lines; multiLine), {@code csv}, {@code text}, with
 * Spark's options, parse modes and value rules (docs/sources/file-formats.md lists them all).
 * Entry points used by the file source; the parsing itself lives in package-private classes. Format names are
 * matched case-insensitively; option keys are case-insensitive and options of other layers are ignored.
 */
public final class FileFormats {
    /** The format names, lower case. */
    public static final Set<String> NAMES = Set.of("json", "csv", "text");

    private FileFormats() {
    }

    /**
     * The reading options of the format, declared (docs/sources/file-formats.md); the file source adds its own.
     *
     * @throws IllegalArgumentException for an unknown format
     */
    public static OptionSet options(String format) {
        return switch (name(format)) {
            case "json" -> FormatOptions.JSON;
            case "csv" -> FormatOptions.CSV;
            default -> FormatOptions.TEXT;
        };
    }

    /**
     * The schema the format always has for these options ({@code text}: {@code value string}), or empty when the
     * user must give one.
     */
    public static Optional<StructType> fixedSchema(String format, Options options) {
        return name(format).equals("text") ? Optional.of(TextFormat.SCHEMA) : Optional.empty();
    }

    /**
     * Checks every format option (mode, columnNameOfCorruptRecord, sep, quote, timestampFormat...) and that the
     * format can read the schema (csv: no struct, array or map columns; text: a single string column; json: map
     * keys of type string; the corrupt-record column, when present, a nullable string).
     *
     * @throws InvalidOptionException   naming the option, the value and what is accepted
     * @throws IllegalArgumentException for an unknown format or a schema the format cannot read
     */
    public static void validate(String format, Options options, StructType dataSchema) {
        switch (name(format)) {
            case "json" -> {
                JsonSettings s = JsonSettings.of(options);
                checkJsonTypes(dataSchema);
                OptionValues.corruptIndex(dataSchema, s.corruptColumn);
            }
            case "csv" -> {
                CsvSettings s = CsvSettings.of(options);
                checkCsvTypes(dataSchema);
                OptionValues.corruptIndex(dataSchema, s.corruptColumn);
            }
            default -> {
                new TextFormat(options);
                TextFormat.verifySchema(dataSchema);
            }
        }
    }

    /** A reader for files of this format into rows of {@code dataSchema}. Validates first. */
    public static FileFormatReader reader(String format, Options options, StructType dataSchema) {
        validate(format, options, dataSchema);
        return switch (name(format)) {
            case "json" -> new JsonFormat(JsonSettings.of(options), dataSchema);
            case "csv" -> new CsvFormat(CsvSettings.of(options), dataSchema);
            default -> new TextFormat(options);
        };
    }

    /**
     * Infers a schema from sample files, for users who opt in ({@code inferSchema}); unsafe across restarts, as
     * the files seen at start decide the schema. json: Spark's JSON inference (fields sorted by name; bigint,
     * double, decimal, boolean, string, array, struct; timestamps only with {@code inferTimestamp}); csv: names
     * from the header ({@code _c0, _c1...} without one), types only with the option {@code inferSchema=true}
     * (else all string); text: {@code value string}. No sample files give an empty schema (text: its fixed one).
     *
     * @throws UncheckedIOException     when a sample file cannot be read
     * @throws IllegalArgumentException in FAILFAST mode, on a malformed JSON record
     */
    public static StructType infer(String format, Options options, List<Path> sampleFiles) {
        try {
            return switch (name(format)) {
                case "json" -> JsonInference.infer(JsonSettings.of(options), sampleFiles);
                case "csv" -> CsvInference.infer(CsvSettings.of(options), options.get("dateFormat").orElse(null),
                        sampleFiles);
                default -> TextFormat.SCHEMA;
            };
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot infer the schema: " + e.getMessage(), e);
        }
    }

    private static String name(String format) {
        String n = format == null ? "" : format.toLowerCase(Locale.ROOT);
        if (!NAMES.contains(n)) {
            throw new IllegalArgumentException("Unknown file format '" + format + "': json, csv or text is accepted");
        }
        return n;
    }

    private static void checkCsvTypes(StructType schema) {
        for (StructField f : schema.fields()) {
            DataType t = f.dataType();
            if (t instanceof StructType || t instanceof ArrayType || t instanceof MapType) {
                throw new IllegalArgumentException("The CSV datasource doesn't support the column `" + f.name()
                        + "` of the type \"" + t.sql() + "\".");
            }
        }
    }

    private static void checkJsonTypes(StructType schema) {
        for (StructField f : schema.fields()) {
            if (!jsonReadable(f.dataType())) {
                throw new IllegalArgumentException("The JSON datasource doesn't support the column `" + f.name()
                        + "` of the type \"" + f.dataType().sql() + "\": JSON object keys are strings, so a map "
                        + "column needs string keys.");
            }
        }
    }

    private static boolean jsonReadable(DataType t) {
        if (t instanceof MapType m) {
            return m.keyType() == DataType.stringType() && jsonReadable(m.valueType());
        }
        if (t instanceof ArrayType a) {
            return jsonReadable(a.elementType());
        }
        if (t instanceof StructType s) {
            return s.fields().stream().allMatch(f -> jsonReadable(f.dataType()));
        }
        return true;
    }
}
