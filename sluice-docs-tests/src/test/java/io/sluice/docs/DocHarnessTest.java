package io.sluice.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The harness itself: it fails on a broken page, naming the page and the line. */
class DocHarnessTest {

    private static DocHarness.Report run(Path dir, String page) throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Files.writeString(repo.resolve("page.md"), page);
        return DocHarness.run(repo, List.of("page.md"), Files.createDirectories(dir.resolve("work")));
    }

    @Test
    void aSnippetThatDoesNotCompileFailsWithItsPageAndLine(@TempDir Path dir) throws Exception {
        DocHarness.Report r = run(dir, """
                # A page

                ```java
                try (Sluice sluice = Sluice.local()) {
                    sluice.readStrem();
                }
                ```
                """);
        assertThat(r.failures()).singleElement().asString()
                .startsWith("page.md:5: the ```java block does not compile: cannot find symbol");
    }

    @Test
    void aSnippetThatThrowsFailsWithTheLineThatThrew(@TempDir Path dir) throws Exception {
        DocHarness.Report r = run(dir, """
                ```java
                try (Sluice sluice = Sluice.local()) {
                    sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 0).load();
                }
                ```
                """);
        assertThat(r.failures()).singleElement().asString()
                .startsWith("page.md:2: the ```java block failed: io.sluice.api.InvalidOptionException: Invalid "
                        + "value '0'. The option 'rowsPerBatch' must be positive at page.md:3");
    }

    @Test
    void aWrapSuppliesWhatAFragmentNeeds(@TempDir Path dir) throws Exception {
        DocHarness.Report r = run(dir, """
                <!-- doctest: wrap
                try (Sluice sluice = Sluice.local()) {
                    $SNIPPET
                    q.awaitTermination();
                    assertEquals(3, MemorySink.rows("wrapped").size());
                }
                -->
                ```java
                StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3).load()
                        .writeStream().format("memory").queryName("wrapped").trigger(Trigger.availableNow()).start();
                ```
                """);
        assertThat(r.failures()).isEmpty();
        assertThat(r.javaBlocks()).isEqualTo(1);
    }

    @Test
    void aFailingCommandAndAnUnknownOneFailWithTheirLines(@TempDir Path dir) throws Exception {
        DocHarness.Report r = run(dir, """
                Run it:

                    bin/sluice run --source rate-micro-batch --source-option rowsPerBatch=0 --sink noop

                ```bash
                # a comment
                curl http://localhost/
                ```
                """);
        assertThat(r.failures()).hasSize(2);
        assertThat(r.failures().get(0)).startsWith("page.md:3: `bin/sluice run --source rate-micro-batch "
                + "--source-option rowsPerBatch=0 --sink noop` exited with 1, expected 0; stderr: sluice: Invalid "
                + "value '0'. The option 'rowsPerBatch' must be positive");
        assertThat(r.failures().get(1)).startsWith("page.md:7: 'curl' is neither a sluice command");
    }

    @Test
    void expectExitAndACommandRunUntilCtrlC(@TempDir Path dir) throws Exception {
        DocHarness.Report r = run(dir, """
                <!-- doctest: expect-exit 1 -->
                ```bash
                bin/sluice run --source rate-micro-batch --source-option rowsPerBatch=0 --sink noop
                ```

                ```bash
                bin/sluice run --source rate-micro-batch --source-option rowsPerBatch=10 --sink noop \\
                    --checkpoint /tmp/self-test/chk
                bin/sluice checkpoint show /tmp/self-test/chk --json | jq .queryId
                ```
                """);
        assertThat(r.failures()).isEmpty();
        assertThat(r.commands()).isEqualTo(3);
        assertThat(r.expectedFailures()).singleElement().extracting(DocHarness.Failed::where).isEqualTo("page.md:3");
        // The checkpoint went to the page's work folder, not to /tmp.
        assertThat(dir.resolve("work/page/tmp/self-test/chk/offsets")).isDirectory();
    }

    @Test
    void blocksWithoutALanguageBadDirectivesAndSharedCheckpointsFail(@TempDir Path dir) throws Exception {
        DocHarness.Report r = run(dir, """
                ```
                some output
                ```

                <!-- doctest: skip -->
                ```java
                int x = 1;
                ```

                ```json
                {"a": 1,}
                ```

                <!-- doctest: skip needs a cluster -->
                ```java
                x.option("checkpointLocation", "/tmp/one/chk");
                ```

                ```java
                String chk = "/tmp/two/chk"; // fine
                Map.of("checkpointLocation", "/tmp/one/chk");
                ```
                """);
        assertThat(r.failures()).containsExactly(
                "page.md:2: a code block without a known language (''): fence it as ```java or ```bash (run by the "
                        + "doc tests), or ```text, ```json, ```yaml (not run), ```python (compiled by python3; saved "
                        + "and run with a file directive)",
                "page.md:5: the doctest directive 'skip ' is malformed: say why the block cannot run: skip REASON",
                "page.md:11: the ```json block does not parse: Unexpected character ('}' (code 125)): was expecting "
                        + "double-quote to start field name",
                "page.md:16: the checkpoint /tmp/one/chk is also used by page.md:21: give each example its own "
                        + "checkpoint folder (or mark a block that resumes the same query with <!-- doctest: resumes "
                        + "-->)");
        assertThat(r.skips()).containsExactly("page.md:16: needs a cluster");
    }

    @Test
    void kafkaDevRunsOnAFreePortUntilCtrlC(@TempDir Path dir) throws Exception {
        DocHarness.Report r = run(dir, """
                ```bash
                bin/sluice kafka dev --data-dir /tmp/dev-kafka
                ```
                """);
        assertThat(r.failures()).isEmpty();
        assertThat(r.commands()).isEqualTo(1);
        assertThat(dir.resolve("work/page/tmp/dev-kafka")).isDirectory();
    }
}
