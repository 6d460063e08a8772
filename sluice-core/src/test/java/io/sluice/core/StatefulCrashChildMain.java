package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.core.Functions.col;

/**
 * The process {@link StatefulCrashTest} kills with SIGKILL: a stateful query over rate-micro-batch (50 rows a batch,
 * event time advancing 1 s a batch from 2026-01-01T10:00:00Z) into a sink that writes each batch's rows as text to
 * {@code out/batch-N.txt} (replaced whole on a re-run: idempotent by batch id). Prints {@code batch N} after each
 * batch; stops on {@code stop} on stdin.
 *
 * <p>Arguments: checkpoint folder, output folder, query: {@code window} (a 5-second tumbling count, watermark 2 s,
 * append) or {@code dedup} ({@code dropDuplicates} of {@code value % 300}).
 */
public final class StatefulCrashChildMain {
    static final int ROWS_PER_BATCH = 50;
    static final long START_MS = java.time.Instant.parse("2026-01-01T10:00:00Z").toEpochMilli();

    private StatefulCrashChildMain() {
    }

    public static void main(String[] args) throws Exception {
        Path checkpoint = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.registerSink(new TextBatches(out));
            CrashChildMain.reportBatches(sluice);
            StreamFrame rate = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", ROWS_PER_BATCH)
                    .option("numPartitions", 2).option("startTimestamp", START_MS)
                    .option("advanceMillisPerBatch", 1000).load();
            StreamFrame query = args[2].equals("window")
                    ? rate.withWatermark("timestamp", "2 seconds")
                            .groupBy(Functions.window(col("timestamp"), "5 seconds")).count()
                            .select(col("window").getField("start").cast("long").as("start"), col("count"))
                    : rate.withColumn("key", col("value").mod(300)).dropDuplicates("key").select("key");
            StreamingQuery q = query.writeStream().format("text-batches").outputMode("append")
                    .option("checkpointLocation", checkpoint.toString())
                    .trigger(Trigger.processingTime(20)).start();
            CrashChildMain.runUntilStopped(q);
        }
        System.out.println("stopped");
    }

    /** Each batch's rows as lines of comma-separated values in {@code batch-N.txt}, written atomically. */
    static final class TextBatches implements SinkProvider {
        private final Path out;

        TextBatches(Path out) {
            this.out = out;
        }

        @Override
        public String shortName() {
            return "text-batches";
        }

        @Override
        public Sink createSink(SinkContext context) {
            return batchId -> new BatchWriter() {
                @Override
                public PartitionWriter partitionWriter(int partitionId) {
                    List<String> lines = new ArrayList<>();
                    return new PartitionWriter() {
                        @Override
                        public void write(Row row) {
                            StringBuilder sb = new StringBuilder();
                            for (int i = 0; i < row.size(); i++) {
                                sb.append(i == 0 ? "" : ",").append(row.get(i));
                            }
                            lines.add(sb.toString());
                        }

                        @Override
                        public Object commit() {
                            return lines;
                        }
                    };
                }

                @Override
                @SuppressWarnings("unchecked")
                public void commit(List<Object> partitionResults) throws IOException {
                    StringBuilder text = new StringBuilder();
                    for (Object r : partitionResults) {
                        for (String line : (List<String>) r) {
                            text.append(line).append('\n');
                        }
                    }
                    Path tmp = out.resolve(".batch-" + batchId + ".tmp");
                    try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                        c.write(StandardCharsets.UTF_8.encode(text.toString()));
                        c.force(true);
                    }
                    Files.move(tmp, out.resolve("batch-" + batchId + ".txt"), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                }
            };
        }
    }
}
