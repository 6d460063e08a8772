package io.sluice.core;

import java.net.InetSocketAddress;

/**
 * The web UI of a {@link Sluice} instance, for {@link Sluice.Builder#ui(String, int)}: found through
 * {@link java.util.ServiceLoader} on the builder's class loader ({@code META-INF/services/io.sluice.core.UiProvider}),
 * so the engine does not depend on the module that serves it (sluice-metrics provides one).
 */
public interface UiProvider {

    /** A running UI: where it listens; {@link #close()} stops it and joins its threads. */
    interface Server extends AutoCloseable {
        /** The bound address, with the actual port when 0 was asked. */
        InetSocketAddress address();

        @Override
        void close();
    }

    /**
     * Starts serving the UI of {@code sluice}'s queries (those running and those started later) on
     * {@code host:port}, off every query thread.
     *
     * @throws java.io.UncheckedIOException when the address cannot be bound
     */
    Server start(Sluice sluice, String host, int port);
}
