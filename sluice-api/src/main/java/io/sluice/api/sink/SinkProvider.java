package io.sluice.api.sink;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;

/**
 * Makes sinks of one kind, found by its {@link #shortName()} (the {@code format(..)} of {@code writeStream()}),
 * discovered through {@link java.util.ServiceLoader} ({@code META-INF/services/io.sluice.api.sink.SinkProvider}).
 * Instances must be stateless and thread-safe.
 */
public interface SinkProvider {

    /** The name users pass to {@code format(..)}, e.g. {@code "memory"}. Compared case-insensitively. */
    String shortName();

    /**
     * The options this sink takes, declared once (name, type, default, validator, doc), without the engine's own
     * writer options ({@code checkpointLocation}, {@code queryName}, {@code minBatchesToRetain}, {@code path}),
     * which the engine declares. Before {@link #validate} the engine checks every given option name against both
     * (case-insensitive), as for sources (see {@code SourceProvider.options()}). The default,
     * {@link OptionSet#undeclared()}, makes no check at all.
     */
    default OptionSet options() {
        return OptionSet.undeclared();
    }

    /**
     * Checks the options before the query starts. Called by {@code start()} before anything is written.
     *
     * @throws InvalidOptionException for a missing or bad option
     */
    default void validate(Options options) {
    }

    /**
     * True when a query may run without a {@code checkpointLocation}: the engine then uses a temporary folder,
     * deleted when the query stops cleanly, and warns that the query cannot recover. For sinks whose output does
     * not outlive the JVM (memory, noop, console). False by default.
     */
    default boolean allowsTemporaryCheckpoint() {
        return false;
    }

    /** Builds the sink for one run of a query. Called once per start, after {@link #validate}. */
    Sink createSink(SinkContext context);
}
