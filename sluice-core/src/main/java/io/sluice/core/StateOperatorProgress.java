package io.sluice.core;

import java.util.Map;

/**
 * The progress of one stateful operator in one batch, as Spark's {@code StateOperatorProgress}, written under
 * {@code stateOperators} in Spark's field order: sums over the operator's state partitions.
 *
 * @param operatorName              {@code stateStoreSave}, {@code dedupe} or {@code dedupeWithinWatermark}
 * @param numRowsTotal              keys in the state after the batch's commit
 * @param numRowsUpdated            keys written in the batch
 * @param allUpdatesTimeMs          time spent updating the state
 * @param numRowsRemoved            keys evicted by the watermark
 * @param allRemovalsTimeMs         time spent evicting (and emitting, in append mode)
 * @param commitTimeMs              time spent committing the stores
 * @param memoryUsedBytes           the stores' memory estimate
 * @param numRowsDroppedByWatermark rows (partial aggregates, for an aggregation) dropped as late
 * @param numShufflePartitions      {@code spark.sql.shuffle.partitions} of the query
 * @param numStateStoreInstances    stores of the operator (one per partition)
 * @param customMetrics             the stores' own figures, and {@code numDroppedDuplicateRows} for a
 *                                  deduplication; keys sorted in JSON
 */
public record StateOperatorProgress(String operatorName, long numRowsTotal, long numRowsUpdated,
                                    long allUpdatesTimeMs, long numRowsRemoved, long allRemovalsTimeMs,
                                    long commitTimeMs, long memoryUsedBytes, long numRowsDroppedByWatermark,
                                    long numShufflePartitions, long numStateStoreInstances,
                                    Map<String, Long> customMetrics) {
    public StateOperatorProgress {
        customMetrics = Map.copyOf(customMetrics);
    }
}
