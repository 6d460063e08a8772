package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.files.sink.FileSinkManifest;
import io.sluice.python.PythonDataSources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static io.sluice.core.CrashChildMain.readUntilBatch;
import static io.sluice.core.CrashChildMain.stdout;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once from a Python source into the JSON file sink across real process deaths: a child JVM runs the
 * Python source {@code endless} (its planning and reading done by python3 workers) into the file sink, and is
 * killed with SIGKILL at a random moment after a random batch, again and again; after every death the files the
 * sink's manifest names hold the numbers [0, 100 x batches) exactly once, the batches being the committed ones or
 * one more. The Python workers of a killed JVM exit too (their parent is gone). Trials: {@code -Dsluice.crashTrials}
 * (default 6 here).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PythonSourceCrashTest {
    private static final int TRIALS = Integer.getInteger("sluice.crashTrials", 6);

    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
    }

    @Test
    void everyRowExactlyOnceAcrossKills() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path out = tmp.resolve("out");
        for (int trial = 0; trial < TRIALS; trial++) {
            long after = CrashChildMain.lastLogId(tmp.resolve("chk"), "commits").orElse(-1) + 1 + random.nextInt(3);
            String why = "seed " + seed + ", trial " + trial + ", SIGKILL after batch " + after;
            Process p = child(out);
            assertThat(readUntilBatch(stdout(p), after)).as(why + ": " + stderr()).isGreaterThanOrEqualTo(after);
            Thread.sleep(random.nextInt(40));  // a random moment of the next batch's cycle, not a wait for state
            List<ProcessHandle> workers = p.toHandle().descendants().toList();
            assertThat(workers).as(why).isNotEmpty();
            p.destroyForcibly();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(why).isTrue();
            // the killed JVM's Python workers do not outlive it, whatever they were doing
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> workers.stream().noneMatch(ProcessHandle::isAlive));
            assertExactlyOnce(out, false, why);
        }
        Process p = child(out);
        long until = CrashChildMain.lastLogId(tmp.resolve("chk"), "commits").orElse(-1) + 2;
        assertThat(readUntilBatch(stdout(p), until)).isGreaterThanOrEqualTo(until);
        try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            w.write("stop\n");
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(stderr()).isZero();
        assertExactlyOnce(out, true, "final clean run, seed " + seed);
    }

    private void assertExactlyOnce(Path out, boolean clean, String why) throws Exception {
        List<Long> values = new ArrayList<>();
        if (FileSinkManifest.exists(out)) {
            try (Sluice sluice = Sluice.builder().build()) {
                for (Row r : sluice.read().format("json").schema("n long, word string").load(out.toString())
                        .collectAsList()) {
                    assertThat(r.getString(1)).as(why).isEqualTo("w" + r.getLong(0));
                    values.add(r.getLong(0));
                }
            }
        }
        assertThat(values).as(why).doesNotHaveDuplicates();
        long batches = values.size() / 100;
        assertThat(values.stream().sorted().toList()).as(why)
                .containsExactlyElementsOf(LongStream.range(0, batches * 100).boxed().toList());
        long committed = CrashChildMain.lastLogId(tmp.resolve("chk"), "commits").orElse(-1);
        if (clean) {
            assertThat(batches - 1).as(why).isEqualTo(committed);
        } else {
            assertThat(batches - 1).as(why).isBetween(committed, committed + 1);
        }
    }

    private Process child(Path out) throws IOException {
        Path py;
        try {
            py = Path.of(PythonDataSources.class.getResource("/python/endless_source.py").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Process p = CrashChildMain.startChild(tmp.resolve("child.err"), List.of(), PythonSourceCrashChild.class,
                py.toString(), tmp.resolve("chk").toString(), out.toString());
        children.add(p);
        return p;
    }

    private String stderr() throws IOException {
        return Files.readString(tmp.resolve("child.err"));
    }
}
