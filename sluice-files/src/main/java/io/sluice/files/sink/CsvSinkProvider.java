package io.sluice.files.sink;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

/**
 * {@code format("csv")}: the file sink writing CSV (atomic column types only) into the folder {@code path}, with Spark's
 * {@code _spark_metadata} manifest, idempotent per batch id. Options and guarantees: {@code docs/sinks/file.md}.
 * Needs a {@code checkpointLocation}.
 */
public final class CsvSinkProvider implements SinkProvider {

    @Override
    public String shortName() {
        return "csv";
    }

    @Override
    public OptionSet options() {
        return FileSinkOptionDefs.of(Format.CSV);
    }

    @Override
    public void validate(Options options) {
        FileSinkOptions.parse(Format.CSV, options);
    }

    @Override
    public Sink createSink(SinkContext context) {
        return FileSink.create(Format.CSV, context);
    }
}
