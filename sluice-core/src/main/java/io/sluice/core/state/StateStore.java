package io.sluice.core.state;

import java.io.IOException;
import java.util.Iterator;

/**
 * One version of one state partition, being updated by one batch. Reads see this batch's own updates. Keys and
 * values are compared and kept by content: the store copies neither, so callers must not change an array after
 * handing it over, nor change one it was given.
 */
public interface StateStore {

    /** The version loaded ({@link StatePartition#load}); {@link #commit()} writes {@code version() + 1}. */
    long version();

    /** The value of a key, or null. */
    byte[] get(byte[] key);

    /** Sets a key's value (neither may be null). */
    void put(byte[] key, byte[] value);

    /** Removes a key; nothing happens for a key that is absent. */
    void remove(byte[] key);

    /**
     * Every entry of the current view (the loaded version with this batch's updates), in no particular order.
     * The store must not be changed while the iterator is used, but through {@link Iterator#remove()} where the
     * iterator supports it.
     */
    Iterator<StateEntry> iterator();

    /** How many keys the current view holds. */
    long numKeys();

    /**
     * Makes the current view version {@code version() + 1}, durably (fsynced) before returning; the store is
     * then done with.
     *
     * @return the version written
     */
    long commit() throws IOException;

    /** Drops this batch's updates; nothing is written. Safe to call after a commit (it does nothing then). */
    void abort();

    /** Whether {@link #commit()} returned. */
    boolean hasCommitted();

    /** Size figures for progress ({@code stateOperators}); valid before and after the commit. */
    StateStoreMetrics metrics();
}
