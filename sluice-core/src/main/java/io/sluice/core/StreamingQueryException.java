package io.sluice.core;

import java.util.UUID;

/**
 * A query stopped because of a failure; {@link #getCause()} is what failed. The engine also logs the failure, at
 * ERROR with its stack trace, on the logger {@value #FAILURE_LOGGER}.
 */
public final class StreamingQueryException extends Exception {
    /**
     * The SLF4J logger a query's failure is logged on (a child of {@code io.sluice.core.MicroBatchExecution}, so
     * settings for that logger or {@code io.sluice} apply to it too). An application that reports the failure
     * itself, from {@code awaitTermination()} or {@code exception()}, may turn this logger off to show it once.
     */
    public static final String FAILURE_LOGGER = "io.sluice.core.MicroBatchExecution.QueryFailure";
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
