package io.sluice.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/** Delivers listener events in order on one named thread, so a slow listener never blocks a query. */
final class ListenerBus implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerBus.class);
    private final List<StreamingQueryListener> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(Sluice.named("sluice-listener-bus-"));

    void add(StreamingQueryListener l) {
        listeners.add(l);
    }

    void remove(StreamingQueryListener l) {
        listeners.remove(l);
    }

    /** Calls every listener now, on the caller's thread (onQueryStarted is synchronous, as in Spark). */
    void postNow(Consumer<StreamingQueryListener> event) {
        listeners.forEach(l -> deliver(l, event));
    }

    void post(Consumer<StreamingQueryListener> event) {
        if (listeners.isEmpty()) {
            return;
        }
        try {
            thread.execute(() -> listeners.forEach(l -> deliver(l, event)));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("Listener event dropped: the Sluice instance is closed");
        }
    }

    private static void deliver(StreamingQueryListener l, Consumer<StreamingQueryListener> event) {
        try {
            event.accept(l);
        } catch (RuntimeException e) {
            LOG.warn("Streaming query listener {} failed; the event is skipped for it", l, e);
        }
    }

    @Override
    public void close() {
        thread.shutdown();
    }
}
