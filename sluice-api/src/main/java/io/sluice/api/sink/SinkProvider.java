package io.sluice.api.sink;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;

import java.nio.file.Path;
import java.util.Optional;

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

    /**
     * The local folder this sink writes into, if it writes files: the engine refuses, at {@code start()}, a
     * query whose source reads that folder, a folder inside it or a folder containing it
     * ({@link io.sluice.api.source.SourceProvider#localInputFolder}), since it would read its own output. Called
     * after {@link #validate}. Empty by default (no check).
     */
    default Optional<Path> localOutputFolder(Options options) {
        return Optional.empty();
    }

    /**
     * Whether the sink takes rows in this output mode of a stateful query: {@code "append"} (always true),
     * {@code "update"} or {@code "complete"}, where rows of an aggregate group are written again as the group
     * changes. The default takes append only, as Spark's file sink; sinks that can take updates (memory, console,
     * foreachBatch...) say so. A refused mode fails the query's start with Spark's message
     * {@code Data source <name> does not support <Mode> output mode}.
     */
    default boolean supportsOutputMode(String mode) {
        return "append".equals(mode);
    }

    /** Builds the sink for one run of a query. Called once per start, after {@link #validate}. */
    Sink createSink(SinkContext context);
}
