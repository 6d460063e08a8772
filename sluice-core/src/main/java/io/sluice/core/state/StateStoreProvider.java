package io.sluice.core.state;

import io.sluice.api.io.Storage;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * A kind of state store, found with {@link java.util.ServiceLoader} and chosen by
 * {@code spark.sql.streaming.stateStore.providerClass}. Implementations must be thread-safe: the engine opens the
 * partitions of a query from several threads.
 */
public interface StateStoreProvider {

    /** Spark's key that chooses the provider (a name of {@link #names()}); pinned in the offset log's conf. */
    String PROVIDER_CLASS_KEY = "spark.sql.streaming.stateStore.providerClass";
    /** Spark's key: deltas since the last snapshot before maintenance writes one (default 10). */
    String MIN_DELTAS_FOR_SNAPSHOT_KEY = "spark.sql.streaming.stateStore.minDeltasForSnapshot";
    /** Spark's key: versions that stay loadable (default 100); also the logs' retention. */
    String MIN_BATCHES_TO_RETAIN_KEY = "spark.sql.streaming.minBatchesToRetain";

    /**
     * The names {@code spark.sql.streaming.stateStore.providerClass} may give for this store, compared exactly;
     * the first is the one the engine logs and writes in the offset log. Typically the class name, and Spark's
     * provider's class name for the equivalent Spark store (e.g.
     * {@code org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider}), so a Spark setting works
     * unchanged.
     */
    List<String> names();

    /**
     * Opens the store of one state partition of one operator, for the rest of the query's run. Opening reads
     * nothing that {@link StatePartition#load} does not need; it may create {@link StateStoreConf#dir()}. On a
     * checkpoint on an object store ({@link StateStoreConf#isLocal()} false, {@link StateStoreConf#dir()} null) the
     * engine calls it only when {@link #keepsStateOnStorage()} is true.
     *
     * @throws IOException when the folder cannot be read or created
     */
    StatePartition open(StateStoreId id, StateStoreConf conf) throws IOException;

    /**
     * Whether this store keeps its state through {@link StateStoreConf#storage()} at
     * {@link StateStoreConf#location()}, so that it works on a checkpoint on an object store (S3). A store that
     * writes local files only ({@link StateStoreConf#dir()}, e.g. a RocksDB instance) answers false, and the engine
     * refuses it on such a checkpoint before the query starts, naming {@link #PROVIDER_CLASS_KEY}, the store and
     * the checkpoint. The default: false.
     */
    default boolean keepsStateOnStorage() {
        return false;
    }

    /**
     * The rows (keys) of one partition's committed {@code version}, when this store can tell them without loading
     * the state (for {@code sluice checkpoint show}); empty when it cannot, cheaply. Reads only, takes no lock and
     * may run beside the query that writes {@code dir}; a file it cannot read gives empty. The default: empty.
     *
     * @param dir the partition's folder, {@code <checkpoint>/state/<operatorId>/<partitionId>}
     */
    default OptionalLong numRows(Path dir, long version) {
        return OptionalLong.empty();
    }

    /**
     * {@link #numRows(Path, long)} for a partition at {@code location} on {@code storage} (a URI of an object store,
     * or a local path). Same rules: reads only, empty when it cannot tell cheaply. The default: the local answer on
     * the local disk, empty on an object store.
     */
    default OptionalLong numRows(Storage storage, String location, long version) {
        return storage.localPath(location).map(p -> numRows(p, version)).orElse(OptionalLong.empty());
    }
}
