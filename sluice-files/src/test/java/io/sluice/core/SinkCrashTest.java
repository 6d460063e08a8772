package io.sluice.core;

import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.files.sink.FileSinkManifest;
import io.sluice.files.sink.SinkFileStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static io.sluice.core.CrashChildMain.readUntilBatch;
import static io.sluice.core.CrashChildMain.stdout;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once end to end with real sinks across real process deaths: a separate JVM runs rate-micro-batch into the
 * JSON file sink, or through foreachBatch into an H2 database, and dies over and over at random points of the
 * batch cycle (before or after the offset log, in the middle of the sink's write, after the sink's commit but
 * before the commit log, after the commit log), by halting itself there or by a SIGKILL from this test at a
 * random moment. After every death: what the sink shows (the manifest's files; the committed table) holds every
 * row of every batch it shows exactly once. Trials per sink: {@code -Dsluice.crashTrials} (default 50).
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class SinkCrashTest {
    private static final int TRIALS = Integer.getInteger("sluice.crashTrials", 50);
    private static final CrashPoint[] POINTS = {CrashPoint.BEFORE_OFFSET_LOG, CrashPoint.AFTER_OFFSET_LOG,
        CrashPoint.DURING_SINK_WRITE, CrashPoint.BEFORE_COMMIT_LOG, CrashPoint.AFTER_COMMIT_LOG, null};

    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
    }

    @ParameterizedTest
    @ValueSource(strings = {"files", "jdbc"})
    void everyRowExactlyOnceAcrossManyDeaths(String mode) throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        // WRITE_DELAY=0: H2 otherwise flushes a commit up to 500 ms later, and a process killed in between loses a
        // batch that Sluice already recorded in commits/N. A foreachBatch write must be durable when it returns.
        String target = mode.equals("files") ? tmp.resolve("out").toString()
                : "jdbc:h2:file:" + tmp.resolve("db") + ";FILE_LOCK=FS;WRITE_DELAY=0";
        for (int trial = 0; trial < TRIALS; trial++) {
            // A new batch (not one re-run from the log, which a sink may skip as already written), so that the
            // crash point is always reached.
            long next = Math.max(lastId("offsets").orElse(-1), lastCommitted().orElse(-1)) + 1;
            CrashPoint point = POINTS[random.nextInt(POINTS.length)];
            long batch = next + random.nextInt(3);
            String why = "seed " + seed + ", trial " + trial + ", " + (point == null ? "SIGKILL" : point) + " at batch "
                    + batch;
            if (point != null) {
                Process p = child(mode, target, point, batch);
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    throw new AssertionError(why + ": the child did not die in 60 s. Its threads:\n"
                            + threadDump(p) + "\nstderr:\n" + stderr());
                }
                assertThat(p.exitValue()).as(why + ": " + stderr()).isEqualTo(137);
            } else {
                Process p = child(mode, target, CrashPoint.NONE, -1);
                assertThat(readUntilBatch(stdout(p), batch)).as(why).isGreaterThanOrEqualTo(batch);
                p.destroyForcibly();
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(why).isTrue();
            }
            assertExactlyOnce(mode, target, false, why);
        }
        Process p = child(mode, target, CrashPoint.NONE, -1);
        long until = lastCommitted().orElse(-1) + 2;
        assertThat(readUntilBatch(stdout(p), until)).isGreaterThanOrEqualTo(until);
        try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            w.write("stop\n");
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(stderr()).isZero();
        assertExactlyOnce(mode, target, true, "final clean run, seed " + seed);
    }

    /**
     * The sink holds batches 0..M, each batch's 100 rows once: the rows [0, 100 (M + 1)) exactly once. M is the
     * last committed batch, or one more when the process died after the sink committed and before the commit log
     * (that batch is then re-run, and the sink must ignore the re-run). After a clean stop M is the last committed.
     */
    private void assertExactlyOnce(String mode, String target, boolean clean, String why) throws Exception {
        List<Long> values = mode.equals("files") ? fileSinkValues(Path.of(target)) : tableValues(target);
        long committed = lastCommitted().orElse(-1);
        assertThat(values).as(why).doesNotHaveDuplicates();
        long batches = values.size() / CrashChildMain.ROWS_PER_BATCH;
        assertThat(values.stream().sorted().toList()).as(why).containsExactlyElementsOf(
                LongStream.range(0, batches * CrashChildMain.ROWS_PER_BATCH).boxed().toList());
        if (clean) {
            assertThat(batches - 1).as(why).isEqualTo(committed);
        } else {
            assertThat(batches - 1).as(why).isBetween(committed, committed + 1);
        }
    }

    private static List<Long> fileSinkValues(Path out) throws IOException {
        List<Long> values = new ArrayList<>();
        if (!FileSinkManifest.exists(out)) {
            return values;
        }
        for (SinkFileStatus f : FileSinkManifest.allFiles(out)) {
            for (String line : Files.readAllLines(f.localPath())) {
                int i = line.indexOf("\"value\":");
                values.add(Long.parseLong(line.substring(i + 8, line.indexOf('}', i)).trim()));
            }
        }
        return values;
    }

    private static List<Long> tableValues(String url) throws Exception {
        List<Long> values = new ArrayList<>();
        SinkCrashChild.createTables(url);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT v FROM events")) {
            while (r.next()) {
                values.add(r.getLong(1));
            }
        }
        return values;
    }

    private OptionalLong lastCommitted() throws IOException {
        return lastId("commits");
    }

    private OptionalLong lastId(String log) throws IOException {
        return CrashChildMain.lastLogId(tmp.resolve("chk"), log);
    }

    private Process child(String mode, String target, CrashPoint point, long batch) throws IOException {
        Process p = CrashChildMain.startChild(tmp.resolve("child.err"), List.of(), SinkCrashChild.class, mode,
                tmp.resolve("chk").toString(), target, point.name(), Long.toString(batch));
        children.add(p);
        return p;
    }

    private static String threadDump(Process p) {
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(p.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            return new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    private String stderr() throws IOException {
        return Files.readString(tmp.resolve("child.err"));
    }
}
