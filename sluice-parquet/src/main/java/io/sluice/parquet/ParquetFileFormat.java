package io.sluice.parquet;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.FormatEncoder;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code parquet}: Spark's Parquet data source for the file source and the file sink (docs/formats/parquet.md).
 * Found through {@code META-INF/services/io.sluice.files.format.FileFormat}; its providers are
 * {@link ParquetSourceProvider} and {@link ParquetSinkProvider}. Stateless and thread-safe.
 */
public final class ParquetFileFormat implements FileFormat, FileFormat.Writing {
    /** The one instance the providers hand to the file source and sink. */
    static final ParquetFileFormat INSTANCE = new ParquetFileFormat();

    @Override
    public String name() {
        return "parquet";
    }

    static final String MERGE_SCHEMA = "mergeSchema";
    private static final OptionSet READ_OPTIONS = OptionSet.of(OptionDef.bool(MERGE_SCHEMA, false,
            "with inferSchema: the union of every sample file's schema"),
            OptionDef.oneOf(CalendarRebase.DATETIME_REBASE_MODE, "CORRECTED", CalendarRebase.MODES,
                    "dates and INT64 timestamps of files without a Spark version: their calendar"),
            OptionDef.oneOf(CalendarRebase.INT96_REBASE_MODE, "CORRECTED", CalendarRebase.MODES,
                    "INT96 timestamps of files without a Spark version: their calendar"),
            OptionDef.oneOf(CalendarRebase.DATETIME_CONF, "CORRECTED", CalendarRebase.MODES,
                    "Spark's conf: datetimeRebaseMode when that option is not set"),
            OptionDef.oneOf(CalendarRebase.INT96_CONF, "CORRECTED", CalendarRebase.MODES,
                    "Spark's conf: int96RebaseMode when that option is not set"));

    /**
     * {@code mergeSchema}, the rebase modes ({@code datetimeRebaseMode}, {@code int96RebaseMode} and Spark's confs
     * {@code spark.sql.parquet.*RebaseModeInRead}); the file source's own options (inferSchema,
     * ignoreCorruptFiles...) apply too.
     */
    @Override
    public OptionSet readOptions() {
        return READ_OPTIONS;
    }

    @Override
    public void validate(Options options, StructType dataSchema) {
        // Every Sluice type has a Parquet form; a file's mismatching column fails when the file is read.
        options.getBoolean(MERGE_SCHEMA, false);
        CalendarRebase.Configured.of(options);
    }

    @Override
    public FileFormatReader reader(Options options, StructType dataSchema) {
        return new ParquetReading(dataSchema, CalendarRebase.Configured.of(options));
    }

    /** Columns are chunks of their own: a read decodes only the columns it requires. */
    @Override
    public boolean prunesColumns(Options options, StructType dataSchema) {
        return true;
    }

    /** Row groups the filters rule out by their statistics (dictionaries, bloom filters) are not read. */
    @Override
    public FileFormatReader reader(Options options, StructType dataSchema,
                                   List<io.sluice.api.source.ColumnFilter> filters) {
        return new ParquetReading(dataSchema, CalendarRebase.Configured.of(options), filters);
    }

    /**
     * The schema of the newest sample file's footer (Spark's {@code mergeSchema=false} takes one file's schema
     * too), converted as Spark's {@code ParquetToSparkSchemaConverter} does; with {@code mergeSchema=true} the
     * union of every sample file's schema, merged as Spark's {@code StructType.merge}.
     */
    @Override
    public StructType infer(Options options, List<Path> sampleFiles) throws IOException {
        if (sampleFiles.isEmpty()) {
            return StructType.empty();
        }
        boolean merge = options.getBoolean(MERGE_SCHEMA, false);
        StructType schema = null;
        for (Path file : merge ? sampleFiles : sampleFiles.subList(0, 1)) {
            StructType one = footerSchema(file);
            schema = schema == null ? one : ParquetSchemas.merge(schema, one);
        }
        return schema;
    }

    private static StructType footerSchema(Path file) throws IOException {
        ParquetReadOptions ro = org.apache.parquet.SluiceReadOptions.of(ParquetCodecs.INSTANCE);
        try (ParquetFileReader r = ParquetFileReader.open(ObjectInputFile.of(file), ro)) {
            return ParquetSchemas.toSluice(r.getFooter().getFileMetaData().getSchema());
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw ParquetReading.footerError(file, e);
        }
    }

    @Override
    public Optional<Writing> writing() {
        return Optional.of(this);
    }

    @Override
    public String extension() {
        return ".snappy.parquet";
    }

    @Override
    public String extension(Options options) {
        return ParquetSinkSettings.of(options).extension();
    }

    @Override
    public boolean compressesItself() {
        return true;
    }

    @Override
    public OptionSet options() {
        return ParquetSinkSettings.OPTIONS;
    }

    @Override
    public void checkColumns(StructType schema, int[] dataColumns) {
        // Every Sluice type has a Parquet form.
    }

    @Override
    public void checkOptions(Options options) {
        ParquetSinkSettings.of(options);
    }

    @Override
    public Optional<FormatEncoder.Factory> encoders(StructType schema, int[] dataColumns, Options options) {
        return Optional.of(new ParquetRowWriter(schema, dataColumns, ParquetSinkSettings.of(options)));
    }
}
