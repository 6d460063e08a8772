package io.sluice.core.sinks;

import io.sluice.api.OptionSet;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

/** {@code format("memory")}: see {@link MemorySink}. The table is named by the query's {@code queryName}. */
public final class MemorySinkProvider implements SinkProvider {

    /** Takes every output mode, as Spark's equivalent sink. */
    @Override
    public boolean supportsOutputMode(String mode) {
        return true;
    }

    @Override
    public String shortName() {
        return "memory";
    }

    /** No options of its own (the engine's writer options apply). */
    @Override
    public OptionSet options() {
        return OptionSet.none();
    }

    /** The rows do not outlive the JVM, so a query may run on a temporary checkpoint. */
    @Override
    public boolean allowsTemporaryCheckpoint() {
        return true;
    }

    @Override
    public Sink createSink(SinkContext context) {
        return MemorySink.create(context);
    }
}
