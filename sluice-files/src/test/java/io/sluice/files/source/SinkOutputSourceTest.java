package io.sluice.files.source;

import io.sluice.api.InvalidOptionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.files.source.Harness.ids;
import static io.sluice.files.source.TestFiles.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A path that is a file sink's output is read through its _spark_metadata manifest, not its listing. */
class SinkOutputSourceTest {
    static final long T = 1_700_000_000_000L;

    @TempDir
    Path tmp;
    Path out;
    Path manifest;
    Harness h;

    @BeforeEach
    void setUp() throws Exception {
        out = Files.createDirectories(tmp.resolve("out"));
        manifest = Files.createDirectories(out.resolve("_spark_metadata"));
        h = new Harness(out, Files.createDirectories(tmp.resolve("chk/sources/0")));
    }

    private String entry(String relative, String action) throws Exception {
        Path p = out.resolve(relative);
        return "{\"path\":\"file://" + p + "\",\"size\":" + (Files.exists(p) ? Files.size(p) : 0)
                + ",\"isDir\":false,\"modificationTime\":" + (Files.exists(p) ? Files.getLastModifiedTime(p)
                .toMillis() : 0) + ",\"blockReplication\":1,\"blockSize\":33554432,\"action\":\"" + action + "\"}";
    }

    private void commitSinkBatch(String name, String... lines) throws Exception {
        List<String> all = new ArrayList<>();
        all.add("v1");
        all.addAll(List.of(lines));
        Files.writeString(manifest.resolve(name), String.join("\n", all));
    }

    @Test
    void onlyFilesTheManifestNamesAreReadSoPartialOutputStaysInvisible() throws Exception {
        json(out, "part-00000-a.json", T, 1);
        json(out, "part-00001-b.json", T + 1, 2);
        commitSinkBatch("0", entry("part-00000-a.json", "add"), entry("part-00001-b.json", "add"));
        json(out, "part-00000-orphan.json", T + 2, 99); // written by a sink batch that never committed
        h.open();
        assertThat(ids(h.batch())).containsExactly(1L, 2L);
        assertThat(h.batch()).isNull();

        json(out, "date=1/part-00000-c.json", T + 3, 3);
        commitSinkBatch("1", entry("date=1/part-00000-c.json", "add"));
        assertThat(ids(h.batch())).containsExactly(3L);
    }

    @Test
    void aCompactFileIsReadWholeAndRepeatedEntriesAreNotReadAgain() throws Exception {
        json(out, "p0.json", T, 1);
        commitSinkBatch("0", entry("p0.json", "add"));
        h.open();
        assertThat(ids(h.batch())).containsExactly(1L);
        json(out, "p1.json", T + 1, 2);
        json(out, "p2.json", T + 2, 3);
        commitSinkBatch("1.compact", entry("p0.json", "add"), entry("p1.json", "add"), entry("p2.json", "add"));
        Files.delete(manifest.resolve("0"));
        assertThat(ids(h.batch())).containsExactly(2L, 3L);
    }

    @Test
    void aDeletedEntryIsNotRead() throws Exception {
        json(out, "p0.json", T, 1);
        json(out, "p1.json", T + 1, 2);
        commitSinkBatch("0", entry("p0.json", "add"), entry("p1.json", "add"));
        commitSinkBatch("1", entry("p0.json", "delete"));
        h.open();
        assertThat(ids(h.batch())).containsExactly(2L);
    }

    @Test
    void aRateLimitedQueryKeepsTheManifestsUnreadFilesForLaterBatches() throws Exception {
        json(out, "p0.json", T, 1);
        json(out, "p1.json", T + 1, 2);
        json(out, "p2.json", T + 2, 3);
        commitSinkBatch("0", entry("p0.json", "add"), entry("p1.json", "add"), entry("p2.json", "add"));
        h.option("maxFilesPerTrigger", 1).option("maxCachedFiles", 0).open();
        assertThat(ids(h.batch())).containsExactly(1L);
        assertThat(ids(h.batch())).containsExactly(2L);
        assertThat(ids(h.batch())).containsExactly(3L);
        assertThat(h.batch()).isNull();
    }

    @Test
    void aSparkSinksOutputFolderIsRecognised() throws Exception {
        // Spark's own manifest, paths rewritten to this folder.
        String spark = Files.readString(Path.of(getClass().getResource("/spark-samples/file-out/_spark_metadata/0")
                .toURI())).replace("file:///data/file-out/", "file://" + out + "/");
        Files.writeString(manifest.resolve("0"), spark);
        json(out, "part-00000-03bfac27-9a11-4a95-bf4b-a7aa5091ab61-c000.json", T, 1);
        json(out, "part-00001-3472788f-07ea-40df-b988-c056f2769184-c000.json", T, 2);
        h.open();
        assertThat(ids(h.batch())).containsExactlyInAnyOrder(1L, 2L);
    }

    @Test
    void cleanSourceOnASinksOutputIsRefused() {
        h.option("cleanSource", "delete");
        assertThatThrownBy(h::open).isInstanceOf(InvalidOptionException.class)
                .hasMessage("Clean up source files is not supported when reading from the output directory of "
                        + "FileStreamSink.");
    }
}
