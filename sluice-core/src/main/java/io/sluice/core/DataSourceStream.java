package io.sluice.core;

import java.util.Optional;
import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.api.datasource.SupportsAvailableNow;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import io.sluice.api.types.StructType;

import java.util.List;

/**
 * The engine's stream over a {@link DataSourceStreamReader}: offsets become {@link ValueOffset}s (checked to
 * round-trip through JSON and never to go backwards), partitions are checked to be serializable.
 */
class DataSourceStream implements MicroBatchStream {
    private final String name;
    @SuppressWarnings("rawtypes")
    final DataSourceStreamReader reader;
    private final Class<?> type;
    private final StructType schema;
    /** The last latest offset returned in this run, so one going backwards is caught. */
    private ValueOffset lastLatest;

    DataSourceStream(String name, DataSourceStreamReader<?> reader, StructType schema) {
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

    @Override
    public ReadLimit defaultReadLimit() {
        ReadLimit l = reader.defaultReadLimit();
        return l == null ? ReadLimit.allAvailable() : l;
    }

    @SuppressWarnings("unchecked")
    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        ValueOffset s = ValueOffset.read(name, start, type);
        Object v = reader.latestOffset(s.value(), limit);
        if (v == null) {
            return null;
        }
        ValueOffset end = ValueOffset.of(name, "latestOffset", v, type);
        ValueOffset.checkForward(name, "latestOffset", lastLatest, s, end);
        lastLatest = end;
        return end;
    }

    @Override
    public Offset reportLatestOffset() {
        Object v = reader.reportLatestOffset();
        return v == null ? null : ValueOffset.of(name, "reportLatestOffset()", v, type);
    }

    @SuppressWarnings("unchecked")
    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        ValueOffset s = ValueOffset.read(name, start, type);
        ValueOffset e = ValueOffset.read(name, end, type);
        List<? extends InputPartition> parts = reader.partitions(s.value(), e.value());
        return ValueOffset.checkPartitions(name, parts, start, end);
    }

    @SuppressWarnings("unchecked")
    @Override
    public PartitionReader createReader(InputPartition partition) {
        return new IteratorReader(name, reader.read(partition), schema);
    }

    @SuppressWarnings("unchecked")
    @Override
    public void commit(Offset end) {
        reader.commit(ValueOffset.read(name, end, type).value());
    }

    @Override
    public void stop() {
        reader.stop();
    }

    @Override
    public String description() {
        return "DataSource[" + name + "]";
    }

    /** For readers that can drain what is there at start in several batches. */
    static final class AvailableNow extends DataSourceStream implements SupportsTriggerAvailableNow {
        AvailableNow(String name, DataSourceStreamReader<?> reader, StructType schema) {
            super(name, reader, schema);
        }

        @Override
        public void prepareForTriggerAvailableNow() {
            ((SupportsAvailableNow) reader).prepareForTriggerAvailableNow();
        }
    }
}
