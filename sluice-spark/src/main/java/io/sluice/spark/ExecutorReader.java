package io.sluice.spark;

import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import org.apache.spark.sql.catalyst.InternalRow;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads one Sluice partition where Spark runs the task. The driver's stream is not here: the reader comes from a
 * fresh stream of the same provider, options and schema, on which nothing but {@code createReader} is called,
 * with a scratch metadata folder (executors never touch the checkpoint). The stream is stopped and the folder
 * deleted when Spark closes the reader.
 */
final class ExecutorReader implements org.apache.spark.sql.connector.read.PartitionReader<InternalRow> {
    private final Path scratch;
    private final MicroBatchStream stream;
    private final PartitionReader reader;
    private final RowConverter converter;
    private InternalRow current;

    private ExecutorReader(Path scratch, MicroBatchStream stream, PartitionReader reader, RowConverter converter) {
        this.scratch = scratch;
        this.stream = stream;
        this.reader = reader;
        this.converter = converter;
    }

    static ExecutorReader open(ReadSpec spec, InputPartition partition) {
        SourceProvider provider = SourceProviders.find(spec.source());
        Path scratch = TempDirs.create("sluice-spark-reader-");
        MicroBatchStream stream = null;
        try {
            stream = provider.createStream(spec.context(scratch));
            PartitionReader reader = stream.createReader(partition);
            return new ExecutorReader(scratch, stream, reader, new RowConverter(SparkTypes.toSluice(spec.schema())));
        } catch (RuntimeException | Error e) {
            if (stream != null) {
                try {
                    stream.stop();
                } catch (RuntimeException s) {
                    e.addSuppressed(s);
                }
            }
            TempDirs.deleteQuietly(scratch);
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
            try {
                stream.stop();
            } finally {
                TempDirs.deleteQuietly(scratch);
            }
        }
    }
}
