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
 * {@code format("text")}: the file sink writing text (exactly one string column besides the partition columns) into the folder {@code path}, with Spark's
 * {@code _spark_metadata} manifest, idempotent per batch id. Options and guarantees: {@code docs/sinks/file.md}.
 * Needs a {@code checkpointLocation}.
 */
public final class TextSinkProvider implements SinkProvider {
    private static final FileFormat FORMAT = FileFormats.named("text");

    @Override
    public String shortName() {
        return "text";
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
