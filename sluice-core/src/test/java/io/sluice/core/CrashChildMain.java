package io.sluice.core;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;
import io.sluice.core.sources.RatePerMicroBatchProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The process that {@link CrashRecoveryTest} kills. Runs rate-micro-batch (100 rows per batch, 2 partitions) into a
 * sink that writes each batch to {@code out/batch-N.txt} (replaced whole on a re-run: idempotent by batch id).
 * Prints {@code batch N} after each batch and stops cleanly when it reads {@code stop} on stdin.
 *
 * <p>Arguments: checkpoint folder, output folder, crash point, batch. At the crash point of that batch the process
 * halts at once ({@code Runtime.halt}: no shutdown hooks, no flushing, as a kill -9).
 */
public final class CrashChildMain {
    static final int ROWS_PER_BATCH = 100;
    private static final Pattern OFFSET = Pattern.compile("\"offset\":(\\d+)");

    enum CrashPoint { NONE, BEFORE_OFFSET_LOG, AFTER_OFFSET_LOG, DURING_SINK_WRITE, BEFORE_COMMIT_LOG, AFTER_COMMIT_LOG }

    private static CrashPoint crashPoint;
    private static long crashBatch;

    private CrashChildMain() {
    }

    public static void main(String[] args) throws Exception {
        Path checkpoint = Path.of(args[0]);
        Path out = Path.of(args[1]);
        crashPoint = CrashPoint.valueOf(args[2]);
        crashBatch = Long.parseLong(args[3]);
        Files.createDirectories(out);
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.registerSource(new CrashingRate()).registerSink(new BatchFiles(out));
            reportBatches(sluice);
            StreamingQuery q = sluice.readStream().format("crashing-rate")
                    .option("rowsPerBatch", ROWS_PER_BATCH).option("numPartitions", 2).load()
                    .writeStream().format("batch-files").option("checkpointLocation", checkpoint.toString()).start();
            runUntilStopped(q);
        }
        System.out.println("stopped");
    }

    /** Prints {@code batch N} on stdout after each batch's progress, for the parent's {@link #readUntilBatch}. */
    static void reportBatches(Sluice sluice) {
        sluice.addListener(new StreamingQueryListener() {
            @Override
            public void onQueryStarted(QueryStartedEvent event) {
            }

            @Override
            public void onQueryProgress(QueryProgressEvent event) {
                System.out.println("batch " + event.progress().batchId());
                System.out.flush();
            }

            @Override
            public void onQueryTerminated(QueryTerminatedEvent event) {
            }
        });
    }

    /**
     * Runs the query until the parent writes {@code stop} (see {@link #stopOnWord}); a failed query exits the
     * process with status 2, so the parent sees the failure rather than waiting for a batch that never comes.
     */
    static void runUntilStopped(StreamingQuery q) throws InterruptedException {
        stopOnWord(q);
        try {
            q.awaitTermination();
        } catch (StreamingQueryException e) {
            e.printStackTrace();
            System.exit(2);
        }
    }

    /** For the parent: the child's stdout, to read {@code batch N} lines from. */
    /** The highest batch id of the checkpoint's {@code log} folder ({@code offsets}, {@code commits}), if any. */
    static java.util.OptionalLong lastLogId(Path checkpoint, String log) throws IOException {
        Path dir = checkpoint.resolve(log);
        if (!Files.isDirectory(dir)) {
            return java.util.OptionalLong.empty();
        }
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).filter(n -> n.matches("\\d+")).mapToLong(Long::parseLong)
                    .max();
        }
    }

    /**
     * Starts {@code main} in a child JVM on this JVM's class path, as the crash tests run their children: small heap,
     * C1 only (fast start), warnings only, stderr to {@code stderr}; {@code jvmFlags} come before the class.
     */
    static Process startChild(Path stderr, List<String> jvmFlags, Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(jvmFlags);
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    }

    static BufferedReader stdout(Process child) {
        return new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    }

    /** For the parent: reads {@code batch N} lines until one with N >= atLeast; returns that N, or -1 at the end. */
    static long readUntilBatch(BufferedReader out, long atLeast) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("batch ")) {
                long n = Long.parseLong(line.substring(6));
                if (n >= atLeast) {
                    return n;
                }
            }
        }
        return -1;
    }

    /** Stops the query at a batch boundary when the parent writes {@code stop} on stdin. */
    static void stopOnWord(StreamingQuery q) {
        Thread t = new Thread(() -> {
            try {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String line;
                while ((line = in.readLine()) != null && !line.equals("stop")) {
                    // wait for the parent's word
                }
            } catch (IOException e) {
                // the parent is gone: stop
            }
            q.stop();
        }, "crash-child-stdin");
        t.setDaemon(true);
        t.start();
    }

    /** Arms the crash point for another child main that reuses this one's source. */
    static void arm(CrashPoint point, long batch) {
        crashPoint = point;
        crashBatch = batch;
    }

    static void crashIf(CrashPoint point, long batch) {
        if (point == crashPoint && batch == crashBatch) {
            Runtime.getRuntime().halt(137);
        }
    }

    /** The batch a range starting at this rate-micro-batch offset belongs to. */
    static long batchOf(Offset start) {
        Matcher m = OFFSET.matcher(start.json());
        if (!m.find()) {
            throw new IllegalStateException("unexpected offset " + start.json());
        }
        return Long.parseLong(m.group(1)) / ROWS_PER_BATCH;
    }

    /** rate-micro-batch with crash points at the source's calls. */
    static final class CrashingRate implements SourceProvider {
        private final RatePerMicroBatchProvider rate = new RatePerMicroBatchProvider();

        @Override
        public String shortName() {
            return "crashing-rate";
        }

        @Override
        public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
            return rate.resolveSchema(options, userSchema);
        }

        @Override
        public MicroBatchStream createStream(StreamContext context) {
            MicroBatchStream s = rate.createStream(context);
            return new MicroBatchStream() {
                @Override
                public Offset initialOffset() {
                    return s.initialOffset();
                }

                @Override
                public Offset deserializeOffset(String json) {
                    return s.deserializeOffset(json);
                }

                @Override
                public ReadLimit defaultReadLimit() {
                    return s.defaultReadLimit();
                }

                @Override
                public Offset latestOffset(Offset start, ReadLimit limit) {
                    crashIf(CrashPoint.BEFORE_OFFSET_LOG, batchOf(start));
                    return s.latestOffset(start, limit);
                }

                @Override
                public List<InputPartition> planPartitions(Offset start, Offset end) {
                    crashIf(CrashPoint.AFTER_OFFSET_LOG, batchOf(start));
                    return s.planPartitions(start, end);
                }

                @Override
                public PartitionReader createReader(InputPartition partition) {
                    return s.createReader(partition);
                }

                @Override
                public void commit(Offset end) {
                    crashIf(CrashPoint.AFTER_COMMIT_LOG, batchOf(end) - 1);
                    s.commit(end);
                }

                @Override
                public void stop() {
                    s.stop();
                }
            };
        }
    }

    /** Writes batch N to out/batch-N.txt, through a temp file and an atomic rename that replaces a re-run's copy. */
    static final class BatchFiles implements SinkProvider {
        private final Path out;

        BatchFiles(Path out) {
            this.out = out;
        }

        @Override
        public String shortName() {
            return "batch-files";
        }

        @Override
        public Sink createSink(SinkContext context) {
            return batchId -> new BatchWriter() {
                @Override
                public PartitionWriter partitionWriter(int partitionId) {
                    List<Long> values = new ArrayList<>();
                    return new PartitionWriter() {
                        @Override
                        public void write(Row row) {
                            values.add(row.getLong(1));
                            if (values.size() == ROWS_PER_BATCH / 4) {
                                crashIf(CrashPoint.DURING_SINK_WRITE, batchId);
                            }
                        }

                        @Override
                        public Object commit() {
                            return values;
                        }
                    };
                }

                @Override
                @SuppressWarnings("unchecked")
                public void commit(List<Object> partitionResults) throws IOException {
                    StringBuilder text = new StringBuilder();
                    for (Object r : partitionResults) {
                        for (Long v : (List<Long>) r) {
                            text.append(v).append('\n');
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
                    crashIf(CrashPoint.BEFORE_COMMIT_LOG, batchId);
                }
            };
        }
    }

}
