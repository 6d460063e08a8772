package io.sluice.avro;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.FormatEncoder;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code avro}: spark-avro's data source for the file source and the file sink (docs/formats/avro.md). Found
 * through {@code META-INF/services/io.sluice.files.format.FileFormat}; its providers are {@link AvroSourceProvider}
 * and {@link AvroSinkProvider}. Stateless and thread-safe.
 */
public final class AvroFileFormat implements FileFormat, FileFormat.Writing {
    private static final Logger LOG = LoggerFactory.getLogger(AvroFileFormat.class);
    /** The one instance the providers hand to the file source and sink. */
    static final AvroFileFormat INSTANCE = new AvroFileFormat();

    @Override
    public String name() {
        return "avro";
    }

    /** spark-avro's reading options; the file source's own options (inferSchema, ignoreCorruptFiles...) apply too. */
    @Override
    public OptionSet readOptions() {
        return AvroOptionDefs.READ;
    }

    @Override
    public void validate(Options options, StructType dataSchema) {
        AvroOptionDefs.Read read = AvroOptionDefs.Read.of(options);
        if (read.avroSchema() != null) {
            // The columns must fit the reader schema, which every file is resolved to: check it before any file.
            AvroToSluice.compile(read.avroSchema(), dataSchema, read.positional());
        }
    }

    @Override
    public FileFormatReader reader(Options options, StructType dataSchema) {
        return new AvroReading(dataSchema, AvroOptionDefs.Read.of(options));
    }

    /**
     * The struct of {@code avroSchema} when given; else of the first sample file (the newest) that opens as an Avro
     * file, as Spark's {@code AvroUtils.inferSchema} takes one file's schema (with {@code ignoreExtension=false}
     * only {@code .avro} files; with {@code ignoreCorruptFiles} a file that does not open is skipped).
     */
    @Override
    public StructType infer(Options options, List<Path> sampleFiles) throws IOException {
        AvroOptionDefs.Read read = AvroOptionDefs.Read.of(options);
        if (read.avroSchema() != null) {
            return AvroSchemas.toStructType(read.avroSchema(), read.settings());
        }
        if (sampleFiles.isEmpty()) {
            return StructType.empty();
        }
        boolean ignoreCorrupt = options.getBoolean("ignoreCorruptFiles", false);
        for (Path file : sampleFiles) {
            if (!read.ignoreExtension() && !file.getFileName().toString().endsWith(".avro")) {
                continue;
            }
            try (DataFileReader<Object> r = new DataFileReader<>(AvroInputs.open(file),
                    new GenericDatumReader<>())) {
                return AvroSchemas.toStructType(r.getSchema(), read.settings());
            } catch (IOException e) {
                if (!ignoreCorrupt) {
                    throw new IOException("Could not read file: " + file.toUri(), e);
                }
                LOG.warn("Skipped the footer in the corrupted file: {}", file.toUri(), e);
            }
        }
        throw new FileNotFoundException("No Avro files found. If files don't have .avro extension, set "
                + "ignoreExtension to true");
    }

    @Override
    public Optional<Writing> writing() {
        return Optional.of(this);
    }

    /** Spark names Avro files {@code part-...-c000.<codec>.avro}: {@code .snappy.avro} by default. */
    @Override
    public String extension() {
        return ".snappy.avro";
    }

    /** {@code .<codec>.avro} ({@code .zstandard.avro}...), {@code .avro} when uncompressed, as Spark names them. */
    @Override
    public String extension(Options options) {
        return AvroOptionDefs.Write.of(options).extension();
    }

    @Override
    public boolean compressesItself() {
        return true;
    }

    @Override
    public OptionSet options() {
        return AvroOptionDefs.WRITE;
    }

    /** Every Sluice type has an Avro form but a map whose keys are not strings (Spark's message). */
    @Override
    public void checkColumns(StructType schema, int[] dataColumns) {
        for (int c : dataColumns) {
            AvroSchemas.toAvroType(schema.field(c).dataType(), schema.field(c).nullable());
        }
    }

    @Override
    public void checkOptions(Options options) {
        AvroOptionDefs.Write.of(options);
    }

    @Override
    public Optional<FormatEncoder.Factory> encoders(StructType schema, int[] dataColumns, Options options) {
        return Optional.of(new AvroWriting(schema, dataColumns, AvroOptionDefs.Write.of(options)));
    }
}
