package io.sluice.core.state;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where a partition's files go and the settings that govern them.
 *
 * @param dir                  the partition's folder, {@code <checkpoint>/state/<operatorId>/<partitionId>}
 *                             (absolute; may not exist yet)
 * @param minDeltasForSnapshot {@code spark.sql.streaming.stateStore.minDeltasForSnapshot} (default 10): deltas
 *                             since the last snapshot before maintenance writes a new one
 * @param minBatchesToRetain   {@code spark.sql.streaming.minBatchesToRetain} (default 100): the last versions that
 *                             must stay loadable
 * @param config               the whole engine configuration ({@code Sluice.builder().config}, keys as given),
 *                             for a store's own settings (e.g. {@code spark.sql.streaming.stateStore.rocksdb.*})
 */
public record StateStoreConf(Path dir, int minDeltasForSnapshot, int minBatchesToRetain, Map<String, String> config) {
    public StateStoreConf {
        config = Map.copyOf(config);
        if (minDeltasForSnapshot < 1 || minBatchesToRetain < 1) {
            throw new IllegalArgumentException("minDeltasForSnapshot and minBatchesToRetain must be at least 1");
        }
    }

    /** One configuration entry, key compared case-insensitively as Spark's conf keys are. */
    public Optional<String> get(String key) {
        return config.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(key))
                .map(Map.Entry::getValue).findFirst();
    }
}
