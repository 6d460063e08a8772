package io.sluice.core.sources;

import io.sluice.api.Row;
import io.sluice.api.source.PartitionReader;

import java.util.List;

/** Reads the rows of a list, in order. */
final class RowListReader implements PartitionReader {
    private final List<Row> rows;
    private int index = -1;

    RowListReader(List<Row> rows) {
        this.rows = rows;
    }

    @Override
    public boolean next() {
        if (index + 1 < rows.size()) {
            index++;
            return true;
        }
        index = rows.size();
        return false;
    }

    @Override
    public Row get() {
        return rows.get(index);
    }

    @Override
    public void close() {
    }
}
