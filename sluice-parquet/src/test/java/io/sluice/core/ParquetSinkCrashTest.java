package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.files.sink.FileSinkManifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Exactly-once into the Parquet sink across real process deaths (issue 16, item 6): a separate JVM runs
 * rate-micro-batch into the Parquet file sink and dies over and over at random points of the batch cycle (before
 * or after the offset log, in the middle of the sink's write, after the sink's commit but before the commit log,
 * after the commit log) by halting itself there, or by a SIGKILL from this test at a random moment. After every
 * death, the rows the manifest's Parquet files hold, read back through Sluice's own Parquet source (which reads a
 * sink's output through its manifest), are every row of every batch the manifest shows, exactly once. Trials:
 * {@code -Dsluice.crashTrials} (default 20 here; the JSON sink's test in sluice-files runs 50).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ParquetSinkCrashTest {
    private static final int TRIALS = Integer.getInteger("sluice.crashTrials", 20);
    private static final CrashPoint[] POINTS = {CrashPoint.BEFORE_OFFSET_LOG, CrashPoint.AFTER_OFFSET_LOG,
        CrashPoint.DURING_SINK_WRITE, CrashPoint.BEFORE_COMMIT_LOG, CrashPoint.AFTER_COMMIT_LOG, null};

    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
    }

    @Test
    void everyRowExactlyOnceAcrossManyDeaths() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path out = tmp.resolve("out");
        for (int trial = 0; trial < TRIALS; trial++) {
            // A new batch (not one re-run from the log, which the sink skips as already written), so that the
            // crash point is always reached.
            long next = Math.max(lastId("offsets").orElse(-1), lastId("commits").orElse(-1)) + 1;
            CrashPoint point = POINTS[random.nextInt(POINTS.length)];
            long batch = next + random.nextInt(3);
            String why = "seed " + seed + ", trial " + trial + ", " + (point == null ? "SIGKILL" : point) + " at batch "
                    + batch;
            if (point != null) {
                Process p = child(out, point, batch);
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(why + ": the child did not die in 60 s; stderr:\n"
                        + stderr()).isTrue();
                assertThat(p.exitValue()).as(why + ": " + stderr()).isEqualTo(137);
            } else {
                Process p = child(out, CrashPoint.NONE, -1);
                assertThat(readUntilBatch(stdout(p), batch)).as(why).isGreaterThanOrEqualTo(batch);
                p.destroyForcibly();
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(why).isTrue();
            }
            assertExactlyOnce(out, false, why);
        }
        Process p = child(out, CrashPoint.NONE, -1);
        long until = lastId("commits").orElse(-1) + 2;
        assertThat(readUntilBatch(stdout(p), until)).isGreaterThanOrEqualTo(until);
        try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            w.write("stop\n");
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(stderr()).isZero();
        assertExactlyOnce(out, true, "final clean run, seed " + seed);
    }

    /**
     * The sink holds batches 0..M, each batch's 100 rows once: the values [0, 100 (M + 1)) exactly once. M is the
     * last committed batch, or one more when the process died after the sink committed and before the commit log
     * (that batch is then re-run, and the sink must ignore the re-run). After a clean stop M is the last committed.
     */
    private void assertExactlyOnce(Path out, boolean clean, String why) throws Exception {
        List<Long> values = sinkValues(out);
        long committed = lastId("commits").orElse(-1);
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

    /** The values of the files the manifest names, read through Sluice's Parquet source. */
    private static List<Long> sinkValues(Path out) throws Exception {
        List<Long> values = new ArrayList<>();
        if (!FileSinkManifest.exists(out)) {
            return values;
        }
        try (Sluice sluice = Sluice.builder().build()) {
            for (Row r : sluice.read().format("parquet").schema("timestamp timestamp, value long")
                    .load(out.toString()).collectAsList()) {
                values.add(r.getLong(1));
            }
        }
        return values;
    }

    private OptionalLong lastId(String log) throws IOException {
        return CrashChildMain.lastLogId(tmp.resolve("chk"), log);
    }

    private Process child(Path out, CrashPoint point, long batch) throws IOException {
        Process p = CrashChildMain.startChild(tmp.resolve("child.err"), List.of(), ParquetSinkCrashChild.class,
                tmp.resolve("chk").toString(), out.toString(), point.name(), Long.toString(batch));
        children.add(p);
        return p;
    }

    private String stderr() throws IOException {
        return Files.readString(tmp.resolve("child.err"));
    }
}
