package io.sluice.docs;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java snippet and command of README.md and docs/ runs as written (docs/ARCHITECTURE.md, "Tested
 * documentation"): a page cannot drift from the code.
 */
class DocsTest {
    /** Skips must stay rare: raise this only with a reason in the skip directive. */
    static final int MAX_SKIPS = 6;

    static Path repo;

    @BeforeAll
    static void findRepo() {
        repo = Path.of(System.getProperty("sluice.repo", "..")).toAbsolutePath().normalize();
    }

    @Test
    void everyExampleOfTheDocsRunsAsWritten(@TempDir Path work) throws Exception {
        DocHarness.Report r = DocHarness.run(repo, DocHarness.pages(repo), work);
        // The slowest blocks, to keep the harness fast (it runs in every build).
        r.millisByBlock().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(8)
                .forEach(e -> System.out.println("doc test " + e.getKey() + ": " + e.getValue() + " ms"));
        assertThat(r.failures()).as("documented examples that fail").isEmpty();
        assertThat(r.skips()).as("skipped blocks").hasSizeLessThanOrEqualTo(MAX_SKIPS);
        // The harness did look at the pages: the README's first query and the CLI page's commands are there.
        assertThat(r.javaBlocks()).isGreaterThanOrEqualTo(20);
        assertThat(r.commands()).isGreaterThanOrEqualTo(8);
    }

    @Test
    void noTwoExamplesShareACheckpointFolder() throws Exception {
        List<DocHarness.CheckpointUse> uses = DocHarness.checkpoints(DocHarness.parse(repo, DocHarness.pages(repo)));
        assertThat(uses).extracting(DocHarness.CheckpointUse::path).contains("/tmp/sluice-readme-first/chk");
        assertThat(DocHarness.sharedCheckpoints(uses)).isEmpty();
    }

    /**
     * docs/cli.md promises that a failure prints one line on stderr, {@code sluice: <message>}, and nothing else
     * (without --verbose): no log line, no stack trace. stdout holds only the documented lines (the started line,
     * batch lines), none before the query starts. Each command the docs expect to fail (expect-exit 1) is held
     * to it, the failure before the query starts and the query that fails while running alike.
     */
    @Test
    void aFailurePrintsExactlyOneLine(@TempDir Path work) throws Exception {
        DocHarness.Report r = DocHarness.run(repo, List.of("docs/cli.md"), work);
        assertThat(r.failures()).isEmpty();
        assertThat(r.expectedFailures()).hasSizeGreaterThanOrEqualTo(2);
        for (DocHarness.Failed f : r.expectedFailures()) {
            assertThat(f.result().err().lines().toList()).as("stderr of %s: %s", f.where(), f.command())
                    .singleElement().asString().startsWith("sluice: ");
            assertThat(f.result().out().lines().toList()).as("stdout of %s: %s", f.where(), f.command())
                    .allMatch(l -> l.startsWith("started query ") || l.startsWith("batch "));
        }
    }
}
