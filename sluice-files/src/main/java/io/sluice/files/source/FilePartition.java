package io.sluice.files.source;

import io.sluice.api.source.InputPartition;

import java.io.Serializable;
import java.util.List;

/**
 * Whole files read by one reader, in log order. Each file carries its layout (which schema columns come from
 * {@code key=value} folders) and those columns' values, already cast.
 */
record FilePartition(List<Slice> files) implements InputPartition {
    private static final long serialVersionUID = 1L;

    record Slice(String uri, long logOffset, long size, String layout, List<Object> partitionValues) implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
