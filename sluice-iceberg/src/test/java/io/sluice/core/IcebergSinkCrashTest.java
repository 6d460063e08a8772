package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.core.CrashChildMain.CrashPoint;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
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
 * Exactly-once into the Iceberg sink across real process deaths: a separate JVM runs rate-micro-batch into an
 * Iceberg table and dies over and over at random points of the batch cycle (before or after the offset log, in
 * the middle of the sink's write, after the table's commit but before the commit log, after the commit log) by
 * halting itself, or by a SIGKILL from this test at a random moment. After every death the table's current
 * snapshot holds every row of every batch it committed exactly once, and its history has one snapshot per batch id
 * (epoch id 0, 1, 2... in order, never one twice). Trials: {@code -Dsluice.crashTrials} (default 8 here).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class IcebergSinkCrashTest {
    private static final int TRIALS = Integer.getInteger("sluice.crashTrials", 8);
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
    void everyRowExactlyOnceAndNoBatchCommittedTwiceAcrossManyDeaths() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path out = tmp.resolve("table");
        boolean sawCommitBeforeLog = false;
        for (int trial = 0; trial < TRIALS; trial++) {
            long next = Math.max(lastId("offsets").orElse(-1), lastId("commits").orElse(-1)) + 1;
            // the crash that tests the ancestor walk at least once: after the table's commit, before commits/N
            CrashPoint point = trial == 1 && !sawCommitBeforeLog ? CrashPoint.BEFORE_COMMIT_LOG
                    : POINTS[random.nextInt(POINTS.length)];
            sawCommitBeforeLog |= point == CrashPoint.BEFORE_COMMIT_LOG;
            long batch = next + random.nextInt(3);
            String why = "seed " + seed + ", trial " + trial + ", " + (point == null ? "SIGKILL" : point) + " at batch "
                    + batch;
            if (point != null) {
                Process p = child(out, point, batch);
                assertThat(p.waitFor(90, TimeUnit.SECONDS)).as(why + ": the child did not die in 90 s; stderr:\n"
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

    private void assertExactlyOnce(Path out, boolean clean, String why) throws Exception {
        long committed = lastId("commits").orElse(-1);
        if (!Files.exists(out.resolve("metadata"))) {
            assertThat(committed).as(why).isEqualTo(-1);
            return;
        }
        Table table = new HadoopTables(new Configuration()).load(out.toString());
        List<String> epochs = new ArrayList<>();
        for (Snapshot s : table.snapshots()) {
            epochs.add(s.summary().get("spark.sql.streaming.epochId"));
        }
        long batches = epochs.size();
        assertThat(epochs).as(why + ": one commit per batch id, in order")
                .containsExactlyElementsOf(LongStream.range(0, batches).mapToObj(Long::toString).toList());
        List<Long> values = new ArrayList<>();
        if (table.currentSnapshot() != null) {
            try (Sluice sluice = Sluice.builder().build()) {
                for (Row r : sluice.read().format("iceberg").load(out.toString()).collectAsList()) {
                    values.add(r.getLong(1));
                }
            }
        }
        assertThat(values).as(why).doesNotHaveDuplicates();
        assertThat(values.stream().sorted().toList()).as(why).containsExactlyElementsOf(
                LongStream.range(0, batches * CrashChildMain.ROWS_PER_BATCH).boxed().toList());
        if (clean) {
            assertThat(batches - 1).as(why).isEqualTo(committed);
        } else {
            assertThat(batches - 1).as(why).isBetween(committed, committed + 1);
        }
    }

    private OptionalLong lastId(String log) throws IOException {
        return CrashChildMain.lastLogId(tmp.resolve("chk"), log);
    }

    private Process child(Path out, CrashPoint point, long batch) throws IOException {
        Process p = CrashChildMain.startChild(tmp.resolve("child.err"), List.of(), IcebergSinkCrashChild.class,
                tmp.resolve("chk").toString(), out.toString(), point.name(), Long.toString(batch));
        children.add(p);
        return p;
    }

    private String stderr() throws IOException {
        return Files.readString(tmp.resolve("child.err"));
    }
}
