package io.sluice.core.state;

import java.io.IOException;

/**
 * The store of one operator's state partition across the batches of a query run: it hands out one version at a
 * time. Used by one thread at a time.
 */
public interface StatePartition extends AutoCloseable {

    /** Which operator and partition this is. */
    StateStoreId id();

    /**
     * The state as committed at {@code version} (the version batch {@code version} starts from; 0 is empty, with
     * no file needed), open for updates that {@link StateStore#commit()} makes version {@code version + 1}. A
     * store handed out earlier and still open is aborted.
     *
     * @throws io.sluice.core.CorruptCheckpointException when a file the version needs is damaged or missing: the
     *         message names the file and the way out (restore the file, or start again on a new checkpoint)
     * @throws IOException on a read failure
     */
    StateStore load(long version) throws IOException;

    /**
     * Housekeeping after a commit: writes a snapshot when enough deltas have piled up
     * ({@link StateStoreConf#minDeltasForSnapshot()}), and deletes the files no longer needed to load any of the
     * last {@link StateStoreConf#minBatchesToRetain()} versions. Failures here must not lose a committed version;
     * the engine logs them and carries on.
     */
    void maintenance() throws IOException;

    /** Releases what the partition holds (memory, native handles); an uncommitted store is aborted. */
    @Override
    void close();
}
