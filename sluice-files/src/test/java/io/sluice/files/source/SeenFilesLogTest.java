package io.sluice.files.source;

import io.sluice.files.fs.FileStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The seen-files state on disk: Spark's format, snapshots, restarts, damage. */
class SeenFilesLogTest {
    static final long DAY = 86_400_000L;
    static final long T = 1_700_000_000_000L;
    static final FileStorage FS = FileStorage.local();

    @TempDir
    Path dir;

    static Path sample(String relative) {
        try {
            return Path.of(SeenFilesLogTest.class.getResource("/spark-samples/" + relative).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static SeenFilesLog.NewFile file(String path, long ts) {
        return new SeenFilesLog.NewFile("file://" + path, Path.of(path), 10, ts);
    }

    private List<String> names() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void writesSparksLogFilesByteForByte() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, 7 * DAY, false, FS);
        log.append(List.of(file("/data/in/f0.json", 1795936512428L), file("/data/in/f1.json", 1795936512428L)));
        log.append(List.of(file("/data/in/f2.json", 1795936512428L)));
        assertThat(Files.readString(dir.resolve("0"))).isEqualTo(Files.readString(sample("file-chk/sources/0/0")));
        assertThat(Files.readString(dir.resolve("1"))).isEqualTo(Files.readString(sample("file-chk/sources/0/1")));
    }

    @Test
    void resumesTheLogSparkWrote() throws Exception {
        Files.copy(sample("file-chk/sources/0/0"), dir.resolve("0"));
        Files.copy(sample("file-chk/sources/0/1"), dir.resolve("1"));
        SeenFilesLog log = SeenFilesLog.open(dir, 7 * DAY, false, FS);
        assertThat(log.current()).isEqualTo(1);
        assertThat(log.entries(-1, 1)).extracting(FileEntry::path).containsExactly("file:///data/in/f0.json",
                "file:///data/in/f1.json", "file:///data/in/f2.json");
        assertThat(log.seen().isNew(log.key("file:///data/in/f1.json"), 1795936512428L)).isFalse();
        assertThat(log.seen().isNew(log.key("file:///data/in/f3.json"), 1795936512428L)).isTrue();
        assertThat(log.seen().watermark()).isEqualTo(1795936512428L - 7 * DAY);
    }

    @Test
    void resumesFromSparksCompactFileAndTheBatchesAfterIt() throws Exception {
        // Spark compacts every 10th batch into N.compact, holding every entry up to N; older files may be gone.
        List<String> compact = new ArrayList<>(List.of("v1"));
        for (int i = 0; i < 10; i++) {
            compact.add("{\"path\":\"file:/data/in/f" + i + ".json\",\"timestamp\":" + (T + i) + ",\"batchId\":" + i
                    + "}");
        }
        Files.writeString(dir.resolve("9.compact"), String.join("\n", compact));
        Files.writeString(dir.resolve("10"), "v1\n{\"path\":\"file:///data/in/f10.json\",\"timestamp\":" + (T + 10)
                + ",\"batchId\":10}");
        SeenFilesLog log = SeenFilesLog.open(dir, 7 * DAY, false, FS);
        assertThat(log.current()).isEqualTo(10);
        assertThat(log.batch(9)).containsExactly(new FileEntry("file:/data/in/f9.json", T + 9, 9));
        // Spark's single-slash URIs are the same files as Sluice's file:/// ones.
        assertThat(log.seen().isNew(log.key("file:///data/in/f3.json"), T + 3)).isFalse();
        assertThat(log.seen().isNew(log.key("file:///data/in/f10.json"), T + 10)).isFalse();
    }

    @Test
    void aSnapshotHoldsOnlyTheHotSetAndARestartReadsItPlusTheLaterLogFiles() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, DAY, false, FS);
        for (int i = 0; i < 12; i++) {
            // One file per batch, a day apart: by the end only the newest two are within maxFileAge.
            log.append(List.of(file("/in/f" + i + ".json", T + i * DAY)));
            log.committed(i, i);
        }
        assertThat(log.snapshotOffset()).isEqualTo(9);
        assertThat(names()).containsExactly("10", "11", "9.hot");
        assertThat(log.seen().snapshot().count).isEqualTo(2); // f8 and f9: f0..f7 are older than f9 - 1 day
        log.append(List.of(file("/in/late.json", T + 11 * DAY + 5)));

        SeenFilesLog again = SeenFilesLog.open(dir, DAY, false, FS);
        assertThat(again.current()).isEqualTo(12);
        assertThat(again.seen().snapshotSize()).isEqualTo(2);
        assertThat(again.seen().recentSize()).isEqualTo(3);
        assertThat(again.seen().watermark()).isEqualTo(T + 10 * DAY + 5);
        assertThat(again.seen().isNew(again.key("file:///in/f11.json"), T + 11 * DAY)).isFalse();
        assertThat(again.seen().isNew(again.key("file:///in/late.json"), T + 11 * DAY + 5)).isFalse();
        // Forgotten, and older than the watermark: not new either, without being remembered.
        assertThat(again.seen().isNew(again.key("file:///in/f0.json"), T)).isFalse();
        assertThat(again.seen().isNew(again.key("file:///in/new.json"), T + 11 * DAY)).isTrue();
        assertThat(again.latestEntry().path()).isEqualTo("file:///in/late.json");
    }

    @Test
    void logFilesStayUntilTheirBatchCommittedAndWasCleaned() {
        SeenFilesLog log = SeenFilesLog.open(dir, DAY, false, FS);
        for (int i = 0; i < 10; i++) {
            log.append(List.of(file("/in/f" + i + ".json", T + i)));
        }
        log.committed(4, 2); // snapshot at 9, but batch 5.. is not committed and 3.. not cleaned
        assertThat(names()).containsExactly("3", "4", "5", "6", "7", "8", "9", "9.hot");
        assertThat(log.entries(4, 9)).hasSize(5);
    }

    @Test
    void theNewestLogFileIsKeptEvenWhenTheSnapshotCoversIt() {
        SeenFilesLog log = SeenFilesLog.open(dir, DAY, false, FS);
        for (int i = 0; i < 10; i++) {
            log.append(List.of(file("/in/f" + i + ".json", T + i)));
            log.committed(i, i);
        }
        assertThat(names()).containsExactly("9", "9.hot");
        SeenFilesLog again = SeenFilesLog.open(dir, DAY, false, FS);
        assertThat(again.current()).isEqualTo(9);
        assertThat(again.latestEntry().path()).isEqualTo("file:///in/f9.json");
    }

    @Test
    void aRaisedMaxFileAgeRemembersWhatTheSnapshotStillHolds() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, 3 * DAY, false, FS);
        for (int i = 0; i < 10; i++) {
            log.append(List.of(file("/in/f" + i + ".json", T + i * DAY)));
        }
        log.snapshot(); // keeps f6..f9 (within 3 days of f9)
        SeenFilesLog wider = SeenFilesLog.open(dir, 5 * DAY, false, FS);
        assertThat(wider.seen().watermark()).isEqualTo(T + 4 * DAY);
        assertThat(wider.seen().isNew(wider.key("file:///in/f6.json"), T + 6 * DAY)).isFalse();
        // f4 and f5 were forgotten by the snapshot: a wider window makes them new again (documented).
        assertThat(wider.seen().isNew(wider.key("file:///in/f5.json"), T + 5 * DAY)).isTrue();
        SeenFilesLog narrower = SeenFilesLog.open(dir, DAY, false, FS);
        assertThat(narrower.seen().isNew(narrower.key("file:///in/f7.json"), T + 7 * DAY)).isFalse();
        assertThat(narrower.seen().isNew(narrower.key("file:///in/x.json"), T + 7 * DAY)).isFalse();
    }

    @Test
    void aGapInTheLogIsReportedWithTheWayOut() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, DAY, false, FS);
        for (int i = 0; i < 3; i++) {
            log.append(List.of(file("/in/f" + i + ".json", T + i)));
        }
        Files.delete(dir.resolve("1"));
        assertThatThrownBy(() -> SeenFilesLog.open(dir, DAY, false, FS)).isInstanceOf(IllegalStateException.class)
                .hasMessage("The file source's seen-files log in " + dir + " has no entry for log offset 1 (the next "
                        + "one is 2): a file was deleted from the checkpoint. Restore the checkpoint from a backup, "
                        + "or use a new checkpoint (which reads every file present again)");
    }

    @Test
    void aDamagedSnapshotIsReportedWithTheWayOut() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, DAY, false, FS);
        log.append(List.of(file("/in/a.json", T), file("/in/b.json", T)));
        log.snapshot();
        Path snap = dir.resolve("0.hot");
        byte[] bytes = Files.readAllBytes(snap);
        Files.write(snap, java.util.Arrays.copyOf(bytes, bytes.length - 7));
        assertThatThrownBy(() -> SeenFilesLog.open(dir, DAY, false, FS)).isInstanceOf(IllegalStateException.class)
                .hasMessage("The file source's seen-files snapshot is damaged: " + snap + " is truncated or corrupt: 2 "
                        + "records need 128 bytes but the file has 121. Restore the checkpoint from a backup, or "
                        + "start the query with a new checkpoint (which reads every file present again)");
        bytes[20] ^= 1;
        Files.write(snap, bytes);
        assertThatThrownBy(() -> SeenFilesLog.open(dir, DAY, false, FS))
                .hasMessageContaining(snap + " has a corrupt header (checksum mismatch)");
    }

    @Test
    void fileNameOnlyCannotChangeOnceASnapshotExists() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, DAY, false, FS);
        log.append(List.of(file("/in/a.json", T)));
        log.snapshot();
        assertThatThrownBy(() -> SeenFilesLog.open(dir, DAY, true, FS)).isInstanceOf(IllegalStateException.class)
                .hasMessage("The checkpoint's seen-files state (" + dir.resolve("0.hot") + ") was written with "
                        + "fileNameOnly=false but this query has fileNameOnly=true. Set fileNameOnly back, or use a "
                        + "new checkpoint to change it");
    }

    @Test
    void anExistingLogFileIsNeverOverwritten() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, DAY, false, FS);
        Files.writeString(dir.resolve("0"), "v1\n{\"path\":\"file:///x\",\"timestamp\":1,\"batchId\":0}");
        assertThatThrownBy(() -> log.append(List.of(file("/in/a.json", T)))).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Concurrent update to the log. Multiple streaming jobs detected for 0");
        assertThat(Files.readString(dir.resolve("0"))).contains("file:///x");
    }

    @Test
    void anUnreadableLogLineNamesTheFileAndLine() throws Exception {
        Files.writeString(dir.resolve("0"), "v1\n{\"path\":\"file:///a\",\"timestamp\":1,\"batchId\":0}\n{oops");
        assertThatThrownBy(() -> SeenFilesLog.open(dir, DAY, false, FS)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("The file source's log file " + dir.resolve("0") + ", line 3:");
        Files.writeString(dir.resolve("0"), "v2\n{}");
        assertThatThrownBy(() -> SeenFilesLog.open(dir, DAY, false, FS))
                .hasMessageContaining("was written in log version v2 but this Sluice reads only v1");
    }

    @Test
    void logLinesInAnyJsonShapeAreRead() throws Exception {
        FileEntry e = new FileEntry("file:///in/a.json", 5, 2);
        assertThat(LogCodec.parseEntry("{\"path\":\"file:///in/a.json\",\"timestamp\":5,\"batchId\":2}")).isEqualTo(e);
        assertThat(LogCodec.parseEntry("{ \"batchId\" : 2, \"timestamp\":5, \"path\":\"file:///in/a.json\", \"x\":[1]}"))
                .isEqualTo(e);
        FileEntry quoted = new FileEntry("file:///in/\"q\\.json", 5, 2);
        assertThat(LogCodec.parseEntry(LogCodec.entryJson(quoted))).isEqualTo(quoted);
        assertThat(LogCodec.entryJson(quoted)).isEqualTo("{\"path\":\"file:///in/\\\"q\\\\.json\",\"timestamp\":5,"
                + "\"batchId\":2}");
        assertThatThrownBy(() -> LogCodec.parseEntry("{\"path\":\"file:///in/a.json\",\"timestamp\":5}"))
                .hasMessage("a seen-files entry needs path, timestamp and batchId");
    }

    @Test
    void snapshotsSurviveManyEntriesAndDuplicates() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, Long.MAX_VALUE, false, FS);
        List<SeenFilesLog.NewFile> batch = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            batch.add(file("/in/f" + i + ".json", T + i));
        }
        log.append(batch);
        log.snapshot();
        // The same paths again (re-read after being forgotten would do this): the newest entry wins.
        log.append(List.of(file("/in/f1.json", T + 99_999)));
        log.snapshot();
        SeenFilesLog again = SeenFilesLog.open(dir, Long.MAX_VALUE, false, FS);
        assertThat(again.seen().snapshotSize()).isEqualTo(5000);
        for (int i = 0; i < 5000; i += 7) {
            assertThat(again.seen().lookup(again.key("file:///in/f" + i + ".json"))).isNotNull();
        }
        assertThat(again.seen().lookup(again.key("file:///in/f1.json")).timestamp()).isEqualTo(T + 99_999);
        assertThat(again.seen().lookup(again.key("file:///in/nope.json"))).isNull();
    }

    @Test
    void aCrashBetweenTwoSnapshotsLeavesTheNewestInUse() throws Exception {
        SeenFilesLog log = SeenFilesLog.open(dir, DAY, false, FS);
        log.append(List.of(file("/in/a.json", T)));
        log.snapshot();
        Path old = dir.resolve("0.hot");
        Path keep = dir.resolve("keep");
        Files.copy(old, keep);
        log.append(List.of(file("/in/b.json", T + 1)));
        log.snapshot();
        Files.move(keep, old, StandardCopyOption.REPLACE_EXISTING); // as if the old one had not been deleted yet
        SeenFilesLog again = SeenFilesLog.open(dir, DAY, false, FS);
        assertThat(again.seen().snapshot().logOffset).isEqualTo(1);
        assertThat(old).doesNotExist();
    }
}
