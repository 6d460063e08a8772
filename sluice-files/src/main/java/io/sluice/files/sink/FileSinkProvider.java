package io.sluice.files.sink;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.files.format.FileFormat;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The file sink of one format: files of the format in the folder {@code path}, with Spark's
 * {@code _spark_metadata} manifest, idempotent per batch id; needs a {@code checkpointLocation}. Options and
 * guarantees: {@code docs/sinks/file.md}. The public providers ({@link JsonSinkProvider}, {@link CsvSinkProvider},
 * {@link TextSinkProvider}, and those of formats in other modules, such as sluice-parquet's) only name their
 * format; a subclass is registered in {@code META-INF/services/io.sluice.api.sink.SinkProvider} with a public
 * no-argument constructor. Stateless and thread-safe.
 */
public abstract class FileSinkProvider implements SinkProvider {
    private final FileFormat format;

    /**
     * The sink of {@code format}, used as given (not looked up by name).
     *
     * @throws IllegalArgumentException if the format cannot be written
     */
    protected FileSinkProvider(FileFormat format) {
        if (format.writing().isEmpty()) {
            throw new IllegalArgumentException("The file sink cannot write format " + format.name());
        }
        this.format = format;
    }

    @Override
    public final String shortName() {
        return format.name();
    }

    @Override
    public final OptionSet options() {
        return FileSinkOptionDefs.of(format);
    }

    @Override
    public final void validate(Options options) {
        FileSinkOptions.parse(format, options);
    }

    @Override
    public final Optional<Path> localOutputFolder(Options options) {
        return Optional.ofNullable(FileSinkOptions.parse(format, options).outputDir); // none on an object store
    }

    @Override
    public final Sink createSink(SinkContext context) {
        if (!io.sluice.api.io.Storages.isLocal(context.options().get("path").orElse(""))) {
            return StoredFileSink.create(format, context);
        }
        return FileSink.create(format, context);
    }
}
