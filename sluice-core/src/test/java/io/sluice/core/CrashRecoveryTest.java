package io.sluice.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.sluice.core.CrashChildMain.readUntilBatch;
import static io.sluice.core.CrashChildMain.stdout;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once across real process deaths: a separate JVM runs rate-micro-batch into an idempotent file sink and
 * dies at each point of the batch cycle (halt) or at a random moment (SIGKILL); a restart must leave every batch's
 * file with exactly its logged range, and all rows exactly once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CrashRecoveryTest {
    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
    }

    private Process child(CrashChildMain.CrashPoint point, long batch) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", CrashChildMain.class.getName(),
                tmp.resolve("chk").toString(), tmp.resolve("out").toString(), point.name(), Long.toString(batch))
                .redirectError(tmp.resolve("child-" + children.size() + ".err").toFile())
                .start();
        children.add(p);
        return p;
    }

    /** Starts cleanly, waits for a few more batches, asks the child to stop at a batch boundary. */
    private void finishCleanly(long untilBatch) throws Exception {
        Process p = child(CrashChildMain.CrashPoint.NONE, -1);
        assertThat(readUntilBatch(stdout(p), untilBatch)).as("clean run reached batch " + untilBatch)
                .isGreaterThanOrEqualTo(untilBatch);
        try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            w.write("stop\n");
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("child-" + (children.size() - 1) + ".err")))
                .isZero();
    }

    @ParameterizedTest
    @EnumSource(value = CrashChildMain.CrashPoint.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aProcessHaltedAtAnyPointOfTheBatchCycleRecoversExactlyOnce(CrashChildMain.CrashPoint point) throws Exception {
        for (long batch : new long[] {0, 3}) {
            Process p = child(point, batch);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("crashed at " + point + " of batch " + batch).isEqualTo(137);
            assertExactlyOnceSoFar(false);
        }
        finishCleanly(6);
        assertExactlyOnceSoFar(true);
    }

    @Test
    void processesKilledWithSigkillAtRandomMomentsRecoverExactlyOnce() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long reached = 0;
        for (int trial = 0; trial < 10; trial++) {
            Process p = child(CrashChildMain.CrashPoint.NONE, -1);
            reached = readUntilBatch(stdout(p), reached + 1 + random.nextInt(4));
            assertThat(reached).as("seed " + seed).isPositive();
            p.destroyForcibly(); // SIGKILL, wherever the batch cycle is
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertExactlyOnceSoFar(false);
        }
        finishCleanly(reached + 2);
        assertExactlyOnceSoFar(true);
    }

    /**
     * Every committed batch N has its file with exactly the rows of its logged range, [100 N, 100 N + 100), and the
     * files together hold every row up to the last committed batch exactly once. After a clean stop nothing is
     * pending: every logged batch is committed.
     */
    private void assertExactlyOnceSoFar(boolean cleanlyStopped) throws IOException {
        Path chk = tmp.resolve("chk");
        TreeSet<Long> committed = ids(chk.resolve("commits"));
        TreeSet<Long> logged = ids(chk.resolve("offsets"));
        if (cleanlyStopped) {
            assertThat(committed).isEqualTo(logged);
        }
        if (committed.isEmpty()) {
            return;
        }
        long last = committed.last();
        assertThat(committed).containsExactlyElementsOf(LongStream.rangeClosed(0, last).boxed().toList());
        List<Long> all = new ArrayList<>();
        for (long n = 0; n <= last; n++) {
            List<Long> rows = Files.readAllLines(tmp.resolve("out/batch-" + n + ".txt")).stream()
                    .map(Long::parseLong).sorted().toList();
            long from = n * CrashChildMain.ROWS_PER_BATCH;
            assertThat(rows).as("batch " + n).containsExactlyElementsOf(
                    LongStream.range(from, from + CrashChildMain.ROWS_PER_BATCH).boxed().toList());
            assertThat(Files.readString(chk.resolve("offsets/" + n)))
                    .endsWith("\n{\"offset\":" + (from + CrashChildMain.ROWS_PER_BATCH) + ",\"timestamp\":"
                            + (n + 1) * 1000 + "}");
            all.addAll(rows);
        }
        assertThat(all).doesNotHaveDuplicates().hasSize((int) ((last + 1) * CrashChildMain.ROWS_PER_BATCH));
    }

    private static TreeSet<Long> ids(Path folder) throws IOException {
        TreeSet<Long> out = new TreeSet<>();
        if (!Files.isDirectory(folder)) {
            return out;
        }
        try (Stream<Path> s = Files.list(folder)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+")).map(Long::parseLong).forEach(out::add);
        }
        return out;
    }
}
