package io.sluice.api.sink;

import io.sluice.api.InvalidOptionException;
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
     * Checks the options before the query starts. Called by {@code start()} before anything is written.
     *
     * @throws InvalidOptionException for a missing or bad option
     */
    default void validate(Options options) {
    }

    /** Builds the sink for one run of a query. Called once per start, after {@link #validate}. */
    Sink createSink(SinkContext context);
}
