package io.sluice.core.state;

import io.sluice.api.io.Storage;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * The default state store: each partition's state held in a hash map, with a delta file per commit
 * ({@code <version>.delta}) and, every {@code minDeltasForSnapshot} versions, a snapshot ({@code <version>.snapshot}),
 * as Spark's {@code HDFSBackedStateStoreProvider} lays them out (its name selects this store too), in a local
 * checkpoint's folder or as objects of a checkpoint on an object store. The file encoding
 * is Sluice's own (see {@link MemoryStatePartition}). For state that fits in memory; larger state wants a store
 * that spills (RocksDB).
 */
public final class MemoryStateStoreProvider implements StateStoreProvider {
    /** Spark's class name of its default store, accepted as a name of this one. */
    public static final String SPARK_NAME = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";

    /** For {@link java.util.ServiceLoader}. */
    public MemoryStateStoreProvider() {
    }

    @Override
    public List<String> names() {
        return List.of(MemoryStateStoreProvider.class.getName(), SPARK_NAME);
    }

    /**
     * Counted by reading the files the version needs (the snapshot at or before it and the deltas after), when they
     * hold at most {@value #COUNT_LIMIT_BYTES} bytes: a small state's count is cheap, a large one's is not.
     */
    @Override
    public OptionalLong numRows(Path dir, long version) {
        return MemoryStatePartition.numRows(dir, version, COUNT_LIMIT_BYTES);
    }

    /** {@link #numRows(Path, long)} on any storage: the same files, read through it. */
    @Override
    public OptionalLong numRows(Storage storage, String location, long version) {
        return MemoryStatePartition.numRows(storage, location, version, COUNT_LIMIT_BYTES);
    }

    /** Its files go through {@link StateStoreConf#storage()}: it works on a checkpoint on S3. */
    @Override
    public boolean keepsStateOnStorage() {
        return true;
    }

    /** The most bytes of files {@link #numRows} reads. */
    static final long COUNT_LIMIT_BYTES = 16L << 20;

    @Override
    public StatePartition open(StateStoreId id, StateStoreConf conf) throws IOException {
        return new MemoryStatePartition(id, conf);
    }
}
