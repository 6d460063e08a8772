package io.sluice.api.datasource;

import io.sluice.api.Row;
import io.sluice.api.source.InputPartition;

import java.util.Iterator;
import java.util.List;

/**
 * A batch reader for one-off reads ({@code Sluice.read()}), the twin of PySpark's {@code DataSourceReader}. A reader
 * that is also {@link AutoCloseable} is closed by the engine when the read ends, also on failure.
 */
public interface DataSourceReader {

    /** The partitions of everything to read; one {@link io.sluice.api.source.InputPartition} by default. */
    default List<? extends InputPartition> partitions() {
        return List.of(new WholeInput());
    }

    /** The rows of one partition; closed by the engine when the iterator is {@link AutoCloseable}. */
    Iterator<Row> read(InputPartition partition);

    /** The single partition {@link #partitions()} returns by default. */
    record WholeInput() implements InputPartition {
    }
}
