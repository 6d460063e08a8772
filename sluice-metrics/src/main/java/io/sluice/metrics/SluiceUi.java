package io.sluice.metrics;

import io.sluice.core.Sluice;

import java.util.function.UnaryOperator;

/**
 * The web UI of one {@link Sluice} instance: a {@link SluiceServer} that also serves, at {@code GET /}, a single page
 * of the process's running and finished queries (rates, batch durations by phase, rows per batch, source lag, the
 * latest progress, the checkpoint's batches, a failed query's error). The page reads only the REST API
 * ({@code /api/v1/}) of the same server, polling it every second; its files (and the uPlot chart library, from its
 * WebJar) come from the jar, so it works with no network. {@code /metrics} and the API are served as by
 * {@link SluiceServer}.
 *
 * <p>{@code Sluice.builder().ui(port)} starts one with the {@code Sluice} and stops it in {@code close()}: the
 * engine finds it through ServiceLoader ({@link SluiceUiProvider}), as it cannot name this module, which depends on
 * it. These methods start one beside a {@code Sluice} instead, with more settings.
 */
public final class SluiceUi {

    private SluiceUi() {
    }

    /** Serves the UI on {@code 127.0.0.1:port} (this machine only; port 0: any free port). */
    public static SluiceServer start(Sluice sluice, int port) {
        return start(sluice, "127.0.0.1", port);
    }

    /** Serves the UI on {@code host:port}, keeping 100 progress objects of each query run. */
    public static SluiceServer start(Sluice sluice, String host, int port) {
        return start(sluice, host, port, SluiceMetrics.DEFAULT_RECENT_PROGRESS, null);
    }

    /**
     * As {@link SluiceServer#start(Sluice, String, int, int, UnaryOperator)}, with the UI.
     *
     * @throws java.io.UncheckedIOException when the address cannot be bound
     */
    public static SluiceServer start(Sluice sluice, String host, int port, int recentProgress,
                                     UnaryOperator<String> redact) {
        return SluiceServer.start(sluice, host, port, recentProgress, redact, true);
    }
}
