package io.sluice.core.state;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a partition's files go and the settings that govern them.
 *
 * @param dir                  the partition's folder, {@code <checkpoint>/state/<operatorId>/<partitionId>}
 *                             (absolute; may not exist yet) on a local checkpoint; null on a checkpoint on an object
 *                             store, where only {@link #location()} names it (the engine opens a store there only
 *                             when its provider {@link StateStoreProvider#keepsStateOnStorage() keeps its state on
 *                             storage})
 * @param location             the same folder as a URI string of {@code storage} ({@code s3a://lake/chk/state/0/3},
 *                             no {@code /} at the end), or the local path as a string
 * @param storage              the checkpoint's storage: {@link Storages#local()} for a local checkpoint, else the
 *                             object store's (the engine closes it, not the store)
 * @param minDeltasForSnapshot {@code spark.sql.streaming.stateStore.minDeltasForSnapshot} (default 10): deltas
 *                             since the last snapshot before maintenance writes a new one
 * @param minBatchesToRetain   {@code spark.sql.streaming.minBatchesToRetain} (default 100): the last versions that
 *                             must stay loadable
 * @param config               the whole engine configuration ({@code Sluice.builder().config}, keys as given),
 *                             for a store's own settings (e.g. {@code spark.sql.streaming.stateStore.rocksdb.*})
 */
public record StateStoreConf(Path dir, String location, Storage storage, int minDeltasForSnapshot,
                             int minBatchesToRetain, Map<String, String> config) {
    public StateStoreConf {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(storage, "storage");
        config = Map.copyOf(config);
        if (location.endsWith("/")) {
            location = location.substring(0, location.length() - 1);
        }
        if (minDeltasForSnapshot < 1 || minBatchesToRetain < 1) {
            throw new IllegalArgumentException("minDeltasForSnapshot and minBatchesToRetain must be at least 1");
        }
    }

    /** A partition on the local disk, in the folder {@code dir}. */
    public StateStoreConf(Path dir, int minDeltasForSnapshot, int minBatchesToRetain, Map<String, String> config) {
        this(dir.toAbsolutePath(), dir.toAbsolutePath().toString(), Storages.local(), minDeltasForSnapshot,
                minBatchesToRetain, config);
    }

    /**
     * A partition at {@code location} on {@code storage}: {@link #dir()} is the local path when the storage is the
     * local disk, else null.
     */
    public static StateStoreConf on(Storage storage, String location, int minDeltasForSnapshot,
                                    int minBatchesToRetain, Map<String, String> config) {
        Path dir = storage.localPath(location).map(Path::toAbsolutePath).orElse(null);
        return new StateStoreConf(dir, dir != null ? dir.toString() : location, storage, minDeltasForSnapshot,
                minBatchesToRetain, config);
    }

    /** True when the partition is on the local disk ({@link #dir()} is set). */
    public boolean isLocal() {
        return dir != null;
    }

    /** One configuration entry, key compared case-insensitively as Spark's conf keys are. */
    public Optional<String> get(String key) {
        return config.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(key))
                .map(Map.Entry::getValue).findFirst();
    }
}
