package io.sluice.files.source;

import io.sluice.api.Row;
import io.sluice.core.ManualClock;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Sluice;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.sluice.files.source.TestFiles.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The file source through the whole engine into the memory sink: batches, progress, restarts, pitfalls. */
class FileSourceEndToEndTest extends FileQueryFixture {
    static final long DAY = 86_400_000L;

    @Override
    Sluice newSluice(io.sluice.api.SluiceClock clock) {
        return Sluice.builder().clock(clock).parallelism(2).build().registerSource(TestProviders.json());
    }

    private StreamingQuery start(Trigger trigger, String... options) {
        var reader = sluice.readStream().format("json").schema("id long, name string");
        for (int i = 0; i < options.length; i += 2) {
            reader.option(options[i], options[i + 1]);
        }
        return reader.load(in.toString()).writeStream().format("memory").queryName(table)
                .option("checkpointLocation", chk.toString()).trigger(trigger).start();
    }

    private void runAvailableNow(String... options) throws Exception {
        StreamingQuery q = start(Trigger.availableNow(), options);
        assertThat(q.awaitTermination(30_000)).isTrue();
    }

    private List<Long> ids() {
        return MemorySink.rows(table).stream().map(r -> r.getLong(0)).sorted().toList();
    }

    private static List<Long> range(int from, int toInclusive) {
        return IntStream.rangeClosed(from, toInclusive).mapToObj(i -> (long) i).toList();
    }

    @Test
    void progressIsSparksAndARestartReadsOnlyNewFiles() throws Exception {
        json(in, "a.json", T, 1, 2);
        json(in, "b.json", T + 1, 3);
        StreamingQuery q = start(Trigger.processingTime(0));
        q.processAllAvailable();
        StreamingQueryProgress p = q.lastProgress();
        SourceProgress s = p.sources().get(0);
        assertThat(s.description()).isEqualTo("FileStreamSource[file:" + in + "]");
        assertThat(s.startOffset()).isNull();
        assertThat(s.endOffset()).isEqualTo("{\"logOffset\":0}");
        assertThat(s.latestOffset()).isNull();
        assertThat(s.numInputRows()).isEqualTo(3);
        assertThat(s.metrics()).isEqualTo(Map.of("numFilesOutstanding", "0", "numBytesOutstanding", "0",
                "numFilesChangedAfterRead", "0", "numSpecialFilesSkipped", "0", "numMissingFilesSkipped", "0",
                "numCorruptFilesSkipped", "0", "numFilesTaken", "2", "numBytesTaken",
                Long.toString(java.nio.file.Files.size(in.resolve("a.json")) + java.nio.file.Files.size(in.resolve("b.json")))));
        assertThat(s.json()).startsWith("{\"description\":\"FileStreamSource[file:" + in + "]\",\"startOffset\":null,"
                + "\"endOffset\":{\"logOffset\":0},\"latestOffset\":null,\"numInputRows\":3,");
        json(in, "c.json", T + 2, 4);
        q.processAllAvailable();
        assertThat(q.lastProgress().sources().get(0).startOffset()).isEqualTo("{\"logOffset\":0}");
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo("{\"logOffset\":1}");
        q.stop();
        assertThat(Files.readString(chk.resolve("offsets/1"))).endsWith("\n{\"logOffset\":1}");
        assertThat(Files.readString(chk.resolve("sources/0/1"))).startsWith("v1\n{\"path\":\"file://" + in
                + "/c.json\"");

        json(in, "d.json", T + 3, 5);
        StreamingQuery again = start(Trigger.processingTime(0));
        again.processAllAvailable();
        again.stop();
        assertThat(ids()).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(MemorySink.batches(table)).containsOnlyKeys(0L, 1L, 2L);
    }

    /**
     * The worked example, scaled down: a backlog of 45 files drained 10 at a time while 7 more arrive. Predicted:
     * the first listing's 45 files make ceil(45 / 10) = 5 batches from the cache (the 5 left after the fourth are
     * at least 10 x 0.2, so they stay cached); the arrivals wait for the cache to run out and make one more batch:
     * 6 batches, each file read once.
     */
    @Test
    void aBacklogDrainsInCappedBatchesWhileNewFilesArriveInThePredictedNumberOfBatches() throws Exception {
        sluice.close();
        ManualClock clock = new ManualClock(T);
        sluice = newSluice(clock);
        for (int i = 0; i < 45; i++) {
            json(in, String.format("backlog-%02d.json", i), T - DAY + i, i);
        }
        StreamingQuery q = start(Trigger.processingTime(1000), "maxFilesPerTrigger", "10");
        List<String> outstanding = new ArrayList<>();
        for (int batch = 0; batch < 6; batch++) {
            if (batch > 0) {
                clock.advance(1000);
            }
            int expected = batch + 1;
            await().until(() -> q.recentProgress().size() == expected && clock.isWaiting());
            outstanding.add(q.lastProgress().sources().get(0).metrics().get("numFilesOutstanding"));
            if (batch == 1) {
                for (int i = 0; i < 7; i++) {
                    json(in, "new-" + i + ".json", T + i, 100 + i);
                }
            }
        }
        q.stop();
        assertThat(q.recentProgress()).hasSize(6);
        assertThat(q.recentProgress()).extracting(StreamingQueryProgress::numInputRows)
                .containsExactly(10L, 10L, 10L, 10L, 5L, 7L);
        assertThat(outstanding).containsExactly("35", "25", "15", "5", "0", "0");
        List<Long> expected = new ArrayList<>(range(0, 44));
        expected.addAll(range(100, 106));
        assertThat(ids()).isEqualTo(expected);
    }

    @Test
    void availableNowDrainsInCappedBatchesAndArchivesEveryFileIncludingTheLastBatchs() throws Exception {
        for (int i = 0; i < 5; i++) {
            json(in, "day=" + (i % 2) + "/f" + i + ".json", T + i, i);
        }
        Path archive = tmp.resolve("archive");
        runAvailableNow("maxFilesPerTrigger", "2", "cleanSource", "archive", "sourceArchiveDir", archive.toString());
        assertThat(MemorySink.batches(table)).hasSize(3);
        assertThat(ids()).isEqualTo(range(0, 4));
        try (Stream<Path> left = Files.walk(in)) {
            assertThat(left.filter(Files::isRegularFile)).isEmpty();
        }
        assertThat(archive.resolve("day=0/f4.json")).exists();
        assertThat(archive.resolve("day=1/f3.json")).exists();
        // A restart with nothing new runs no batch.
        runAvailableNow("maxFilesPerTrigger", "2", "cleanSource", "archive", "sourceArchiveDir", archive.toString());
        assertThat(MemorySink.batches(table)).hasSize(3);
    }

    @Test
    void aDeletedCheckpointReadsEverythingAgain() throws Exception {
        json(in, "a.json", T, 1);
        json(in, "b.json", T + 1, 2);
        runAvailableNow();
        assertThat(ids()).containsExactly(1L, 2L);
        try (Stream<Path> all = Files.walk(chk)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        MemorySink.clear(table);
        runAvailableNow();
        assertThat(ids()).containsExactly(1L, 2L);
    }

    @Test
    void restoredOldFilesAreSkippedUntilTouchedOrUntilMaxFileAgeCoversThem() throws Exception {
        json(in, "today-1.json", T, 1);
        json(in, "today-2.json", T + 1000, 2);
        runAvailableNow("maxFileAge", "1d");
        // A backup restored with its old modification times (cp -p, tar, rsync -t): three days old.
        Path r1 = json(in, "restored/r1.json", T - 3 * DAY, 11);
        json(in, "restored/r2.json", T - 3 * DAY, 12);
        runAvailableNow("maxFileAge", "1d");
        assertThat(ids()).containsExactly(1L, 2L);

        // Way out 1: touch the files, so they are new.
        TestFiles.touch(r1, T + 2000);
        runAvailableNow("maxFileAge", "1d");
        assertThat(ids()).containsExactly(1L, 2L, 11L);

        // Way out 2: a maxFileAge that covers them.
        runAvailableNow("maxFileAge", "4d");
        assertThat(ids()).containsExactly(1L, 2L, 11L, 12L);

        // Way out 3: a new checkpoint, which reads every file present again (duplicates included).
        chk = tmp.resolve("chk-new");
        MemorySink.clear(table);
        runAvailableNow("maxFileAge", "1d");
        assertThat(ids()).containsExactly(1L, 2L, 11L, 12L);
    }

    @Test
    void aFileOverwrittenInPlaceIsCountedInProgressOrFailsTheQueryWhenAsked() throws Exception {
        json(in, "a.json", T, 1);
        StreamingQuery q = start(Trigger.processingTime(0));
        q.processAllAvailable();
        json(in, "a.json", T + 10, 1, 2);
        json(in, "b.json", T + 20, 3);
        q.processAllAvailable();
        assertThat(q.lastProgress().sources().get(0).metrics()).containsEntry("numFilesChangedAfterRead", "1");
        q.stop();
        assertThat(ids()).containsExactly(1L, 3L);

        json(in, "a.json", T + 30, 9);
        StreamingQuery strict = start(Trigger.processingTime(0), "failOnFileChange", "true");
        // Bounded, so a query that does not fail fails the test instead of hanging the build.
        assertThatThrownBy(() -> strict.awaitTermination(60_000)).isInstanceOf(StreamingQueryException.class)
                .hasMessageContaining("File file://" + in + "/a.json was modified after FileStreamSource[file:" + in
                        + "] read it");
        assertThat(ids()).containsExactly(1L, 3L);
    }

    @Test
    void aCheckpointWrittenBySparkIsResumed() throws Exception {
        // Spark 4.2's checkpoint of a file source that read f0..f2 in two batches; its paths moved to this folder.
        Path sample = Path.of(getClass().getResource("/spark-samples/file-chk").toURI());
        try (Stream<Path> files = Files.walk(sample)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                Path target = chk.resolve(sample.relativize(p).toString());
                Files.createDirectories(target.getParent());
                Files.writeString(target, Files.readString(p).replace("file:///data/in/", "file://" + in + "/"));
            }
        }
        long sparkTime = 1795936512428L;
        for (int i = 0; i < 3; i++) {
            json(in, "f" + i + ".json", sparkTime, i);
        }
        json(in, "f3.json", sparkTime + 1000, 3);
        StreamingQuery q = start(Trigger.availableNow(), "maxFilesPerTrigger", "2");
        assertThat(q.awaitTermination(30_000)).isTrue();
        assertThat(MemorySink.batches(table)).containsOnlyKeys(2L);
        assertThat(ids()).containsExactly(3L);
        assertThat(q.lastProgress().sources().get(0).startOffset()).isEqualTo("{\"logOffset\":1}");
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo("{\"logOffset\":2}");
        assertThat(q.lastProgress().sources().get(0).metrics()).containsEntry("numFilesChangedAfterRead", "0");
        assertThat(Files.readString(chk.resolve("sources/0/2"))).isEqualTo("v1\n{\"path\":\"file://" + in
                + "/f3.json\",\"timestamp\":" + (sparkTime + 1000) + ",\"batchId\":2}");
    }

    @Test
    void onlyWholeFilesAreReadWhenWritersRenameIntoPlace() throws Exception {
        StreamingQuery q = start(Trigger.processingTime(0));
        Path part = TestFiles.write(in, "_incoming/a.json", "{\"id\":1,\"name\":\"n1\"}\n{\"id\"", T);
        q.processAllAvailable();
        assertThat(ids()).isEmpty();
        Files.writeString(part, "{\"id\":1,\"name\":\"n1\"}\n{\"id\":2,\"name\":\"n2\"}\n");
        Files.move(part, in.resolve("a.json"));
        q.processAllAvailable();
        q.stop();
        assertThat(MemorySink.rows(table)).containsExactly(Row.of(1L, "n1"), Row.of(2L, "n2"));
    }
}
