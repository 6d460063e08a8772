package io.sluice.api.datasource;

import io.sluice.api.Row;

import java.util.List;
import java.util.Objects;

/**
 * What {@link SimpleDataSourceStreamReader#read} returns: the new rows and the offset just after them.
 *
 * @param rows       the rows after the start, in order (copied)
 * @param nextOffset the offset after the last row; the start itself when there are no rows
 */
public record ReadResult<O>(List<Row> rows, O nextOffset) {
    public ReadResult {
        rows = List.copyOf(rows);
        Objects.requireNonNull(nextOffset, "nextOffset");
    }
}
