package io.sluice.files.source;

import io.sluice.api.Offset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.sluice.files.source.Harness.ids;
import static io.sluice.files.source.TestFiles.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** cleanSource: archive and delete, only after the batch commits, and only the files the batch read. */
class CleanSourceTest {
    static final long T = 1_700_000_000_000L;

    @TempDir
    Path tmp;
    Path in;
    Path archive;
    Harness h;

    @BeforeEach
    void setUp() throws Exception {
        in = Files.createDirectories(tmp.resolve("in"));
        archive = tmp.resolve("archive");
        h = new Harness(in, Files.createDirectories(tmp.resolve("chk/sources/0")));
    }

    @Test
    void archiveMovesAFileUnderTheArchiveFolderAtItsPathRelativeToTheSourceOnlyAfterCommit() {
        json(in, "day=1/a.json", T, 1);
        json(in, "b.json", T + 1, 2);
        h.option("cleanSource", "archive").option("sourceArchiveDir", archive).open();
        Offset end = h.next();
        assertThat(ids(h.read(h.stream.initialOffset(), end))).containsExactly(1L, 2L);
        // Read but not committed: a re-run must find the files where they were.
        assertThat(in.resolve("day=1/a.json")).exists();
        h.stream.commit(end);
        assertThat(in.resolve("day=1/a.json")).doesNotExist();
        assertThat(in.resolve("b.json")).doesNotExist();
        assertThat(archive.resolve("day=1/a.json")).exists();
        assertThat(archive.resolve("b.json")).exists();
    }

    @Test
    void deleteRemovesTheFilesOfEveryLogOffsetOfTheCommittedBatch() {
        json(in, "a.json", T, 1);
        h.option("cleanSource", "delete").option("maxFilesPerTrigger", 1).open();
        Offset first = h.next(); // logged, then the run stops before offsets/N
        json(in, "b.json", T + 1, 2);
        h.open();
        Offset end = h.stream.latestOffset(h.stream.initialOffset(), io.sluice.api.ReadLimit.maxFiles(1));
        assertThat(end).isEqualTo(first);
        h.read(h.stream.initialOffset(), end);
        h.stream.commit(end);
        assertThat(in.resolve("a.json")).doesNotExist();
        assertThat(in.resolve("b.json")).exists();
        h.committed = end;
        assertThat(ids(h.batch())).containsExactly(2L);
        assertThat(in.resolve("b.json")).doesNotExist();
    }

    @Test
    void aFileChangedSinceItWasReadIsLeftInPlace() throws Exception {
        json(in, "a.json", T, 1);
        h.option("cleanSource", "delete").open();
        Offset end = h.next();
        h.read(h.stream.initialOffset(), end);
        json(in, "a.json", T + 99, 1, 2); // rewritten after the read: not the file the batch took
        h.stream.commit(end);
        assertThat(in.resolve("a.json")).exists();
    }

    @Test
    void aRestartedRunCleansWhatACrashLeftAndNotBatchesCleanedBefore() throws Exception {
        json(in, "a.json", T, 1);
        h.option("cleanSource", "delete").open();
        assertThat(ids(h.batch())).containsExactly(1L);
        assertThat(Files.readString(h.metadata.resolve("cleanSource"))).isEqualTo("{\"logOffset\":0}");
        // A new file under the old name: it must survive the engine's repeated commit of the last batch on resume.
        json(in, "a.json", T, 7);
        json(in, "b.json", T + 1, 2);
        Offset end = h.next();
        h.read(h.committed, end);
        // Crash after commits/N, before the source's commit: the restarted run gets commit(end) from the engine.
        h.open();
        h.stream.commit(end);
        assertThat(in.resolve("b.json")).doesNotExist();
        assertThat(in.resolve("a.json")).exists();
        h.stream.commit(end);
        assertThat(Files.readString(h.metadata.resolve("cleanSource"))).isEqualTo("{\"logOffset\":1}");
    }

    @Test
    void aSecondQueryWithCleanSourceOnTheSameFilesFailsClearlyWhenTheFirstRemovedOne() throws Exception {
        json(in, "a.json", T, 1);
        Harness other = new Harness(in, Files.createDirectories(tmp.resolve("chk2/sources/0")));
        other.option("cleanSource", "delete").open();
        h.option("cleanSource", "delete").open();
        Offset mine = h.next();
        // The other query lists, reads and commits first: it deletes a.json.
        assertThat(ids(other.batch())).containsExactly(1L);
        assertThatThrownBy(() -> h.read(h.stream.initialOffset(), mine)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not exist any more")
                .hasMessageContaining("Is another query with cleanSource reading the same path");
        // And a file removed before a query lists it is simply never seen by that query.
        json(in, "b.json", T + 1, 2);
        assertThat(ids(other.batch())).containsExactly(2L);
        Harness third = new Harness(in, Files.createDirectories(tmp.resolve("chk3/sources/0")));
        third.open();
        assertThat(third.batch()).isNull();
    }
}
