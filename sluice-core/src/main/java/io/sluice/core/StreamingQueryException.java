package io.sluice.core;

import java.util.UUID;

/** A query stopped because of a failure; {@link #getCause()} is what failed. */
public final class StreamingQueryException extends Exception {
    private static final long serialVersionUID = 1L;
    private final UUID queryId;
    private final UUID runId;

    public StreamingQueryException(String message, Throwable cause, UUID queryId, UUID runId) {
        super(message, cause);
        this.queryId = queryId;
        this.runId = runId;
    }

    public UUID queryId() {
        return queryId;
    }

    public UUID runId() {
        return runId;
    }
}
