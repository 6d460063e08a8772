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

    /**
     * Append and complete (an overwrite of the whole table per batch), as iceberg-spark; update is refused at start
     * (iceberg-spark's table refuses it when the query starts writing: {@code does not support Update mode}).
     */
    @Override
    public boolean supportsOutputMode(String mode) {
        return "append".equals(mode) || "complete".equals(mode);
    }

    @Override
    public Sink createSink(SinkContext context) {
        return new IcebergSink(context);
    }
}
