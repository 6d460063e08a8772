package io.sluice.core;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.StreamContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A one-off read: the source's range from its initial offset to everything available now, read once on the reader
 * pool. The stream gets a temporary metadata folder, deleted afterwards, and is told it is bounded.
 */
final class BoundedRead {
    private BoundedRead() {
    }

    static List<Row> collect(StreamFrame frame) throws Exception {
        DataStreamReader.SourceSpec source = frame.source();
        Sluice sluice = frame.sluice();
        Path metadata = Files.createTempDirectory("sluice-read-");
        try {
            MicroBatchStream stream = source.provider().createStream(new StreamContext(source.options(),
                    source.schema(), metadata, sluice.clock(), UUID.randomUUID().toString(), 0, true));
            try {
                Offset start = stream.initialOffset();
                Offset end = stream.latestOffset(start, ReadLimit.allAvailable());
                if (end == null || Offset.same(start, end)) {
                    return List.of();
                }
                RowOperator op = RowOperator.chain(frame.operators());
                List<ReadTask> tasks = new ArrayList<>();
                for (InputPartition p : stream.planPartitions(start, end)) {
                    tasks.add(new ReadTask(0, stream, p, tasks.size(), op));
                }
                List<Object> parts = ReadTask.runAll(tasks, new Collector(), sluice.readers());
                List<Row> rows = new ArrayList<>();
                for (Object part : parts) {
                    @SuppressWarnings("unchecked")
                    List<Row> list = (List<Row>) part;
                    rows.addAll(list);
                }
                return rows;
            } finally {
                stream.stop();
            }
        } finally {
            MicroBatchExecution.deleteRecursively(metadata);
        }
    }

    /** Keeps each partition's rows in memory. */
    private static final class Collector implements BatchWriter {
        @Override
        public PartitionWriter partitionWriter(int partitionId) {
            List<Row> rows = new ArrayList<>();
            return new PartitionWriter() {
                @Override
                public void write(Row row) {
                    rows.add(row);
                }

                @Override
                public Object commit() {
                    return rows;
                }
            };
        }

        @Override
        public void commit(List<Object> partitionResults) {
        }
    }
}
