package io.sluice.api.datasource;

/**
 * A {@link DataSourceStreamReader} that can drain what is available at start in several batches under its read
 * limit, for the availableNow trigger (PySpark 4.2's {@code SupportsTriggerAvailableNow}). Without it the engine
 * takes everything available at start as one batch.
 */
public interface SupportsAvailableNow {

    /**
     * Fix the target now: from here on {@code latestOffset(start, limit)} must never go beyond what is available at
     * this moment, while still honouring the limit. Called once, before the first {@code latestOffset}.
     */
    void prepareForTriggerAvailableNow();
}
