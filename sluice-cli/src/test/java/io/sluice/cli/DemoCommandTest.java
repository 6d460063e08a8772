package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void runsStopsResumesAndFindsEveryEventExactlyOnce() throws IOException {
        Cli.Result r = Cli.run("demo", "--dir", dir.toString(), "--files", "8", "--rows-per-file", "20",
                "--max-files-per-trigger", "2", "--interval-ms", "0", "--plain");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Sluice demo in " + dir.toAbsolutePath())
                .contains("Run 1: a query every 500 ms, at most 2 files a batch, while 4 files arrive")
                .contains("Produced 160 events in 8 files, 144 with a positive amount; the sink's manifest lists "
                        + "144 rows: every event exactly once.");
        // Run 2 resumes right after run 1's last batch and drains the 4 new files 2 at a time.
        long lastOfRun1 = Long.parseLong(r.out().replaceAll("(?s).*stopped after batch (\\d+);.*", "$1"));
        assertThat(r.out()).contains("resumes at batch " + (lastOfRun1 + 1))
                .contains("batch " + (lastOfRun1 + 1) + ": 40 rows").contains("batch " + (lastOfRun1 + 2) + ": 40 rows")
                .doesNotContain("batch " + (lastOfRun1 + 3) + ":");
        try (Stream<Path> landing = Files.list(dir.resolve("landing"))) {
            assertThat(landing.map(p -> p.getFileName().toString())).hasSize(8).allMatch(n -> n.matches("events-\\d{4}\\.json"));
        }
        assertThat(dir.resolve("output/_spark_metadata")).isDirectory();
        assertThat(dir.resolve("checkpoint/commits/" + (lastOfRun1 + 2))).exists();
    }

    @Test
    void refusesSettingsThatCannotMakeADemo() {
        Cli.Result r = Cli.run("demo", "--dir", dir.toString(), "--files", "1");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--files must be at least 2");
    }
}
