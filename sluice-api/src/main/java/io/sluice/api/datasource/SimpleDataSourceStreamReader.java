package io.sluice.api.datasource;

import io.sluice.api.Row;

import java.util.List;

/**
 * A stream reader without partitioning, for small sources: the Java twin of PySpark's
 * {@code SimpleDataSourceStreamReader}. The engine calls {@link #read(Object)} on the query thread to plan a
 * batch and keeps its rows in memory for that batch; after a restart it replays a logged batch with
 * {@link #readBetweenOffsets}, which must therefore return exactly the rows {@code read} returned for that range.
 *
 * <p>Read limits do not apply (as in PySpark): {@code read} decides how much one batch takes. Under availableNow
 * the engine takes one batch.
 *
 * <p>Rows are read where the query runs, so engines that read partitions in other processes (the Spark bridge)
 * refuse a simple reader ({@link io.sluice.api.source.DriverLocalReaders}); use {@link DataSourceStreamReader} for
 * a source that should scale out.
 *
 * @param <O> the offset type (see {@link DataSourceStreamReader})
 */
public interface SimpleDataSourceStreamReader<O> {

    /** The class offsets are read back as; see {@link DataSourceStreamReader#offsetType()}. */
    default Class<?> offsetType() {
        return Object.class;
    }

    /** The position before any data; see {@link DataSourceStreamReader#initialOffset()}. */
    O initialOffset();

    /**
     * The rows after {@code start} available now and the offset just after them; return {@code start} as the next
     * offset, with no rows, when there is nothing new.
     */
    ReadResult<O> read(O start);

    /** The rows of {@code (start, end]} again, exactly as {@link #read} returned them: used to replay a batch. */
    List<Row> readBetweenOffsets(O start, O end);

    /** Everything up to {@code end} is durably processed and may be released. Idempotent. */
    default void commit(O end) {
    }

    /** The run is over. */
    default void stop() {
    }
}
