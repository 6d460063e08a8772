package io.sluice.cli;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code sluice demo}: a real pipeline on embedded defaults, no external service. A producer thread drops JSON
 * event files into a landing folder (each written whole under a dot-name, then renamed, as files should be handed
 * to a file source); a query reads them with a per-trigger cap, keeps the events with a positive amount and writes
 * them to a JSON file sink; the live view shows it. The query is then stopped, more files arrive, and a second run
 * on the same checkpoint resumes where the first left off and drains the rest (availableNow). Finally the output
 * is read back through the sink's manifest and checked against what was produced.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run a self-contained demo: files -> filter -> file sink, stopped and resumed.")
final class DemoCommand implements Callable<Integer> {
    static final String SCHEMA = "event_id string, user_id string, amount_cents long, event_time timestamp";

    private final Env env;

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", description = "Folder for landing/, output/ and checkpoint/ (default: a new temp folder).")
    Path dir;

    @Option(names = "--files", defaultValue = "24", description = "Event files to produce (default: ${DEFAULT-VALUE}).")
    int files;

    @Option(names = "--rows-per-file", defaultValue = "500",
            description = "Events per file (default: ${DEFAULT-VALUE}).")
    int rowsPerFile;

    @Option(names = "--max-files-per-trigger", defaultValue = "3",
            description = "The source's per-trigger cap (default: ${DEFAULT-VALUE}).")
    int maxFilesPerTrigger;

    @Option(names = "--interval-ms", defaultValue = "150",
            description = "Pause between two files of the producer (default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(names = "--plain", description = "One plain line per batch, even on a terminal.")
    boolean plain;

    DemoCommand(Env env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        if (files < 2 || rowsPerFile < 1 || maxFilesPerTrigger < 1 || intervalMs < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--files must be at least 2, --rows-per-file and --max-files-per-trigger positive, "
                            + "--interval-ms not negative");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path base = dir != null ? dir : Files.createTempDirectory("sluice-demo-");
        Path landing = Files.createDirectories(base.resolve("landing"));
        Path output = base.resolve("output");
        Path checkpoint = base.resolve("checkpoint");
        out.println("Sluice demo in " + base.toAbsolutePath());
        out.println("  landing/    JSON event files appear here (written whole, then renamed)");
        out.println("  output/     the file sink's output, listed in output/_spark_metadata");
        out.println("  checkpoint/ offsets, commits and the source's seen-files log");
        out.flush();

        Producer producer = new Producer(landing, rowsPerFile, intervalMs);
        int firstHalf = files / 2;
        try (Sluice sluice = Sluice.builder().build()) {
            out.println("\nRun 1: a query every 500 ms, at most " + maxFilesPerTrigger + " files a batch, while "
                    + firstHalf + " files arrive");
            out.flush();
            // A view per run: listener events arrive asynchronously, so each run waits for its own view to have
            // shown the query's last batch and its end before printing on.
            LiveView view = view(sluice);
            StreamingQuery first = start(sluice, landing, output, checkpoint, Trigger.processingTime(500));
            producer.produce(firstHalf);
            first.processAllAvailable();
            first.stop();
            drained(sluice, view);
            long lastBatch = first.lastProgress() == null ? -1 : first.lastProgress().batchId();
            out.println("stopped after batch " + lastBatch + "; " + producer.rows() + " events produced so far");

            producer.produce(files - firstHalf);
            out.println("\nRun 2: " + (files - firstHalf) + " more files arrived while the query was down; the same "
                    + "checkpoint resumes at batch " + (lastBatch + 1) + " and drains them (availableNow)");
            out.flush();
            view = view(sluice);
            StreamingQuery second = start(sluice, landing, output, checkpoint, Trigger.availableNow());
            second.awaitTermination();
            drained(sluice, view);

            long written = sluice.read().format("json").schema(SCHEMA).load(output.toString()).count();
            long expected = producer.positiveRows();
            out.println("\nProduced " + producer.rows() + " events in " + files + " files, " + expected
                    + " with a positive amount; the sink's manifest lists " + written + " rows: "
                    + (written == expected ? "every event exactly once." : "MISMATCH"));
            out.println("Output:     " + output.toAbsolutePath());
            out.println("Checkpoint: " + checkpoint.toAbsolutePath()
                    + "  (try: sluice checkpoint show " + checkpoint.toAbsolutePath() + ")");
            out.flush();
            return written == expected ? 0 : 1;
        }
    }

    private LiveView view(Sluice sluice) {
        LiveView view = new LiveView(spec.commandLine().getOut(), spec.commandLine().getErr(),
                env.interactive() && !plain, env.columns(), false, null, (id, name) -> "query " + id + " started");
        sluice.addListener(view);
        return view;
    }

    /** Waits (bounded) until the view has shown the ended query's last events, then detaches it. */
    private static void drained(Sluice sluice, LiveView view) throws InterruptedException {
        view.awaitTerminated(RunCommand.DRAIN_TIMEOUT_MS);
        view.endLine();
        sluice.removeListener(view);
    }

    private StreamingQuery start(Sluice sluice, Path landing, Path output, Path checkpoint, Trigger trigger) {
        int maxFiles = maxFilesPerTrigger;
        return sluice.readStream().format("json").schema(SCHEMA)
                .option("maxFilesPerTrigger", Integer.toString(maxFiles))
                .load(landing.toString())
                .where("amount_cents > 0")
                .writeStream().format("json")
                .option("path", output.toString())
                .option("checkpointLocation", checkpoint.toString())
                .queryName("demo")
                .trigger(trigger)
                .start();
    }

    /** Writes event files the way a file source wants them: whole, under a dot-name, then renamed into place. */
    private static final class Producer {
        private final Path landing;
        private final int rowsPerFile;
        private final long intervalMs;
        private final AtomicLong rows = new AtomicLong();
        private final AtomicLong positive = new AtomicLong();
        private int fileNo;

        Producer(Path landing, int rowsPerFile, long intervalMs) {
            this.landing = landing;
            this.rowsPerFile = rowsPerFile;
            this.intervalMs = intervalMs;
        }

        void produce(int count) throws InterruptedException {
            for (int i = 0; i < count; i++) {
                writeFile(++fileNo);
                if (intervalMs > 0) {
                    Thread.sleep(intervalMs); // pacing the demo's producer, so batches can be watched
                }
            }
        }

        private void writeFile(int n) {
            String name = String.format("events-%04d.json", n);
            Path tmp = landing.resolve("." + name + ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                for (int i = 0; i < rowsPerFile; i++) {
                    // Every tenth event is a refund (negative amount), which the query filters out.
                    long amount = i % 10 == 9 ? -((i * 37L) % 5000) - 1 : (i * 37L) % 5000 + 1;
                    if (amount > 0) {
                        positive.incrementAndGet();
                    }
                    w.write("{\"event_id\":\"e-" + n + "-" + i + "\",\"user_id\":\"u" + (i % 97)
                            + "\",\"amount_cents\":" + amount + ",\"event_time\":\"2026-10-04T00:00:"
                            + String.format("%02d", i % 60) + ".000Z\"}\n");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                Files.move(tmp, landing.resolve(name), StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            rows.addAndGet(rowsPerFile);
        }

        long rows() {
            return rows.get();
        }

        long positiveRows() {
            return positive.get();
        }
    }
}
