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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * A one-off read: the source's range from its initial offset to everything available now, read once on the reader
 * pool. The stream gets a temporary metadata folder, deleted afterwards, and is told it is bounded.
 */
final class BoundedRead {
    private BoundedRead() {
    }

    static List<Row> collect(StreamFrame frame) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (Object part : run(frame, partitionId -> new PartitionWriter() {
            private final List<Row> kept = new ArrayList<>();

            @Override
            public void write(Row row) {
                kept.add(row);
            }

            @Override
            public Object commit() {
                return kept;
            }
        })) {
            @SuppressWarnings("unchecked")
            List<Row> list = (List<Row>) part;
            rows.addAll(list);
        }
        return rows;
    }

    /** The number of rows, counted as they are read: none is kept. */
    static long count(StreamFrame frame) throws Exception {
        long total = 0;
        for (Object part : run(frame, partitionId -> new PartitionWriter() {
            private long n;

            @Override
            public void write(Row row) {
                n++;
            }

            @Override
            public Object commit() {
                return n;
            }
        })) {
            total += (Long) part;
        }
        return total;
    }

    /**
     * The number of rows per distinct row of the frame (the caller projects it to the grouping columns first),
     * counted as they are read: memory grows with the number of groups, not of rows.
     */
    static Map<Row, Long> countDistinct(StreamFrame frame) throws Exception {
        Map<Row, Long> total = new HashMap<>();
        for (Object part : run(frame, partitionId -> new PartitionWriter() {
            private final Map<Row, long[]> counts = new HashMap<>();

            @Override
            public void write(Row row) {
                counts.computeIfAbsent(row, k -> new long[1])[0]++;
            }

            @Override
            public Object commit() {
                return counts;
            }
        })) {
            @SuppressWarnings("unchecked")
            Map<Row, long[]> counts = (Map<Row, long[]>) part;
            counts.forEach((key, n) -> total.merge(key, n[0], Long::sum));
        }
        return total;
    }

    /**
     * Reads the source's whole available range through the frame's transformations into one partition writer per
     * input partition, and returns their results in partition order (empty when there is nothing to read).
     */
    private static List<Object> run(StreamFrame frame, IntFunction<PartitionWriter> writers) throws Exception {
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
                BatchWriter writer = new BatchWriter() {
                    @Override
                    public PartitionWriter partitionWriter(int partitionId) {
                        return writers.apply(partitionId);
                    }

                    @Override
                    public void commit(List<Object> partitionResults) {
                    }
                };
                return ReadTask.runAll(tasks, writer, sluice.readers());
            } finally {
                stream.stop();
            }
        } finally {
            MicroBatchExecution.deleteRecursively(metadata);
        }
    }
}
