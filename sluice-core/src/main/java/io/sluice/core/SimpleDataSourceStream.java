package io.sluice.core;

import java.util.Optional;
import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.datasource.ReadResult;
import io.sluice.api.datasource.SimpleDataSourceStreamReader;
import io.sluice.api.datasource.SourceContractException;
import io.sluice.api.source.DriverLocalReaders;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.types.StructType;

import java.util.List;

/**
 * The engine's stream over a {@link SimpleDataSourceStreamReader}, as PySpark runs one: planning a batch calls
 * {@code read(start)} and keeps its rows for that range; a range not planned in this run (a batch re-run after a
 * restart) is read with {@code readBetweenOffsets}. One partition per batch; read limits do not apply.
 *
 * <p>Its readers are {@link DriverLocalReaders}: a fresh stream elsewhere could only call
 * {@code readBetweenOffsets}, which the simple contract allows to depend on what this side staged (the changes
 * example keeps a staging log in its metadata folder; a naive reader has nothing and would return no rows).
 */
final class SimpleDataSourceStream implements MicroBatchStream, DriverLocalReaders {
    private final String name;
    @SuppressWarnings("rawtypes")
    private final SimpleDataSourceStreamReader reader;
    private final Class<?> type;
    private final StructType schema;
    private ValueOffset lastLatest;
    /** The rows of the range planned last, until it is committed. */
    private volatile Planned planned;

    private record Planned(String start, String end, List<Row> rows) {
    }

    /** The whole range of one batch. */
    record Range(String startJson, String endJson) implements InputPartition {
    }

    SimpleDataSourceStream(String name, SimpleDataSourceStreamReader<?> reader, StructType schema) {
        this.name = name;
        this.reader = reader;
        this.schema = schema;
        Class<?> t = reader.offsetType();
        this.type = t == null ? Object.class : t;
    }

    @Override
    public Offset initialOffset() {
        return ValueOffset.of(name, "initialOffset()", reader.initialOffset(), type);
    }

    @Override
    public Offset deserializeOffset(String json) {
        return ValueOffset.read(name, Offset.of(json), type);
    }

    @Override
    public Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        return ValueOffset.wentBackwards(previousEnd, end);
    }

    @SuppressWarnings("unchecked")
    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        ValueOffset s = ValueOffset.read(name, start, type);
        ReadResult<Object> r = reader.read(s.value());
        if (r == null) {
            throw new SourceContractException("Data source '" + name + "': read(" + s.json() + ") returned null");
        }
        ValueOffset end = ValueOffset.of(name, "read(start)", r.nextOffset(), type);
        if (end.json().equals(s.json())) {
            if (!r.rows().isEmpty()) {
                throw new SourceContractException("Data source '" + name + "': read(" + s.json() + ") returned "
                        + r.rows().size() + " rows but its next offset is the start; the offset must move past them");
            }
            return s;
        }
        ValueOffset.checkForward(name, "read(start)", lastLatest, s, end);
        lastLatest = end;
        planned = new Planned(s.json(), end.json(), r.rows());
        return end;
    }

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        return List.of(new Range(start.json(), end.json()));
    }

    @SuppressWarnings("unchecked")
    @Override
    public PartitionReader createReader(InputPartition partition) {
        Range range = (Range) partition;
        Planned p = planned;
        List<Row> rows;
        if (p != null && p.start().equals(range.startJson()) && p.end().equals(range.endJson())) {
            rows = p.rows();
        } else {
            Object s = ValueOffset.read(name, Offset.of(range.startJson()), type).value();
            Object e = ValueOffset.read(name, Offset.of(range.endJson()), type).value();
            rows = reader.readBetweenOffsets(s, e);
            if (rows == null) {
                throw new SourceContractException("Data source '" + name + "': readBetweenOffsets("
                        + range.startJson() + ", " + range.endJson() + ") returned null");
            }
        }
        return new IteratorReader(name, rows.iterator(), schema);
    }

    @SuppressWarnings("unchecked")
    @Override
    public void commit(Offset end) {
        reader.commit(ValueOffset.read(name, end, type).value());
        Planned p = planned;
        if (p != null && p.end().equals(end.json())) {
            planned = null;
        }
    }

    @Override
    public void stop() {
        planned = null;
        reader.stop();
    }

    @Override
    public String driverLocalReason() {
        return "it is a simple DataSource: SimpleDataSourceStreamReader.read(start) reads each batch's rows on the "
                + "query thread and keeps them in that stream, and readBetweenOffsets may replay them only from what "
                + "that side staged; implement streamReader(context) instead, whose read(partition) depends on the "
                + "partition and the options alone";
    }

    @Override
    public String description() {
        return "DataSource[" + name + "]";
    }
}
