package io.sluice.core.sinks;

import io.sluice.api.OptionSet;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

/** {@code format("noop")}: see {@link NoopSink}. No options. */
public final class NoopSinkProvider implements SinkProvider {

    /** Takes every output mode, as Spark's equivalent sink. */
    @Override
    public boolean supportsOutputMode(String mode) {
        return true;
    }

    @Override
    public String shortName() {
        return "noop";
    }

    /** No options of its own (the engine's writer options apply). */
    @Override
    public OptionSet options() {
        return OptionSet.none();
    }

    /** Nothing is written, so a query may run on a temporary checkpoint. */
    @Override
    public boolean allowsTemporaryCheckpoint() {
        return true;
    }

    @Override
    public Sink createSink(SinkContext context) {
        return new NoopSink();
    }
}
