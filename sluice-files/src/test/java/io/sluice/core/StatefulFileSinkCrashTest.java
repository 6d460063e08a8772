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
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import static io.sluice.core.CrashChildMain.readUntilBatch;
import static io.sluice.core.CrashChildMain.stdout;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A windowed count (append mode, watermark) and a dropDuplicates into the real JSON file sink, in a separate JVM
 * killed over and over (SIGKILL from here at a random moment, or a halt after the sink committed a batch and
 * before {@code commits/N}, so the batch is re-run on a restart), then stopped cleanly: the sink's output, read
 * back through its manifest, holds exactly the rows Spark's semantics give, each once. The expected rows are
 * computed here from the query's definition: window k of 5 s holds 5 batches of 50 rows (250), and the windows
 * emitted are those whose end the last batch's watermark (its {@code batchWatermarkMs} in the offset log) has
 * reached; the deduplication writes each of the keys 0..299 once.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StatefulFileSinkCrashTest {
    private static final int DEATHS = 4;
    private static final Pattern WINDOW_ROW = Pattern.compile("\\{\"start\":(\\d+),\"count\":(\\d+)}");
    private static final Pattern KEY_ROW = Pattern.compile("\\{\"key\":(\\d+)}");

    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
    }

    private Process child(String query, CrashPoint point, long batch) throws IOException {
        Process p = CrashChildMain.startChild(tmp.resolve("child-" + children.size() + ".err"), List.of(),
                StatefulFileSinkCrashChild.class, query, chk().toString(), out().toString(), point.name(),
                Long.toString(batch));
        children.add(p);
        return p;
    }

    private Path chk() {
        return tmp.resolve("chk");
    }

    private Path out() {
        return tmp.resolve("out");
    }

    @ParameterizedTest
    @ValueSource(strings = {"window", "dedup"})
    void killedWithSigkillAndAfterTheSinksCommitTheOutputIsSparksAnswerExactlyOnce(String query) throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int death = 0; death < DEATHS; death++) {
            long next = Math.max(CrashChildMain.lastLogId(chk(), "offsets").orElse(-1),
                    CrashChildMain.lastLogId(chk(), "commits").orElse(-1)) + 1;
            long batch = next + 2 + random.nextInt(4);
            String why = "seed " + seed + ", death " + death + " at batch " + batch + " (stderr in " + tmp + ")";
            if (death % 2 == 0) {
                Process p = child(query, CrashPoint.NONE, -1);
                assertThat(readUntilBatch(stdout(p), batch)).as(why).isGreaterThanOrEqualTo(batch);
                Thread.sleep(random.nextInt(40)); // somewhere inside a later batch
                p.destroyForcibly();              // SIGKILL
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(why).isTrue();
            } else {
                Process p = child(query, CrashPoint.BEFORE_COMMIT_LOG, batch);
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(why).isTrue();
                assertThat(p.exitValue()).as(why).isEqualTo(137);
                // The sink holds the batch; the commit log does not: a restart re-runs it.
                assertThat(CrashChildMain.lastLogId(chk(), "commits").orElse(-1)).as(why).isEqualTo(batch - 1);
            }
            assertOnce(query, why);
        }
        Process p = child(query, CrashPoint.NONE, -1);
        long until = CrashChildMain.lastLogId(chk(), "offsets").orElse(-1) + 10;
        assertThat(readUntilBatch(stdout(p), until)).isGreaterThanOrEqualTo(until);
        try (PrintWriter in = new PrintWriter(p.getOutputStream(), true, StandardCharsets.UTF_8)) {
            in.println("stop");
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();

        long last = CrashChildMain.lastLogId(chk(), "commits").orElseThrow();
        assertThat(CrashChildMain.lastLogId(chk(), "offsets").orElseThrow()).isEqualTo(last);
        if (query.equals("window")) {
            long watermarkMs = CheckpointView.open(chk()).batches().stream().filter(b -> b.batchId() == last)
                    .findFirst().orElseThrow().offsets().batchWatermarkMs();
            long first = StatefulFileSinkCrashChild.START_MS / 1000;
            // Every window [first + 5k, first + 5k + 5) whose end the last batch's watermark reached, once, 250 rows.
            List<String> expected = LongStream.iterate(first, s -> (s + 5) * 1000 <= watermarkMs, s -> s + 5)
                    .mapToObj(s -> s + "=250").toList();
            assertThat(expected).as("seed " + seed).hasSizeGreaterThanOrEqualTo(3);
            assertThat(rows(WINDOW_ROW)).as("seed " + seed).containsExactlyInAnyOrderElementsOf(expected);
        } else {
            assertThat(rows(KEY_ROW)).as("seed " + seed).containsExactlyInAnyOrderElementsOf(
                    LongStream.range(0, 300).mapToObj(Long::toString).toList());
        }
    }

    /** After a death: no row twice, and what is there is a part of the answer (whole windows, keys in range). */
    private void assertOnce(String query, String why) throws IOException {
        if (query.equals("window")) {
            List<String> rows = rows(WINDOW_ROW);
            assertThat(rows).as(why).doesNotHaveDuplicates().allMatch(r -> r.endsWith("=250"));
            long first = StatefulFileSinkCrashChild.START_MS / 1000;
            assertThat(rows).as(why).containsExactlyInAnyOrderElementsOf(LongStream.range(0, rows.size())
                    .mapToObj(k -> (first + 5 * k) + "=250").toList());
        } else {
            List<String> rows = rows(KEY_ROW);
            assertThat(rows).as(why).doesNotHaveDuplicates().allMatch(r -> Long.parseLong(r) < 300);
        }
    }

    /** Each JSON line of the sink's committed files, through its manifest: {@code start=count} or {@code key}. */
    private List<String> rows(Pattern row) throws IOException {
        List<String> rows = new ArrayList<>();
        if (!FileSinkManifest.exists(out())) {
            return rows;
        }
        for (SinkFileStatus f : FileSinkManifest.allFiles(out())) {
            for (String line : Files.readAllLines(f.localPath(), StandardCharsets.UTF_8)) {
                Matcher m = row.matcher(line);
                assertThat(m.matches()).as("line %s of %s", line, f.localPath()).isTrue();
                rows.add(m.groupCount() == 2 ? m.group(1) + "=" + m.group(2) : m.group(1));
            }
        }
        return rows;
    }
}
