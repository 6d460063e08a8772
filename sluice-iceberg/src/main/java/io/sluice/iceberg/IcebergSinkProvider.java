package io.sluice.iceberg;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

/**
 * {@code format("iceberg")} / {@code toTable(name)} as a sink: appends each batch in one Iceberg commit, exactly
 * once per batch id as iceberg-spark does (the query id and batch id in the snapshot summary, checked against the
 * table's ancestors before each commit); creates a missing table with the stream's schema and {@code partitionBy}
 * identity partitions.
 */
public final class IcebergSinkProvider implements SinkProvider {

    @Override
    public String shortName() {
        return "iceberg";
    }

    @Override
    public OptionSet options() {
        return IcebergOptions.SINK;
    }

    @Override
    public void validate(Options options) {
        IcebergOptions.SINK.validate(options);
        try (IcebergTables t = IcebergTables.of(options)) {
            t.describe();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public Sink createSink(SinkContext context) {
        return new IcebergSink(context);
    }
}
