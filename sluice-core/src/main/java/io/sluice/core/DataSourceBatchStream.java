package io.sluice.core;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.datasource.DataSourceReader;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.types.StructType;

import java.util.List;

/** A one-off read through a {@link DataSourceReader}: one range, "0" to "1", holding all its partitions. */
final class DataSourceBatchStream implements MicroBatchStream {
    private final String name;
    private final DataSourceReader reader;
    private final StructType schema;

    DataSourceBatchStream(String name, DataSourceReader reader, StructType schema) {
        this.name = name;
        this.reader = reader;
        this.schema = schema;
    }

    @Override
    public Offset initialOffset() {
        return Offset.of("0");
    }

    @Override
    public Offset deserializeOffset(String json) {
        return Offset.of(json);
    }

    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        return Offset.of("1");
    }

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        return ValueOffset.checkPartitions(name, reader.partitions(), start, end);
    }

    @Override
    public PartitionReader createReader(InputPartition partition) {
        return new IteratorReader(name, reader.read(partition), schema);
    }

    @Override
    public void stop() {
        // a reader holding processes or connections (a Python source's workers) releases them with the read
        if (reader instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("Data source '" + name + "': closing its reader failed: " + e, e);
            }
        }
    }

    @Override
    public String description() {
        return "DataSource[" + name + "]";
    }
}
