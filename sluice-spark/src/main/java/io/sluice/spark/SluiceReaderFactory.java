package io.sluice.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Serialized to executors with each task; makes an {@link ExecutorReader} per partition. */
final class SluiceReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;
    private final ReadSpec spec;

    SluiceReaderFactory(ReadSpec spec) {
        this.spec = spec;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        return ExecutorReader.open(spec, ((SluiceInputPartition) partition).partition());
    }
}
