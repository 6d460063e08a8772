package io.sluice.core.state;

import java.util.Map;

/**
 * A store's figures for a batch's progress ({@code stateOperators[]}).
 *
 * @param numKeys         keys in the current view ({@code numRowsTotal} once committed)
 * @param memoryUsedBytes an estimate of the memory the version holds ({@code memoryUsedBytes})
 * @param customMetrics   the store's own figures by name ({@code customMetrics}, e.g. Spark's
 *                        {@code loadedMapCacheHitCount}); summed across partitions by the engine
 */
public record StateStoreMetrics(long numKeys, long memoryUsedBytes, Map<String, Long> customMetrics) {
    public StateStoreMetrics {
        customMetrics = Map.copyOf(customMetrics);
    }
}
