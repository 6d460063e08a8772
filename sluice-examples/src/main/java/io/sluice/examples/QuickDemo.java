package io.sluice.examples;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.sinks.MemorySink;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The README's demo: a rate-micro-batch query into the memory sink, with a real checkpoint. It runs some batches,
 * stops, and starts again on the same checkpoint to show that it resumes where it left off.
 *
 * <p>Arguments (all optional): the checkpoint folder (default: a fresh folder under the temp dir), batches per run
 * (default 20).
 */
public final class QuickDemo {
    private QuickDemo() {
    }

    public static void main(String[] args) throws Exception {
        Path checkpoint = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("sluice-demo-");
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        System.out.println("Sluice demo: rate-micro-batch (1,000 rows per batch) -> memory sink");
        System.out.println("checkpoint: " + checkpoint.toAbsolutePath());

        try (Sluice sluice = Sluice.local()) {
            System.out.println("\n-- run 1 --");
            run(sluice, checkpoint, batches, true);
            System.out.println("\n-- run 2: same checkpoint, so it resumes after the last committed batch --");
            run(sluice, checkpoint, 5, false);
        }
        System.out.println("\nCheckpoint files (Spark's layout): " + list(checkpoint));
        System.out.println("Offsets of the last batch:\n" + Files.readString(latest(checkpoint.resolve("offsets"))));
    }

    private static void run(Sluice sluice, Path checkpoint, int batches, boolean first) throws Exception {
        CountDownLatch done = new CountDownLatch(batches);
        StreamingQueryListener printer = new StreamingQueryListener() {
            @Override
            public void onQueryStarted(QueryStartedEvent event) {
                System.out.println("started query " + event.id() + " (run " + event.runId() + ")");
            }

            @Override
            public void onQueryProgress(QueryProgressEvent event) {
                StreamingQueryProgress p = event.progress();
                if (first && p.batchId() == 0) {
                    long sinceJvmStart = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
                    System.out.printf("first batch committed %d ms after the JVM started%n", sinceJvmStart);
                }
                System.out.printf("batch %3d  rows %5d  %6d ms  offsets %s -> %s%n", p.batchId(), p.numInputRows(),
                        p.batchDuration(), p.sources().get(0).startOffset(), p.sources().get(0).endOffset());
                done.countDown();
            }

            @Override
            public void onQueryTerminated(QueryTerminatedEvent event) {
            }
        };
        sluice.addListener(printer);
        StreamingQuery q = sluice.readStream().format("rate-micro-batch")
                .option("rowsPerBatch", 1000).option("numPartitions", 2)
                .load()
                .writeStream().format("memory").queryName("demo")
                .option("checkpointLocation", checkpoint.toString())
                .start();
        try {
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("The demo query made no progress in 60 s: " + q.status());
            }
        } finally {
            q.stop();
            sluice.removeListener(printer);
        }
        q.exception().ifPresent(e -> {
            throw new IllegalStateException(e);
        });
        System.out.println("stopped; the memory table 'demo' holds " + MemorySink.rows("demo").size()
                + " rows; first rows: " + MemorySink.rows("demo").subList(0, 3));
    }

    private static String list(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString())
                    .filter(n -> !n.startsWith(".")).sorted().limit(12).toList() + " ...";
        }
    }

    private static Path latest(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .max(Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString()))).orElseThrow();
        }
    }
}
