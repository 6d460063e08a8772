package io.sluice.files.format;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The file formats the file source reads: {@code json} (JSON lines; multiLine), {@code csv}, {@code text}, with
 * Spark's options, parse modes and value rules (docs/sources/file-formats.md lists them all).
 * Entry points used by the file source, each dispatching to the format's {@link FileFormat} (one per format,
 * registered in {@link #ALL} through ServiceLoader); the parsing itself lives in package-private classes. Format names are
 * matched case-insensitively; option keys are case-insensitive and options of other layers are ignored.
 */
public final class FileFormats {
    /**
     * Every format, one {@link FileFormat} each, found with {@link ServiceLoader} on this class's class loader
     * ({@code META-INF/services/io.sluice.files.format.FileFormat}): the built-in json, csv and text first, as
     * listed in sluice-files' own service file, then the others on the class path (sluice-parquet...). A format
     * in a plugin jar (another class loader) is not here: its source and sink providers hand their
     * {@code FileFormat} to the file source and sink themselves.
     */
    public static final List<FileFormat> ALL = load();
    /** The format names, lower case. */
    public static final Set<String> NAMES = ALL.stream().map(FileFormat::name)
            .collect(Collectors.toUnmodifiableSet());
    private static final Map<String, FileFormat> BY_NAME = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(FileFormat::name, f -> f));

    private FileFormats() {
    }

    private static List<FileFormat> load() {
        List<FileFormat> builtIn = new ArrayList<>();
        List<FileFormat> others = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (FileFormat f : ServiceLoader.load(FileFormat.class, FileFormats.class.getClassLoader())) {
            if (!seen.add(f.name())) {
                throw new IllegalStateException("Two file formats are named '" + f.name() + "': "
                        + f.getClass().getName() + " and another on the class path");
            }
            (f.getClass().getPackage() == FileFormats.class.getPackage() ? builtIn : others).add(f);
        }
        builtIn.addAll(others);
        return List.copyOf(builtIn);
    }

    /**
     * The format of this name (case-insensitive).
     *
     * @throws IllegalArgumentException for an unknown format, naming the accepted ones
     */
    public static FileFormat named(String format) {
        FileFormat f = BY_NAME.get(format == null ? "" : format.toLowerCase(Locale.ROOT));
        if (f == null) {
            throw new IllegalArgumentException("Unknown file format '" + format + "': " + accepted() + " is accepted");
        }
        return f;
    }

    /** "json, csv or text": the names in registration order. */
    private static String accepted() {
        List<String> names = ALL.stream().map(FileFormat::name).toList();
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /**
     * The reading options of the format, declared (docs/sources/file-formats.md); the file source adds its own.
     *
     * @throws IllegalArgumentException for an unknown format
     */
    public static OptionSet options(String format) {
        return named(format).readOptions();
    }

    /**
     * The schema the format always has for these options ({@code text}: {@code value string}), or empty when the
     * user must give one.
     */
    public static Optional<StructType> fixedSchema(String format, Options options) {
        return named(format).fixedSchema(options);
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
        named(format).validate(options, dataSchema);
    }

    /** A reader for files of this format into rows of {@code dataSchema}. Validates first. */
    public static FileFormatReader reader(String format, Options options, StructType dataSchema) {
        FileFormat f = named(format);
        f.validate(options, dataSchema);
        return f.reader(options, dataSchema);
    }

    /**
     * A reader for files of this format into rows of {@code dataSchema}, which may use {@code filters}
     * ({@link FileFormat#reader(Options, StructType, List)}). Validates first.
     */
    public static FileFormatReader reader(String format, Options options, StructType dataSchema,
                                          List<io.sluice.api.source.ColumnFilter> filters) {
        FileFormat f = named(format);
        f.validate(options, dataSchema);
        return f.reader(options, dataSchema, filters);
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
        return infer(named(format), options, sampleFiles);
    }

    /** {@link #infer(String, Options, List)} with this format. */
    public static StructType infer(FileFormat f, Options options, List<Path> sampleFiles) {
        try {
            return f.infer(options, sampleFiles);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot infer the schema: " + e.getMessage(), e);
        }
    }

    /** Spark's message for a column a format cannot write; {@code displayName} as Spark names it ("CSV"). */
    static IllegalArgumentException cannotWrite(String displayName, StructField f) {
        return new IllegalArgumentException("[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The " + displayName
                + " datasource doesn't support the column `" + f.name().replace("`", "``") + "` of the type \""
                + f.dataType().sql() + "\".");
    }
}
