package io.sluice.files.source;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.sluice.files.source.TestFiles.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 14, the file source's logs: names that only look like log offsets or sink batches are not taken for
 * them, a logged end edited backwards is refused, and a query never reads the folder it writes.
 */
class FileLogReliabilityTest extends FileQueryFixture {

    @Override
    Sluice newSluice(io.sluice.api.SluiceClock clock) {
        return Sluice.builder().clock(clock).build().registerSource(TestProviders.json());
    }

    private StreamingQuery start() {
        return sluice.readStream().format("json").schema("id long, name string").load(in.toString()).writeStream()
                .format("memory").queryName(table).option("checkpointLocation", chk.toString())
                .trigger(Trigger.availableNow()).start();
    }

    private void runOnce() throws Exception {
        StreamingQuery q = start();
        assertThat(q.awaitTermination(30_000)).isTrue();
    }

    private List<Long> ids() {
        return MemorySink.rows(table).stream().map(r -> r.getLong(0)).sorted().toList();
    }

    private void editEnd(long batch, String end) throws Exception {
        Path file = chk.resolve("offsets/" + batch);
        List<String> lines = Files.readAllLines(file);
        Files.writeString(file, String.join("\n", lines.subList(0, 2)) + "\n" + end);
    }

    private String description() {
        return "FileStreamSource[file:" + in + "]";
    }

    @Test
    void seenFilesLogNamesWithLeadingZerosAreNotLogOffsets() throws Exception {
        json(in, "a.json", T, 1);
        runOnce();
        json(in, "b.json", T + 1, 2);
        runOnce();
        Path log = chk.resolve("sources/0");
        for (String name : List.of("04", "0005", "+6", "7.tmp", " 8")) {
            Files.copy(log.resolve("1"), log.resolve(name));
        }
        json(in, "c.json", T + 2, 3);

        runOnce(); // before: "has no entry for log offset 2 (the next one is 4)"

        assertThat(ids()).containsExactly(1L, 2L, 3L);
        assertThat(Files.readString(chk.resolve("offsets/2"))).endsWith("\n{\"logOffset\":2}");
    }

    @Test
    void aRealGapInTheSeenFilesLogIsStillReported() throws Exception {
        for (int i = 0; i < 3; i++) {
            json(in, i + ".json", T + i, i);
            runOnce();
        }
        Path log = chk.resolve("sources/0");
        Files.move(log.resolve("1"), log.resolve("01"));

        assertThatThrownBy(this::start).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("The file source's seen-files log in " + log + " has no "
                + "entry for log offset 1 (the next one is 2): a file was deleted from the checkpoint. Restore the "
                + "checkpoint from a backup, or use a new checkpoint (which reads every file present again)");
    }

    @Test
    void aSinkManifestNameWithLeadingZerosIsNotABatch() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path manifest = Files.createDirectories(out.resolve("_spark_metadata"));
        json(out, "a.json", T, 1);
        json(out, "b.json", T + 1, 2);
        json(out, "c.json", T + 2, 3);
        Files.writeString(manifest.resolve("0"), "v1\n" + entry(out.resolve("a.json")));
        Files.writeString(manifest.resolve("0005"), "v1\n" + entry(out.resolve("b.json")));
        Harness h = new Harness(out, Files.createDirectories(tmp.resolve("h/sources/0")));
        h.open();

        assertThat(Harness.ids(h.batch())).containsExactly(1L); // before: 1, 2, then batches 1 to 5 skipped
        Files.writeString(manifest.resolve("1"), "v1\n" + entry(out.resolve("c.json")));
        assertThat(Harness.ids(h.batch())).containsExactly(3L);
        assertThat(h.batch()).isNull();
    }

    private static String entry(Path p) throws Exception {
        return "{\"path\":\"file://" + p + "\",\"size\":" + Files.size(p) + ",\"isDir\":false,\"modificationTime\":"
                + Files.getLastModifiedTime(p).toMillis() + ",\"blockReplication\":1,\"blockSize\":33554432,"
                + "\"action\":\"add\"}";
    }

    @Test
    void aLoggedEndEditedBackwardsIsRefusedNamingBothFiles() throws Exception {
        json(in, "a.json", T, 1);
        runOnce();
        json(in, "b.json", T + 1, 2);
        runOnce();
        json(in, "c.json", T + 2, 3);
        runOnce();
        editEnd(2, "{\"logOffset\":0}"); // valid, but would read b.json and c.json again

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + chk.resolve("offsets/2") + " is corrupt or incomplete (the end it "
                        + "logs for source 0 (" + description() + ") is before the end of the previous batch in "
                        + chk.resolve("offsets/1") + ": logOffset 0 is before 1; offsets never go backwards, so one "
                        + "of the two files was edited or copied from another checkpoint). Resuming would read that "
                        + "data again (duplicates). Put back the file as the query wrote it (from a backup), or "
                        + "restore the checkpoint from a backup or start over with a new checkpoint location.");
        assertThat(ids()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aLogOffsetThatIsNotANumberNamesTheFile() throws Exception {
        json(in, "a.json", T, 1);
        runOnce();
        json(in, "b.json", T + 1, 2);
        runOnce();
        editEnd(1, "{\"logOffset\":\"x\"}");

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + chk.resolve("offsets/1") + " is corrupt or incomplete (source 0 ("
                        + description() + ") cannot read its offset: Not a file source offset: "
                        + "'{\"logOffset\":\"x\"}'; expected {\"logOffset\":N}). The query cannot start from it "
                        + "without risking data loss. Put back the file as the query wrote it (from a backup), or "
                        + "restore the checkpoint from a backup or start over with a new checkpoint location.");
    }

    @Test
    void theSameFolderAsSourceAndSinkIsRefusedAtStart() throws Exception {
        Path out = Files.createDirectories(in.resolve("out"));
        for (Path[] pair : new Path[][] {{in, in}, {in, out}, {out, in}}) {
            Path source = pair[0];
            Path sink = pair[1];
            String how = source.equals(sink) ? "the same folder" : sink.startsWith(source)
                    ? "the output folder is inside the folder the source reads"
                    : "the folder the source reads is inside the output folder";
            assertThatThrownBy(() -> sluice.readStream().format("json").schema("id long").load(source.toString())
                    .writeStream().format("json").option("checkpointLocation", chk.toString())
                    .start(sink.toString()))
                    .isExactlyInstanceOf(IllegalArgumentException.class)
                    .hasMessage("The sink 'json' writes into " + sink + " and the source 'json' reads " + source
                            + ": " + how + ". The query would read its own output (or wait for new input forever)."
                            + " Use two separate folders, neither inside the other");
        }
        assertThat(chk).doesNotExist(); // refused before anything is created
        assertThat(out).isEmptyDirectory();
    }

    @Test
    void aGlobSourceAndASymlinkedSinkAreComparedByTheirRealFolder() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("link"), in);
        assertThatThrownBy(() -> sluice.readStream().format("json").schema("id long").load(in + "/*.json")
                .writeStream().format("json").option("checkpointLocation", chk.toString())
                .start(link.resolve("out").toString()))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(": the output folder is inside the folder the source reads.");
        // Side by side is fine.
        StreamingQuery q = sluice.readStream().format("json").schema("id long").load(in.toString()).writeStream()
                .format("json").option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow())
                .start(tmp.resolve("out").toString());
        assertThat(q.awaitTermination(30_000)).isTrue();
    }

    @Test
    void theFileSinkDoesNotTakeALookalikeForABatchItWrote() throws Exception {
        Path out = tmp.resolve("out");
        java.util.function.Supplier<StreamingQuery> toFiles = () -> sluice.readStream().format("json")
                .schema("id long, name string").load(in.toString()).writeStream().format("json")
                .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start(out.toString());
        json(in, "a.json", T, 1);
        assertThat(toFiles.get().awaitTermination(30_000)).isTrue();
        json(in, "b.json", T + 1, 2);
        assertThat(toFiles.get().awaitTermination(30_000)).isTrue();
        Files.copy(out.resolve("_spark_metadata/1"), out.resolve("_spark_metadata/0005"));
        json(in, "c.json", T + 2, 3);

        // Before: the sink took 0005 for batch 5 and batch 2 for already written, the reader skipped batches 1-4.
        assertThat(toFiles.get().awaitTermination(30_000)).isTrue();

        assertThat(out.resolve("_spark_metadata/2")).exists();
        List<Long> read = sluice.read().format("json").schema("id long, name string").load(out.toString())
                .collectAsList().stream().map(r -> r.getLong(0)).sorted().toList();
        assertThat(read).containsExactly(1L, 2L, 3L);
    }
}
