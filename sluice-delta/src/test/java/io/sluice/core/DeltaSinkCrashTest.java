package io.sluice.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.Row;
import io.sluice.core.CrashChildMain.CrashPoint;
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
import java.util.stream.Stream;

import static io.sluice.core.CrashChildMain.readUntilBatch;
import static io.sluice.core.CrashChildMain.stdout;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once into the Delta sink across real process deaths: a separate JVM runs rate-micro-batch into the Delta
 * sink and dies at random points of the batch cycle (halting there, or by SIGKILL from this test). After every
 * death the table, read back through the Delta source, holds every row of every batch it committed exactly once,
 * and its log holds one commit per batch id of the query ({@code txn} versions 0..M, each once). Trials:
 * {@code -Dsluice.crashTrials} (default 8 here: each child starts a JVM with Kernel and Hadoop).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DeltaSinkCrashTest {
    private static final int TRIALS = Integer.getInteger("sluice.crashTrials", 8);
    private static final CrashPoint[] POINTS = {CrashPoint.BEFORE_OFFSET_LOG, CrashPoint.AFTER_OFFSET_LOG,
        CrashPoint.DURING_SINK_WRITE, CrashPoint.BEFORE_COMMIT_LOG, CrashPoint.AFTER_COMMIT_LOG, null};
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
    }

    @Test
    void everyRowExactlyOnceAndOneCommitPerBatchAcrossDeaths() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path out = tmp.resolve("table");
        for (int trial = 0; trial < TRIALS; trial++) {
            long next = Math.max(lastId("offsets").orElse(-1), lastId("commits").orElse(-1)) + 1;
            CrashPoint point = POINTS[random.nextInt(POINTS.length)];
            long batch = next + random.nextInt(3);
            String why = "seed " + seed + ", trial " + trial + ", " + (point == null ? "SIGKILL" : point) + " at batch "
                    + batch;
            if (point != null) {
                Process p = child(out, point, batch);
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(why + ": the child did not die; stderr:\n"
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

    private void assertExactlyOnce(Path table, boolean clean, String why) throws Exception {
        List<Long> txnVersions = txnVersions(table);
        long committed = lastId("commits").orElse(-1);
        assertThat(txnVersions).as(why + ": one commit per batch id").doesNotHaveDuplicates()
                .isSorted();
        long batches = txnVersions.size();
        assertThat(txnVersions).as(why).containsExactlyElementsOf(LongStream.range(0, batches).boxed().toList());
        List<Long> values = new ArrayList<>();
        if (batches > 0) {
            try (Sluice sluice = Sluice.builder().build()) {
                for (Row r : sluice.read().format("delta").load(table.toString()).collectAsList()) {
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

    /** The txn versions of the table's commits, in commit order. */
    private static List<Long> txnVersions(Path table) throws IOException {
        List<Long> out = new ArrayList<>();
        Path log = table.resolve("_delta_log");
        if (!Files.isDirectory(log)) {
            return out;
        }
        List<Path> commits;
        try (Stream<Path> s = Files.list(log)) {
            commits = s.filter(f -> f.getFileName().toString().matches("\\d{20}\\.json")).sorted().toList();
        }
        for (Path c : commits) {
            for (String line : Files.readAllLines(c)) {
                JsonNode n = JSON.readTree(line);
                if (n.has("txn")) {
                    out.add(n.get("txn").get("version").asLong());
                }
            }
        }
        return out;
    }

    private OptionalLong lastId(String log) throws IOException {
        return CrashChildMain.lastLogId(tmp.resolve("chk"), log);
    }

    private Process child(Path out, CrashPoint point, long batch) throws IOException {
        Process p = CrashChildMain.startChild(tmp.resolve("child.err"), List.of(), DeltaSinkCrashChild.class,
                tmp.resolve("chk").toString(), out.toString(), point.name(), Long.toString(batch));
        children.add(p);
        return p;
    }

    private String stderr() throws IOException {
        return Files.readString(tmp.resolve("child.err"));
    }
}
