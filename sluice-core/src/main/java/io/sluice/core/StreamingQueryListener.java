package io.sluice.core;

import java.util.UUID;

/**
 * Receives the life-cycle events of every query of a {@link Sluice} instance, as Spark's
 * {@code StreamingQueryListener}. Register with {@link Sluice#addListener}.
 *
 * <p>{@link #onQueryStarted} is called synchronously by {@code start()}, before it returns. The other events are
 * delivered in order, per query, on one named listener thread ({@code sluice-listener-bus}); a slow listener
 * delays other listeners, never the queries. An exception thrown by a listener is logged and ignored.
 */
public abstract class StreamingQueryListener {

    public abstract void onQueryStarted(QueryStartedEvent event);

    /** After each executed batch (not after an empty trigger). */
    public abstract void onQueryProgress(QueryProgressEvent event);

    /** A trigger found no new data; at most once per 10 seconds per query. */
    public void onQueryIdle(QueryIdleEvent event) {
    }

    public abstract void onQueryTerminated(QueryTerminatedEvent event);

    /** @param timestamp the start time, ISO-8601 UTC */
    public record QueryStartedEvent(UUID id, UUID runId, String name, String timestamp) {
    }

    public record QueryProgressEvent(StreamingQueryProgress progress) {
    }

    /** @param timestamp the idle trigger's start, ISO-8601 UTC */
    public record QueryIdleEvent(UUID id, UUID runId, String timestamp) {
    }

    /** @param exception the failure's message and stack trace, or null when the query stopped cleanly */
    public record QueryTerminatedEvent(UUID id, UUID runId, String exception) {
    }
}
