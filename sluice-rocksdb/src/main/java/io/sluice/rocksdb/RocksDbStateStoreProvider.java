package io.sluice.rocksdb;

import io.sluice.core.state.StatePartition;
import io.sluice.core.state.StateStoreConf;
import io.sluice.core.state.StateStoreId;
import io.sluice.core.state.StateStoreProvider;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * The RocksDB state store: each partition's state in a local RocksDB instance (on disk, so state may outgrow the
 * heap), checkpointed at every commit as Spark's {@code RocksDBStateStoreProvider} does: the new SST files copied
 * once under {@code SSTs/}, and a {@code <version>.zip} holding the rest of the database's files and the list of
 * SST files the version needs. Chosen with {@code spark.sql.streaming.stateStore.providerClass} set to this
 * class's name or to Spark's provider's. See {@link RocksDbStatePartition} and docs/stateful.md.
 */
public final class RocksDbStateStoreProvider implements StateStoreProvider {
    /** Spark's class name of its RocksDB store, accepted as a name of this one. */
    public static final String SPARK_NAME = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

    /** For {@link java.util.ServiceLoader}. */
    public RocksDbStateStoreProvider() {
    }

    @Override
    public List<String> names() {
        return List.of(RocksDbStateStoreProvider.class.getName(), SPARK_NAME);
    }

    /** {@code numKeys} of the version's {@code N.zip} metadata: one small zip entry, whatever the state's size. */
    @Override
    public OptionalLong numRows(Path dir, long version) {
        return RocksDbStatePartition.numKeys(dir, version);
    }

    @Override
    public StatePartition open(StateStoreId id, StateStoreConf conf) throws IOException {
        return new RocksDbStatePartition(id, conf);
    }
}
