package io.sluice.files.sink;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.files.format.FileFormat;
import io.sluice.files.format.FileFormats;

import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code format("csv")}: the file sink writing CSV (atomic column types only) into the folder {@code path}, with Spark's
 * {@code _spark_metadata} manifest, idempotent per batch id. Options and guarantees: {@code docs/sinks/file.md}.
 * Needs a {@code checkpointLocation}.
 */
public final class CsvSinkProvider implements SinkProvider {
    private static final FileFormat FORMAT = FileFormats.named("csv");

    @Override
    public String shortName() {
        return "csv";
    }

    @Override
    public OptionSet options() {
        return FileSinkOptionDefs.of(FORMAT);
    }

    @Override
    public void validate(Options options) {
        FileSinkOptions.parse(FORMAT, options);
    }

    @Override
    public Optional<Path> localOutputFolder(Options options) {
        return Optional.of(FileSinkOptions.parse(FORMAT, options).outputDir);
    }

    @Override
    public Sink createSink(SinkContext context) {
        return FileSink.create(FORMAT, context);
    }
}
