package io.sluice.metrics;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.core.Sluice;

/**
 * A metrics system that Sluice pushes its meters to, found through {@link java.util.ServiceLoader} (listed in
 * {@code META-INF/services/io.sluice.metrics.MetricsExporter}), so that the command line can offer one whose library
 * lives in a plugin jar: the OTLP exporter of the module sluice-otlp ({@code sluice run --otlp-endpoint}) is one.
 */
public interface MetricsExporter {

    /** The exporter's short name, e.g. {@code otlp}. */
    String name();

    /** Its settings, declared once: names, types, defaults, docs. */
    OptionSet options();

    /**
     * Checks {@code options} against {@link #options()} and starts pushing the meters of every query of
     * {@code sluice} (those running and those started later).
     *
     * @return the running export; closing it pushes once more, stops its thread and removes its meters
     * @throws io.sluice.api.InvalidOptionException naming the setting, the value and what is accepted
     */
    AutoCloseable start(Sluice sluice, Options options);
}
