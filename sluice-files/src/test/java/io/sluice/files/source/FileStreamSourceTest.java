package io.sluice.files.source;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.sluice.files.source.Harness.id;
import static io.sluice.files.source.Harness.ids;
import static io.sluice.files.source.TestFiles.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stream driven by hand, call by call as the engine makes them: discovery, limits, state, cleanup. */
class FileStreamSourceTest {
    static final long T = 1_700_000_000_000L;
    static final long DAY = 86_400_000L;

    @TempDir
    Path tmp;
    Path in;
    Path meta;
    Harness h;

    @BeforeEach
    void setUp() throws Exception {
        in = Files.createDirectories(tmp.resolve("in"));
        meta = Files.createDirectories(tmp.resolve("chk/sources/0"));
        h = new Harness(in, meta);
    }

    private String uri(String relative) {
        return "file://" + in.resolve(relative).toAbsolutePath();
    }

    @Test
    void firstBatchTakesEveryFileOldestFirstAndLogsItInSparksFormat() throws Exception {
        json(in, "b.json", T + 2000, 3);
        json(in, "a.json", T + 1000, 1, 2);
        h.open();
        assertThat(h.stream.initialOffset().json()).isEqualTo("{\"logOffset\":-1}");
        assertThat(ids(h.batch())).containsExactly(1L, 2L, 3L);
        assertThat(h.committed.json()).isEqualTo("{\"logOffset\":0}");
        assertThat(Files.readString(meta.resolve("0"))).isEqualTo("v1\n"
                + "{\"path\":\"" + uri("a.json") + "\",\"timestamp\":" + (T + 1000) + ",\"batchId\":0}\n"
                + "{\"path\":\"" + uri("b.json") + "\",\"timestamp\":" + (T + 2000) + ",\"batchId\":0}");
        assertThat(h.batch()).isNull();
        assertThat(h.stream.latestOffset(h.committed, ReadLimit.allAvailable()).json())
                .isEqualTo("{\"logOffset\":0}");

        json(in, "c.json", T + 3000, 4);
        assertThat(ids(h.batch())).containsExactly(4L);
        assertThat(h.committed.json()).isEqualTo("{\"logOffset\":1}");
    }

    @Test
    void nothingToReadGivesNoOffset() {
        h.open();
        assertThat(h.stream.latestOffset(h.stream.initialOffset(), ReadLimit.allAvailable())).isNull();
    }

    @Test
    void namesStartingWithDotOrUnderscoreAndCopyingFilesAreNotData() {
        json(in, "ok.json", T, 1);
        json(in, ".tmp.json", T, 2);
        json(in, "_tmp.json", T, 3);
        json(in, "_temporary/0/part.json", T, 4);
        json(in, ".hidden/x.json", T, 5);
        json(in, "copy.json._COPYING_", T, 6);
        json(in, "sub/deeper/ok2.json", T + 1, 7);
        h.open();
        assertThat(ids(h.batch())).containsExactly(1L, 7L);
    }

    @Test
    void aHalfWrittenFileIsReadOnlyOnceRenamedIntoPlace() throws Exception {
        Path partial = TestFiles.write(in, ".a.json.inprogress", "{\"id\":1,\"name\":\"n1\"}\n{\"id\":2,", T);
        h.open();
        assertThat(h.batch()).isNull();
        Files.writeString(partial, "{\"id\":1,\"name\":\"n1\"}\n{\"id\":2,\"name\":\"n2\"}\n");
        TestFiles.touch(partial, T + 5);
        Files.move(partial, in.resolve("a.json"));
        assertThat(ids(h.batch())).containsExactly(1L, 2L);
    }

    @Test
    void maxFilesPerTriggerTakesTheOldestFilesWithTiesInNameOrder() {
        json(in, "c.json", T + 1, 3);
        json(in, "b.json", T, 2);
        json(in, "a.json", T, 1);
        json(in, "d.json", T + 2, 4);
        h.option("maxFilesPerTrigger", 2).open();
        assertThat(h.stream.defaultReadLimit()).isEqualTo(ReadLimit.maxFiles(2));
        assertThat(ids(h.batch())).containsExactly(1L, 2L);
        assertThat(ids(h.batch())).containsExactly(3L, 4L);
        assertThat(h.batch()).isNull();
    }

    @Test
    void maxBytesPerTriggerAlwaysTakesOneFileAndStopsAtTheFirstThatDoesNotFit() {
        TestFiles.write(in, "a.json", "x".repeat(60), T);       // 60 bytes
        TestFiles.write(in, "b.json", "x".repeat(30), T + 1);   // 30
        TestFiles.write(in, "c.json", "x".repeat(5), T + 2);    // 5: would fit after b, but b stops the batch
        TestFiles.write(in, "d.json", "x".repeat(200), T + 3);  // bigger than the cap: still taken alone
        h.option("maxBytesPerTrigger", 80).open();
        assertThat(h.stream.defaultReadLimit()).isEqualTo(ReadLimit.maxBytes(80));
        assertThat(id(h.next())).isEqualTo(0);
        assertThat(h.names(-1, 0)).containsExactly("a.json");
        h.stream.commit(new FileSourceOffset(0));
        h.committed = new FileSourceOffset(0);
        assertThat(id(h.next())).isEqualTo(1);
        assertThat(h.names(0, 1)).containsExactly("b.json", "c.json");
        h.committed = new FileSourceOffset(1);
        h.next();
        assertThat(h.names(1, 2)).containsExactly("d.json");
    }

    @Test
    void aCompositeLimitHonoursEachOfItsCaps() {
        for (int i = 0; i < 5; i++) {
            TestFiles.write(in, "f" + i + ".json", "x".repeat(10), T + i);
        }
        h.open();
        ReadLimit both = ReadLimit.composite(ReadLimit.maxFiles(3), ReadLimit.maxBytes(25),
                ReadLimit.minRows(1, 10));
        h.next(both);
        assertThat(h.names(-1, 0)).containsExactly("f0.json", "f1.json");
        h.committed = new FileSourceOffset(0);
        h.next(ReadLimit.composite(ReadLimit.maxFiles(2), ReadLimit.maxBytes(1000)));
        assertThat(h.names(0, 1)).containsExactly("f2.json", "f3.json");
        h.committed = new FileSourceOffset(1);
        h.next(ReadLimit.maxRows(1)); // means nothing to files: all available
        assertThat(h.names(1, 2)).containsExactly("f4.json");
    }

    @Test
    void aRateLimitedBatchLeavesTheRestOfItsListingForTheNextBatchesWithoutListingAgain() {
        for (int i = 0; i < 10; i++) {
            json(in, String.format("f%02d.json", i), T + i, i);
        }
        h.option("maxFilesPerTrigger", 3).option("discardCachedInputRatio", 0.5).open();
        assertThat(ids(h.batch())).containsExactly(0L, 1L, 2L);
        assertThat(h.stream.unreadForTest()).hasSize(7);
        // An older file arriving now is not seen while the cache lasts: batches come from the first listing.
        json(in, "early.json", T - 1, 100);
        assertThat(ids(h.batch())).containsExactly(3L, 4L, 5L);
        assertThat(ids(h.batch())).containsExactly(6L, 7L, 8L);
        // One file left: under 3 x 0.5, so the cache was dropped and the next batch lists again.
        assertThat(h.stream.unreadForTest()).isNull();
        assertThat(ids(h.batch())).containsExactly(100L, 9L);
    }

    @Test
    void maxCachedFilesZeroListsAgainForEveryBatch() {
        for (int i = 0; i < 6; i++) {
            json(in, "f" + i + ".json", T + 10 * i, i);
        }
        h.option("maxFilesPerTrigger", 2).option("maxCachedFiles", 0).open();
        assertThat(ids(h.batch())).containsExactly(0L, 1L);
        assertThat(h.stream.unreadForTest()).isNull();
        json(in, "late-but-old.json", T + 15, 100);
        assertThat(ids(h.batch())).containsExactly(100L, 2L);
    }

    @Test
    void maxCachedFilesBoundsTheCacheAndARatioOfOneDropsAnyShortRemainder() {
        for (int i = 0; i < 8; i++) {
            json(in, "f" + i + ".json", T + i, i);
        }
        h.option("maxFilesPerTrigger", 2).option("maxCachedFiles", 3).option("discardCachedInputRatio", 1).open();
        assertThat(ids(h.batch())).containsExactly(0L, 1L);
        assertThat(h.stream.unreadForTest()).extracting(ListedFile::uri)
                .containsExactly(uri("f2.json"), uri("f3.json"), uri("f4.json"));
        assertThat(ids(h.batch())).containsExactly(2L, 3L);
        // One cached file left: 1 < 2 x 1.0, dropped; the next batch lists again and finds 4..7.
        assertThat(h.stream.unreadForTest()).isNull();
        assertThat(ids(h.batch())).containsExactly(4L, 5L);
    }

    @Test
    void maxFileAgeIsMeasuredAgainstTheNewestFileAndTheFirstBatchTakesEverything() {
        json(in, "old.json", T - 10 * DAY, 1);
        json(in, "new.json", T, 2);
        h.option("maxFileAge", "1d").open();
        assertThat(ids(h.batch())).containsExactly(1L, 2L);
        // Newest seen is T: the watermark is T - 1d, whatever the clock says.
        assertThat(h.stream.seenFilesLog().seen().watermark()).isEqualTo(T - DAY);
        json(in, "older.json", T - 2 * DAY, 3);
        json(in, "recent.json", T - DAY / 2, 4);
        json(in, "edge.json", T - DAY, 5);
        assertThat(ids(h.batch())).containsExactly(5L, 4L);
    }

    @Test
    void latestFirstTakesTheNewestFilesFirst() {
        json(in, "a.json", T, 1);
        json(in, "b.json", T + 1, 2);
        json(in, "c.json", T + 2, 3);
        h.option("latestFirst", true).option("maxFilesPerTrigger", 2).open();
        assertThat(ids(h.batch())).containsExactly(3L, 2L);
        assertThat(ids(h.batch())).containsExactly(1L);
    }

    @Test
    void latestFirstWithACapIgnoresMaxFileAgeButWithoutACapKeepsIt() throws Exception {
        json(in, "a.json", T - 30 * DAY, 1);
        json(in, "b.json", T, 2);
        h.option("latestFirst", true).option("maxFilesPerTrigger", 1).option("maxFileAge", "1d").open();
        assertThat(ids(h.batch())).containsExactly(2L);
        assertThat(ids(h.batch())).containsExactly(1L); // 30 days older than b, read all the same
        assertThat(h.stream.seenFilesLog().seen().watermark()).isEqualTo(Long.MIN_VALUE);

        Path in2 = Files.createDirectories(tmp.resolve("in2"));
        Harness h2 = new Harness(in2, Files.createDirectories(tmp.resolve("chk2")));
        json(in2, "a.json", T - 30 * DAY, 1);
        json(in2, "b.json", T, 2);
        h2.option("latestFirst", true).option("maxFileAge", "1d").open();
        assertThat(ids(h2.batch())).containsExactly(2L, 1L); // first batch: everything
        json(in2, "c.json", T - 2 * DAY, 3);
        assertThat(h2.batch()).isNull();
    }

    @Test
    void fileNameOnlyTreatsTheSameNameUnderAnotherFolderAsTheSameFile() {
        json(in, "x/data.json", T, 1);
        h.option("fileNameOnly", true).open();
        assertThat(ids(h.batch())).containsExactly(1L);
        json(in, "y/data.json", T + 1, 2);
        json(in, "y/other.json", T + 1, 3);
        assertThat(ids(h.batch())).containsExactly(3L);
    }

    @Test
    void availableNowListsOnceAtStartAndDrainsThatListInCappedBatches() {
        for (int i = 0; i < 5; i++) {
            json(in, "f" + i + ".json", T + i, i);
        }
        h.option("maxFilesPerTrigger", 2).open();
        h.stream.prepareForTriggerAvailableNow();
        json(in, "later.json", T + 100, 99);
        assertThat(ids(h.batch())).containsExactly(0L, 1L);
        assertThat(ids(h.batch())).containsExactly(2L, 3L);
        assertThat(h.stream.unreadForTest()).isNull(); // availableNow never caches
        assertThat(ids(h.batch())).containsExactly(4L);
        assertThat(h.batch()).isNull();
        assertThat(h.stream.metrics(java.util.Optional.empty())).containsEntry("numFilesOutstanding", "0");
        // The next run sees the file that arrived.
        h.open();
        h.stream.prepareForTriggerAvailableNow();
        assertThat(ids(h.batch())).containsExactly(99L);
    }

    @Test
    void aBatchReRunAfterACrashReadsExactlyTheLoggedFiles() {
        json(in, "a.json", T, 1);
        json(in, "b.json", T + 1, 2);
        h.open();
        Offset end = h.next();
        // Crash after offsets/N: the engine re-runs (start, end] with a new stream, without latestOffset.
        json(in, "c.json", T + 2, 3);
        h.open();
        assertThat(ids(h.read(h.stream.initialOffset(), end))).containsExactly(1L, 2L);
        h.stream.commit(end);
        h.committed = end;
        assertThat(ids(h.batch())).containsExactly(3L);
    }

    @Test
    void filesLoggedByARunThatStoppedBeforeOfferingThemMakeTheNextBatchAlone() {
        json(in, "a.json", T, 1);
        h.option("maxFilesPerTrigger", 1).open();
        assertThat(ids(h.batch())).containsExactly(1L);
        json(in, "b.json", T + 1, 2);
        Offset logged = h.next(); // sources/0/1 written, then a crash before offsets/N
        assertThat(id(logged)).isEqualTo(1);
        json(in, "c.json", T + 2, 3);
        h.open();
        assertThat(id(h.stream.latestOffset(h.committed, ReadLimit.maxFiles(1)))).isEqualTo(1);
        assertThat(ids(h.batch())).containsExactly(2L);
        assertThat(ids(h.batch())).containsExactly(3L);
    }

    @Test
    void anOffsetAheadOfTheLogIsRefused() {
        h.open();
        assertThatThrownBy(() -> h.stream.latestOffset(new FileSourceOffset(4), ReadLimit.allAvailable()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is at log offset 4 but its seen-files log ends at -1");
    }

    @Test
    void aFileOverwrittenInPlaceIsCountedAndWarnedButNotReadAgain() throws Exception {
        json(in, "a.json", T, 1);
        h.open();
        assertThat(ids(h.batch())).containsExactly(1L);
        json(in, "a.json", T + 50, 1, 2);
        json(in, "b.json", T + 60, 3);
        assertThat(ids(h.batch())).containsExactly(3L);
        assertThat(h.stream.metrics(java.util.Optional.empty())).containsEntry("numFilesChangedAfterRead", "1");
        assertThat(h.batch()).isNull();
        assertThat(h.stream.metrics(java.util.Optional.empty())).containsEntry("numFilesChangedAfterRead", "1");
    }

    @Test
    void aChangedSizeAloneCountsAsAChange() throws Exception {
        json(in, "a.json", T, 1);
        h.open();
        h.batch();
        json(in, "a.json", T, 1, 2); // same modification time, longer
        assertThat(h.batch()).isNull();
        assertThat(h.stream.metrics(java.util.Optional.empty())).containsEntry("numFilesChangedAfterRead", "1");
    }

    @Test
    void failOnFileChangeFailsOnAFileOverwrittenInPlace() {
        json(in, "a.json", T, 1);
        h.option("failOnFileChange", true).open();
        h.batch();
        json(in, "a.json", T + 50, 2);
        assertThatThrownBy(h::batch).isInstanceOf(IllegalStateException.class)
                .hasMessage("File " + uri("a.json") + " was modified after FileStreamSource[file:" + in + "] read it "
                        + "(modification time " + T + " then, " + (T + 50) + " now; size 21 then, 21 now). A file "
                        + "source reads each file once: the change is not read. Write new data to new files "
                        + "(failOnFileChange is true).");
    }

    @Test
    void metricsReportTheBacklogOfTheLastListing() {
        for (int i = 0; i < 5; i++) {
            TestFiles.write(in, "f" + i + ".json", "{\"id\":" + i + "}\n", T + i);
        }
        h.option("maxFilesPerTrigger", 2).open();
        assertThat(h.stream.metrics(java.util.Optional.empty())).isEqualTo(Map.of("numFilesOutstanding", "0",
                "numBytesOutstanding", "0", "numFilesChangedAfterRead", "0", "numFilesTaken", "0", "numBytesTaken", "0",
                "numSpecialFilesSkipped", "0", "numMissingFilesSkipped", "0", "numCorruptFilesSkipped", "0"));
        h.batch();
        assertThat(h.stream.metrics(java.util.Optional.empty())).containsEntry("numFilesOutstanding", "3")
                .containsEntry("numBytesOutstanding", "27").containsEntry("numFilesTaken", "2")
                .containsEntry("numBytesTaken", "18");
        h.batch();
        assertThat(h.stream.metrics(java.util.Optional.empty())).containsEntry("numFilesOutstanding", "1")
                .containsEntry("numBytesOutstanding", "9").containsEntry("numFilesTaken", "4");
        h.batch();
        assertThat(h.stream.metrics(java.util.Optional.empty())).containsEntry("numFilesOutstanding", "0")
                .containsEntry("numFilesTaken", "5").containsEntry("numBytesTaken", "45");
    }

    @Test
    void partitionFoldersFillTheSchemasColumnsCastToTheirTypes() {
        h.schema = StructType.fromDDL("id long, day date, hour int, name string");
        json(in, "day=2026-10-04/hour=7/a.json", T, 1);
        json(in, "day=2026-10-05/hour=__HIVE_DEFAULT_PARTITION__/b.json", T + 1, 2);
        json(in, "day=2026-10-05/hour=8/other=x/c.json", T + 2, 3);
        h.open();
        assertThat(h.batch()).containsExactly(
                Row.of(1L, java.time.LocalDate.of(2026, 10, 4), 7, "n1"),
                Row.of(2L, java.time.LocalDate.of(2026, 10, 5), null, "n2"),
                Row.of(3L, java.time.LocalDate.of(2026, 10, 5), 8, "n3"));
    }

    @Test
    void aPartitionColumnThatAppearsWhileTheQueryRunsIsAnError() {
        h.schema = StructType.fromDDL("id long, name string, day string");
        json(in, "a.json", T, 1);
        h.open();
        h.batch();
        json(in, "day=x/b.json", T + 1, 2);
        assertThatThrownBy(h::batch).isInstanceOf(IllegalStateException.class)
                .hasMessage("The partition columns changed while the query runs: " + uri("day=x/b.json")
                        + " has [day] but " + uri("a.json") + " has []. The key=value folders that fill schema "
                        + "columns must stay the same for the life of a query: move the file, or start a new query "
                        + "(new checkpoint) for the new layout");
        // Nothing was logged for the refused file, and a restart still knows the layout from the log.
        assertThat(meta.resolve("1")).doesNotExist();
        h.open();
        assertThatThrownBy(h::batch).hasMessageContaining("has [day] but " + uri("a.json") + " has []");
    }

    @Test
    void aPartitionValueThatDoesNotCastIsAnErrorBeforeAnythingIsLogged() {
        h.schema = StructType.fromDDL("id long, name string, n int");
        json(in, "n=abc/a.json", T, 1);
        h.open();
        assertThatThrownBy(h::batch).isInstanceOf(IllegalStateException.class)
                .hasMessage("Partition value 'abc' of column 'n' in " + uri("n=abc/a.json")
                        + " cannot be cast to int");
        assertThat(meta.resolve("0")).doesNotExist();
    }

    @Test
    void aGlobReadsTheMatchingFoldersAndPartitionsCountFromItsFixedPrefix() {
        h.schema = StructType.fromDDL("id long, name string, day string");
        json(in, "day=1/a.json", T, 1);
        json(in, "day=2/b.json", T + 1, 2);
        json(in, "night=3/c.json", T + 2, 3);
        h.options.put("path", in + "/day=*");
        h.open();
        assertThat(h.stream.description()).isEqualTo("FileStreamSource[file:" + in + "/day=*]");
        assertThat(h.batch()).containsExactly(Row.of(1L, "n1", "1"), Row.of(2L, "n2", "2"));
    }

    @Test
    void aFileDeletedBetweenListingAndReadingFailsTheBatchWithAClearMessage() throws Exception {
        json(in, "a.json", T, 1);
        h.open();
        Offset end = h.next();
        Files.delete(in.resolve("a.json"));
        assertThatThrownBy(() -> h.read(h.stream.initialOffset(), end)).isInstanceOf(IllegalStateException.class)
                .hasMessage("File " + uri("a.json") + " of log offset 0 of FileStreamSource[file:" + in + "] does "
                        + "not exist any more: it was deleted or moved after it was listed. Is another query with "
                        + "cleanSource reading the same path, or does another process remove files? Put the file "
                        + "back to let the query go on, or set ignoreMissingFiles=true to skip it");
    }

    @Test
    void aFreshMetadataFolderAnsweredOnceWithEverythingAvailable() throws Exception {
        json(in, "a.json", T, 1);
        json(in, "b.json", T + 1, 2);
        h.option("maxFilesPerTrigger", 1).open();
        Offset start = h.stream.initialOffset();
        Offset end = h.stream.latestOffset(start, ReadLimit.allAvailable());
        assertThat(ids(h.read(start, end))).containsExactly(1L, 2L);
        h.stream.stop();
    }

    @Test
    void latestFirstNeverKeepsAListingForLaterBatches() {
        for (int i = 0; i < 6; i++) {
            json(in, "f" + i + ".json", T + i, i);
        }
        h.option("latestFirst", true).option("maxFilesPerTrigger", 2).open();
        assertThat(ids(h.batch())).containsExactly(5L, 4L);
        assertThat(h.stream.unreadForTest()).isNull();
        json(in, "g.json", T + 100, 100);
        assertThat(ids(h.batch())).containsExactly(100L, 3L);
    }

    @Test
    void maxBytesPerTriggerCachesTheRestUnlessItsBytesAreUnderTheRatio() {
        for (int i = 0; i < 4; i++) {
            TestFiles.write(in, "f" + i + ".json", "{\"id\":" + i + "}\n" + " ".repeat(91), T + i); // 100 bytes
        }
        h.option("maxBytesPerTrigger", 250).option("discardCachedInputRatio", 0.5).open();
        assertThat(ids(h.batch())).containsExactly(0L, 1L);
        assertThat(h.stream.unreadForTest()).hasSize(2); // 200 bytes >= 250 x 0.5
        assertThat(ids(h.batch())).containsExactly(2L, 3L);
        for (int i = 9; i < 12; i++) {
            TestFiles.write(in, "g" + i + ".json", "{\"id\":" + i + "}\n" + " ".repeat(91), T + i);
        }
        assertThat(ids(h.batch())).containsExactly(9L, 10L);
        assertThat(h.stream.unreadForTest()).isNull(); // 100 bytes left < 250 x 0.5: list again next time
        TestFiles.write(in, "g12.json", "{\"id\":12}\n" + " ".repeat(90), T + 12);
        assertThat(ids(h.batch())).containsExactly(11L, 12L);
    }

    @Test
    void fileNameOnlyTakesOneOfSeveralNewFilesWithTheSameName() {
        json(in, "a/x.json", T, 1);
        json(in, "b/x.json", T + 1, 2);
        h.option("fileNameOnly", true).open();
        assertThat(ids(h.batch())).containsExactly(1L);
        assertThat(h.batch()).isNull();
    }

    @Test
    void textWithPartitionColumns() {
        TestFiles.write(in, "day=1/a.txt", "hello\n", T);
        TestFiles.write(in, "day=2/b.txt", "world\n", T + 1);
        h.format = "text";
        h.schema = StructType.fromDDL("value string, day int");
        h.open();
        assertThat(h.batch()).containsExactly(Row.of("hello", 1), Row.of("world", 2));
    }

    @Test
    void textHasItsFixedSchema() {
        TestFiles.write(in, "a.txt", "hello\nworld\n", T);
        h.format = "text";
        h.schema = null;
        h.open();
        assertThat(h.batch()).containsExactly(Row.of("hello"), Row.of("world"));
    }
}
