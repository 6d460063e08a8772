package io.sluice.core;

import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 14, the checkpoint: names that look like batches are not taken for batches, an offsets file edited to go
 * backwards is refused, and a bad file is named with what is wrong with it.
 */
class CheckpointReliabilityTest {
    private static final String RATE = "RatePerMicroBatchStream[rowsPerBatch=10, numPartitions=1, startTimestamp=0, "
            + "advanceMsPerBatch=1000]";

    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().build();
    private final String table = "reliability_" + UUID.randomUUID().toString().replace("-", "");

    @AfterEach
    void close() {
        sluice.close();
        MemorySink.clear(table);
    }

    private Path chk() {
        return tmp.resolve("chk").toAbsolutePath();
    }

    /** One availableNow run of rate-micro-batch (10 rows a batch): one batch. */
    private StreamingQuery start() {
        return sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 10).option("numPartitions", 1)
                .load().writeStream().format("memory").queryName(table).trigger(Trigger.availableNow())
                .option("checkpointLocation", chk().toString()).start();
    }

    private void runOnce() throws Exception {
        StreamingQuery q = start();
        q.awaitTermination();
        q.stop();
    }

    private List<Long> values() {
        return MemorySink.rows(table).stream().map(r -> r.getLong(1)).sorted().toList();
    }

    private void write(String relative, String text) throws IOException {
        Files.writeString(chk().resolve(relative), text);
    }

    private String offsets(long offset, long timestamp) {
        return "{\"offset\":" + offset + ",\"timestamp\":" + timestamp + "}";
    }

    /** offsets/N with the end of rate-micro-batch replaced. */
    private void editEnd(long batch, String end) throws IOException {
        Path file = chk().resolve("offsets/" + batch);
        List<String> lines = Files.readAllLines(file);
        Files.writeString(file, String.join("\n", lines.subList(0, 2)) + "\n" + end);
    }

    @Test
    void namesThatOnlyLookLikeBatchesAreIgnoredWithOneWarningEach() throws Exception {
        runOnce();
        String offsets0 = Files.readString(chk().resolve("offsets/0"));
        String commit0 = Files.readString(chk().resolve("commits/0"));
        List<String> odd = List.of("0005", "04", "+5", "5.tmp", " 5", "1 ");
        for (String name : odd) {
            write("offsets/" + name, offsets0.replace(offsets(10, 1000), offsets(1000, 100_000)));
            write("commits/" + name, commit0);
        }

        String logged;
        try (LogCapture log = new LogCapture()) {
            runOnce();
            logged = log.text();
        }

        // Batch 1 followed batch 0: nothing was taken for batch 5, no row skipped.
        assertThat(Files.exists(chk().resolve("offsets/1"))).isTrue();
        assertThat(Files.exists(chk().resolve("offsets/6"))).isFalse();
        assertThat(values()).containsExactlyElementsOf(java.util.stream.LongStream.range(0, 20).boxed().toList());
        for (String name : odd) {
            for (String dir : List.of("offsets", "commits")) {
                String warning = "WARN io.sluice.core.checkpoint.BatchLog - Ignoring " + chk().resolve(dir)
                        .resolve(name) + ": not a batch file of this log (a batch file is named by its batch id, "
                        + "as Spark writes it: 0, 1, 2...)";
                assertThat(logged).as(dir + "/" + name).containsOnlyOnce(warning);
            }
        }
    }

    @Test
    void aRealGapStillReportsTheMissingBatch() throws Exception {
        runOnce();
        runOnce();
        runOnce();
        write("offsets/0001", Files.readString(chk().resolve("offsets/1"))); // must not stand in for offsets/1
        Files.delete(chk().resolve("offsets/1"));
        Files.delete(chk().resolve("commits/2"));

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + chk().resolve("offsets/1") + " is missing (batch 2 was not "
                        + "committed and must be re-run from the end of batch 1, which this file records). The "
                        + "query cannot start without risking data loss. Restore the checkpoint from a backup or "
                        + "start over with a new checkpoint location.");
    }

    @Test
    void aCommittedBatchWhoseEndWasEditedBackwardsIsRefusedNamingBothFiles() throws Exception {
        runOnce();
        runOnce();
        editEnd(1, offsets(5, 2000)); // valid, committed, but before batch 0's end (10): rows 5..9 again

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessage(backwards(1, "offset 5 is before 10"));
        assertThat(values()).hasSize(20).doesNotHaveDuplicates();
    }

    @Test
    void aBatchToReRunWhoseEndWasEditedBackwardsIsRefused() throws Exception {
        runOnce();
        runOnce();
        Files.delete(chk().resolve("commits/1"));
        editEnd(1, offsets(3, 2000));

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessage(backwards(1, "offset 3 is before 10"));
    }

    @Test
    void anEndMovedForwardIsNotRefused() throws Exception {
        runOnce();
        runOnce();
        editEnd(1, offsets(25, 2000)); // skipping ahead loses no data twice: not what this check is about
        runOnce();
        assertThat(values()).hasSize(30);
    }

    private String backwards(long batch, String what) {
        return "Checkpoint file " + chk().resolve("offsets/" + batch) + " is corrupt or incomplete (the end it logs "
                + "for source 0 (" + RATE + ") is before the end of the previous batch in "
                + chk().resolve("offsets/" + (batch - 1)) + ": " + what + "; offsets never go backwards, so one of "
                + "the two files was edited or copied from another checkpoint). Resuming would read that data "
                + "again (duplicates). Put back the file as the query wrote it (from a backup), or restore the "
                + "checkpoint from a backup or start over with a new checkpoint location.";
    }

    @Test
    void aLoggedOffsetTheSourceCannotReadNamesTheFileAndTheSource() throws Exception {
        runOnce();
        runOnce();
        editEnd(1, "{\"offset\":\"x\",\"timestamp\":2000}");

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + chk().resolve("offsets/1") + " is corrupt or incomplete (source 0 "
                        + "(" + RATE + ") cannot read its offset: Invalid rate-micro-batch offset "
                        + "'{\"offset\":\"x\",\"timestamp\":2000}': expected {\"offset\":<long>,\"timestamp\":<long>}"
                        + "). The query cannot start from it without risking data loss. Put back the file as the "
                        + "query wrote it (from a backup), or restore the checkpoint from a backup or start over "
                        + "with a new checkpoint location.");
    }

    @Test
    void aFolderWhereTheNewestOffsetsFileShouldBeIsNamed() throws Exception {
        runOnce();
        Files.createDirectory(chk().resolve("offsets/7"));

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessageStartingWith("Checkpoint file " + chk().resolve("offsets/7") + " is corrupt or "
                        + "incomplete (it is a folder, not a regular file). ");
    }

    @Test
    void aLinkToADeviceIsRefusedNotReadForever() throws Exception {
        runOnce();
        Path zero = Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(zero));
        Files.createSymbolicLink(chk().resolve("offsets/1"), zero);

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessageStartingWith("Checkpoint file " + chk().resolve("offsets/1") + " is corrupt or "
                        + "incomplete (it is a device, pipe or socket, not a regular file). ");
    }

    @Test
    void aHugeLogFileIsRefused() throws Exception {
        runOnce();
        try (var f = new java.io.RandomAccessFile(chk().resolve("offsets/1").toFile(), "rw")) {
            f.setLength(io.sluice.api.io.MetadataLogFiles.MAX_READ_BYTES + 1); // sparse: no disk used
        }

        assertThatThrownBy(this::start).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessageStartingWith("Checkpoint file " + chk().resolve("offsets/1") + " is corrupt or "
                        + "incomplete (it is 67108865 bytes, more than a log file can be (at most 67108864)). ");
    }

    @Test
    void aCheckpointLocationThatIsAFileIsNamed() throws Exception {
        Files.writeString(chk(), "not a folder");

        assertThatThrownBy(this::start).isExactlyInstanceOf(java.io.UncheckedIOException.class)
                .hasMessage("Cannot create checkpoint location " + chk() + ": " + chk() + " is a file, not a folder; "
                        + "checkpointLocation must name a folder (or one to create)");
        assertThatThrownBy(() -> sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 1).load()
                .writeStream().format("noop").option("checkpointLocation", chk().resolve("sub").toString()).start())
                .hasMessage("Cannot create checkpoint location " + chk().resolve("sub") + ": " + chk() + " is a "
                        + "file, not a folder; checkpointLocation must name a folder (or one to create)");
        assertThat(Files.readString(chk())).isEqualTo("not a folder");
    }
}
