package io.sluice.core;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.StreamContext;
import io.sluice.core.sinks.NoopSink;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A one-off read: the source's range from its initial offset to everything available now, read once on the reader
 * pool. The stream gets a temporary metadata folder, deleted afterwards, and is told it is bounded.
 */
final class BoundedRead {
    private BoundedRead() {
    }

    static List<Row> collect(StreamFrame frame) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (Object part : run(frame, each(() -> new PartitionWriter() {
            private final List<Row> kept = new ArrayList<>();

            @Override
            public void write(Row row) {
                kept.add(row);
            }

            @Override
            public Object commit() {
                return kept;
            }
        }))) {
            @SuppressWarnings("unchecked")
            List<Row> list = (List<Row>) part;
            rows.addAll(list);
        }
        return rows;
    }

    /**
     * The number of rows, counted as they are read (the noop sink's writer): none is kept, and no column is
     * needed for the count itself (only those the frame's steps use are asked of the source).
     */
    static long count(StreamFrame frame) throws Exception {
        BatchWriter counter = new NoopSink().beginBatch(0);
        run(frame, counter, false);
        return counter.numOutputRows();
    }

    /**
     * The number of rows per distinct row of the frame (the caller projects it to the grouping columns first),
     * counted as they are read: memory grows with the number of groups, not of rows.
     */
    static Map<Row, Long> countDistinct(StreamFrame frame) throws Exception {
        Map<Row, Long> total = new HashMap<>();
        for (Object part : run(frame, each(() -> new PartitionWriter() {
            private final Map<Row, long[]> counts = new HashMap<>();

            @Override
            public void write(Row row) {
                counts.computeIfAbsent(row, k -> new long[1])[0]++;
            }

            @Override
            public Object commit() {
                return counts;
            }
        }))) {
            @SuppressWarnings("unchecked")
            Map<Row, long[]> counts = (Map<Row, long[]>) part;
            counts.forEach((key, n) -> total.merge(key, n[0], Long::sum));
        }
        return total;
    }

    /** A batch writer whose partitions each get a new writer from {@code writers} and whose commit does nothing. */
    private static BatchWriter each(Supplier<PartitionWriter> writers) {
        return new BatchWriter() {
            @Override
            public PartitionWriter partitionWriter(int partitionId) {
                return writers.get();
            }

            @Override
            public void commit(List<Object> partitionResults) {
            }
        };
    }

    /**
     * Reads the source's whole available range through the frame's transformations into the writer, one partition
     * writer per input partition, commits the writer with their results and returns those, in partition order
     * (none when there is nothing to read).
     */
    private static List<Object> run(StreamFrame frame, BatchWriter writer) throws Exception {
        return run(frame, writer, true);
    }

    /** Every input of the frame (several for a union) read at once, one task per input partition. */
    private static List<Object> run(StreamFrame frame, BatchWriter writer, boolean sinkReadsRows) throws Exception {
        Sluice sluice = frame.sluice();
        List<StreamFrame> inputs = frame.inputs();
        List<Path> folders = new ArrayList<>();
        List<MicroBatchStream> streams = new ArrayList<>();
        try {
            List<ReadTask> tasks = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                StreamFrame in = inputs.get(i);
                DataStreamReader.SourceSpec source = in.source();
                Path metadata = Files.createTempDirectory("sluice-read-");
                folders.add(metadata);
                MicroBatchStream stream = in.reads(sinkReadsRows).createStream(source.provider(),
                        new StreamContext(source.options(), source.schema(), metadata, sluice.clock(),
                                UUID.randomUUID().toString(), i, true, sluice.sessionTimeZone()));
                streams.add(stream);
                Offset start = stream.initialOffset();
                Offset end = stream.latestOffset(start, ReadLimit.allAvailable());
                if (end == null || Offset.same(start, end)) {
                    continue;
                }
                RowOperator op = RowOperator.chain(in.operators());
                for (InputPartition p : stream.planPartitions(start, end)) {
                    tasks.add(new ReadTask(i, stream, p, tasks.size(), op));
                }
            }
            if (tasks.isEmpty()) {
                writer.commit(List.of());
                return List.of();
            }
            // Nothing waits for this thread with a bound of its own, so an interrupt gets the whole grace period.
            long grace = sluice.stopGracePeriodMs();
            List<Object> results = ReadTask.runAll(tasks, writer, sluice.readers(), grace, grace);
            writer.commit(results);
            return results;
        } finally {
            for (MicroBatchStream stream : streams) {
                stream.stop();
            }
            for (Path metadata : folders) {
                MicroBatchExecution.deleteRecursively(metadata);
            }
        }
    }
}
