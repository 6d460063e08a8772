package io.sluice.api.source;

/**
 * A stream that can drain what is available at start under its read limits, in several batches, for the
 * availableNow trigger.
 *
 * <p>Without this interface the engine takes {@code latestOffset(start, allAvailable)} once at start as the
 * target and runs it as one batch, as Spark does for such sources.
 */
public interface SupportsTriggerAvailableNow extends MicroBatchStream {

    /**
     * Fix the target now: from here on {@link #latestOffset} must never return a position beyond what is
     * available at this moment, while still honouring its read limit. Called once, before the first
     * {@code latestOffset} of an availableNow run (also when a logged batch is re-run first).
     */
    void prepareForTriggerAvailableNow();
}
