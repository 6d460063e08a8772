package io.sluice.python;

import io.sluice.api.source.InputPartition;

import java.util.Arrays;

/**
 * One Python {@code InputPartition}, as the planning worker pickled it; a reading worker unpickles it for
 * {@code read(partition)}. Equal when the pickles are equal.
 */
record PythonPartition(byte[] pickle) implements InputPartition {
    @Override
    public boolean equals(Object o) {
        return o instanceof PythonPartition p && Arrays.equals(pickle, p.pickle);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(pickle);
    }

    @Override
    public String toString() {
        return "PythonPartition[" + pickle.length + " bytes]";
    }
}
