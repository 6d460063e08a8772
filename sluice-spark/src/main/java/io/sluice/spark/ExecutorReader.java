package io.sluice.spark;

import io.sluice.api.source.InputPartition;
import io.sluice.api.source.PartitionReader;
import org.apache.spark.sql.catalyst.InternalRow;

import java.io.IOException;

/**
 * Reads one Sluice partition where Spark runs the task. The driver's stream is not here: the reader comes from a
 * stream of the same provider, options and schema made in this JVM ({@link ExecutorStreams}), on which nothing but
 * {@code createReader} is called, with a scratch metadata folder (executors never touch the checkpoint). The stream
 * is given back when Spark closes the reader.
 */
final class ExecutorReader implements org.apache.spark.sql.connector.read.PartitionReader<InternalRow> {
    private final ExecutorStreams.Lease lease;
    private final PartitionReader reader;
    private final RowConverter converter;
    private InternalRow current;

    private ExecutorReader(ExecutorStreams.Lease lease, PartitionReader reader, RowConverter converter) {
        this.lease = lease;
        this.reader = reader;
        this.converter = converter;
    }

    static ExecutorReader open(ReadSpec spec, InputPartition partition) {
        ExecutorStreams.Lease lease = ExecutorStreams.acquire(spec);
        try {
            PartitionReader reader = lease.stream().createReader(partition);
            return new ExecutorReader(lease, reader, RowConverter.of(spec));
        } catch (RuntimeException | Error e) {
            lease.close();
            throw e;
        }
    }

    @Override
    public boolean next() throws IOException {
        if (!reader.next()) {
            current = null;
            return false;
        }
        current = converter.convert(reader.get());
        return true;
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            lease.close();
        }
    }
}
