package io.sluice.core;

import org.junit.jupiter.api.AfterEach;
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
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.sluice.core.CrashChildMain.readUntilBatch;
import static io.sluice.core.CrashChildMain.stdout;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * kill -9 of a stateful query at random moments, then restarts on the same checkpoint: the output, batch files
 * replaced by a re-run, holds every window count (and every distinct key) exactly once, with the right values.
 */
class StatefulCrashTest {
    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
    }

    private Process child(String query) throws IOException {
        Process p = CrashChildMain.startChild(tmp.resolve("child-" + children.size() + ".err"), List.of(),
                StatefulCrashChildMain.class, tmp.resolve("chk").toString(), tmp.resolve("out").toString(), query);
        children.add(p);
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"window", "dedup"})
    void killedWithSigkillAtRandomMomentsTheQueryRecoversExactlyOnce(String query) throws Exception {
        Random random = new Random(query.hashCode());
        long reached = -1;
        for (int kill = 0; kill < 3; kill++) {
            Process p = child(query);
            reached = readUntilBatch(stdout(p), reached + 2 + random.nextInt(4));
            assertThat(reached).as("child %d reached a batch (stderr in %s)", kill, tmp).isNotNegative();
            Thread.sleep(random.nextInt(40)); // somewhere inside a later batch
            p.destroyForcibly();              // SIGKILL
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        Process p = child(query);
        assertThat(readUntilBatch(stdout(p), reached + 12)).isNotNegative();
        try (PrintWriter in = new PrintWriter(p.getOutputStream(), true, StandardCharsets.UTF_8)) {
            in.println("stop");
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();

        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(tmp.resolve("out"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("batch-")).toList()) {
                lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            }
        }
        if (query.equals("window")) {
            // Window k holds batches 5k..5k+4: 250 rows, emitted once, from the first window on without a gap.
            TreeMap<Long, Integer> seen = new TreeMap<>();
            for (String line : lines) {
                String[] parts = line.split(",");
                assertThat(seen.put(Long.parseLong(parts[0]), 1)).as("window %s emitted twice", parts[0]).isNull();
                assertThat(parts[1]).as("count of window %s", parts[0]).isEqualTo("250");
            }
            long first = StatefulCrashChildMain.START_MS / 1000;
            assertThat(seen.size()).isGreaterThanOrEqualTo(2);
            assertThat(seen.firstKey()).isEqualTo(first);
            assertThat(seen.lastKey()).isEqualTo(first + 5L * (seen.size() - 1));
        } else {
            // Keys 0..299 in the first 6 batches, then only duplicates: each key exactly once.
            assertThat(lines.stream().map(Long::parseLong).sorted().toList())
                    .isEqualTo(java.util.stream.LongStream.range(0, 300).boxed().toList());
        }
    }
}
