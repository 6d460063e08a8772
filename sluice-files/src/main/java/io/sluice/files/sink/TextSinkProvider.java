package io.sluice.files.sink;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

/**
 * {@code format("text")}: the file sink writing text (exactly one string column besides the partition columns) into the folder {@code path}, with Spark's
 * {@code _spark_metadata} manifest, idempotent per batch id. Options and guarantees: {@code docs/sinks/file.md}.
 * Needs a {@code checkpointLocation}.
 */
public final class TextSinkProvider implements SinkProvider {

    @Override
    public String shortName() {
        return "text";
    }

    @Override
    public OptionSet options() {
        return FileSinkOptionDefs.of(Format.TEXT);
    }

    @Override
    public void validate(Options options) {
        FileSinkOptions.parse(Format.TEXT, options);
    }

    @Override
    public Sink createSink(SinkContext context) {
        return FileSink.create(Format.TEXT, context);
    }
}
