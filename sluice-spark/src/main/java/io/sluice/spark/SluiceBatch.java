package io.sluice.spark;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

import java.nio.file.Path;

/**
 * A one-off read ({@code spark.read()}), as {@code Sluice.read()} does it: a bounded stream on a scratch metadata
 * folder, {@code latestOffset(initialOffset(), allAvailable)} once, the partitions of that range, then stop.
 */
final class SluiceBatch implements Batch {
    private final SourceProvider provider;
    private final ReadSpec spec;
    private InputPartition[] partitions;

    SluiceBatch(SourceProvider provider, ReadSpec spec) {
        this.provider = provider;
        this.spec = spec;
    }

    @Override
    public synchronized InputPartition[] planInputPartitions() {
        if (partitions == null) {
            partitions = plan();
        }
        return partitions.clone();
    }

    private InputPartition[] plan() {
        Path scratch = TempDirs.create("sluice-spark-batch-");
        try {
            MicroBatchStream stream = SourceProviders.createStream(provider, spec, scratch);
            SourceProviders.refuseDriverLocal(spec.source(), stream);
            try {
                Offset start = stream.initialOffset();
                Offset end = stream.latestOffset(start, ReadLimit.allAvailable());
                if (end == null || Offset.same(start, end)) {
                    return new InputPartition[0];
                }
                return Partitions.wrap(spec.source(), stream.planPartitions(start, end));
            } finally {
                stream.stop();
            }
        } finally {
            TempDirs.deleteQuietly(scratch);
        }
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new SluiceReaderFactory(spec);
    }

}
