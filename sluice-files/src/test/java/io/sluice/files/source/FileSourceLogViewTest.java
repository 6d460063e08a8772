package io.sluice.files.source;

import io.sluice.api.SluiceClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.files.fs.FileStorage;
import io.sluice.files.source.FileSourceLogView.Batch;
import io.sluice.files.source.FileSourceLogView.LoggedFile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;

import static io.sluice.files.source.TestFiles.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The read-only view of a file source's log that {@code sluice checkpoint show} reads. */
class FileSourceLogViewTest extends FileQueryFixture {

    @Override
    Sluice newSluice(SluiceClock clock) {
        return Sluice.builder().clock(clock).parallelism(1).build().registerSource(TestProviders.json());
    }

    private StreamingQuery start() {
        return sluice.readStream().format("json").schema("id long, name string").load(in.toString())
                .writeStream().format("memory").queryName(table).option("checkpointLocation", chk.toString())
                .trigger(Trigger.processingTime(0)).start();
    }

    private LoggedFile logged(String name, long timestamp, long logOffset) {
        return new LoggedFile("file://" + in.resolve(name), timestamp, logOffset);
    }

    /** Every file in the folder with its size and modification time: what a writer would change. */
    private static Map<String, List<Long>> state(Path folder) throws IOException {
        Map<String, List<Long>> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path p : files.toList()) {
                out.put(p.getFileName().toString(), List.of(Files.size(p), Files.getLastModifiedTime(p).toMillis()));
            }
        }
        return out;
    }

    @Test
    void readsARunningQuerysLogBesideItAndWhatItKeepsOnceItCompacted() throws Exception {
        Path log = chk.resolve("sources/0");
        json(in, "a.json", T, 1);
        json(in, "b.json", T + 1, 2);
        StreamingQuery q = start();
        q.processAllAvailable();
        json(in, "c.json", T + 2, 3);
        q.processAllAvailable();
        Map<String, List<Long>> before = state(chk);
        before.putAll(state(log));

        // The query runs and holds the checkpoint's lock: the view needs neither.
        FileSourceLogView view = FileSourceLogView.open(log);

        assertThat(view.folder()).isEqualTo(log);
        assertThat(view.batches(-1, 1)).containsExactly(
                new Batch(0, log.resolve("0"), List.of(logged("a.json", T, 0), logged("b.json", T + 1, 0))),
                new Batch(1, log.resolve("1"), List.of(logged("c.json", T + 2, 1))));
        assertThat(view.batches(0, 1)).extracting(Batch::logOffset).containsExactly(1L);
        assertThat(view.batches(1, 1)).isEmpty();
        Map<String, List<Long>> after = state(chk);
        after.putAll(state(log));
        assertThat(after).isEqualTo(before); // nothing written, no lock file, no folder

        // The query goes on; the view lists the folder once, a new one sees the new log offset.
        json(in, "d.json", T + 3, 4);
        q.processAllAvailable();
        assertThat(q.isActive()).isTrue();
        assertThat(view.batches(-1, 2)).extracting(Batch::logOffset).containsExactly(0L, 1L);
        assertThat(FileSourceLogView.open(log).batches(1, 2))
                .containsExactly(new Batch(2, log.resolve("2"), List.of(logged("d.json", T + 3, 2))));

        // Twelve log offsets: the source snapshots its seen files at 9 and deletes the log files the snapshot
        // covers, but the newest; the view shows what is left, as the source would read it.
        for (int i = 3; i < 12; i++) {
            json(in, "f" + i + ".json", T + i, i + 1);
            q.processAllAvailable();
        }
        q.stop();
        assertThat(state(log).keySet()).containsExactly("10", "11", "9.hot");
        assertThat(FileSourceLogView.open(log).batches(-1, 11)).containsExactly(
                new Batch(10, log.resolve("10"), List.of(logged("f10.json", T + 10, 10))),
                new Batch(11, log.resolve("11"), List.of(logged("f11.json", T + 11, 11))));
        assertThat(FileSourceLogView.logOffset(Files.readString(chk.resolve("offsets/11")).split("\n")[2]))
                .isEqualTo(OptionalLong.of(11));
    }

    /** Spark compacts every tenth log offset into N.compact, holding every entry up to N. */
    @Test
    void followsSparksCompactFilesAndPrefersAPlainFile() throws IOException {
        Path log = Files.createDirectories(tmp.resolve("sources/0"));
        StringBuilder compact = new StringBuilder("v1");
        for (int i = 0; i < 10; i++) {
            compact.append("\n{\"path\":\"file:/in/f").append(i).append(".json\",\"timestamp\":").append(T + i)
                    .append(",\"batchId\":").append(i).append('}');
            if (i == 4) {
                compact.append("\n{\"path\":\"file:/in/g4.json\",\"timestamp\":").append(T)
                        .append(",\"batchId\":4,\"extra\":[1]}");
            }
        }
        Files.writeString(log.resolve("9.compact"), compact);
        Files.writeString(log.resolve("10"), "v1\n{\"path\":\"file:/in/f10.json\",\"timestamp\":" + (T + 10)
                + ",\"batchId\":10}");
        // A plain file Spark left beside the compact file: it is its offset's file, as the source reads it.
        Files.writeString(log.resolve("8"), "v1\n{\"path\":\"file:/in/plain8.json\",\"timestamp\":" + T
                + ",\"batchId\":8}");
        Files.writeString(log.resolve("19.compact"), "v1\n{\"path\":\"file:/in/f11.json\",\"timestamp\":" + (T + 11)
                + ",\"batchId\":11}");

        FileSourceLogView view = FileSourceLogView.open(log);

        assertThat(view.batches(2, 4)).containsExactly(
                new Batch(3, log.resolve("9.compact"), List.of(new LoggedFile("file:/in/f3.json", T + 3, 3))),
                new Batch(4, log.resolve("9.compact"), List.of(new LoggedFile("file:/in/f4.json", T + 4, 4),
                        new LoggedFile("file:/in/g4.json", T, 4))));
        assertThat(view.batches(7, 11)).containsExactly(
                new Batch(8, log.resolve("8"), List.of(new LoggedFile("file:/in/plain8.json", T, 8))),
                new Batch(9, log.resolve("9.compact"), List.of(new LoggedFile("file:/in/f9.json", T + 9, 9))),
                new Batch(10, log.resolve("10"), List.of(new LoggedFile("file:/in/f10.json", T + 10, 10))),
                new Batch(11, log.resolve("19.compact"), List.of(new LoggedFile("file:/in/f11.json", T + 11, 11))));
        assertThat(view.batches(-1, 20)).extracting(Batch::logOffset)
                .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
        // The source restarted from this folder takes the same entries.
        SeenFilesLog source = SeenFilesLog.open(log, Long.MAX_VALUE, false, FileStorage.local());
        assertThat(source.entries(9, 10)).containsExactly(new FileEntry("file:/in/f10.json", T + 10, 10));
    }

    @Test
    void aCorruptEntryIsReportedInTheSourcesWordsNamingTheFile() throws IOException {
        Path log = Files.createDirectories(tmp.resolve("sources/0"));
        Files.writeString(log.resolve("0"), "v1\n{\"path\":\"file:///in/a.json\",\"timestamp\":1,\"batchId\":0}");
        Files.writeString(log.resolve("1"), "v1\n12345");
        Files.writeString(log.resolve("7.compact"), "v1\n{\"path\":\"file:///in/b.json\",\"batchId\":3}");
        FileSourceLogView view = FileSourceLogView.open(log);

        assertThat(view.batches(-1, 0)).hasSize(1);
        assertThatThrownBy(() -> view.batches(-1, 1)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("Cannot read the file source's log for log offset 1 in " + log + ": The file source's "
                        + "log file " + log.resolve("1") + ", line 2: not a JSON object: '12345'");
        assertThatThrownBy(() -> view.batches(2, 3)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("Cannot read the file source's log for log offset 3 in " + log + ": The file source's "
                        + "log file " + log.resolve("7.compact") + ", line 2: a seen-files entry needs path, "
                        + "timestamp and batchId: '{\"path\":\"file:///in/b.json\",\"batchId\":3}'");
        // The source, restarted on this folder, refuses the same line in the same words.
        assertThatThrownBy(() -> SeenFilesLog.open(log, Long.MAX_VALUE, false, FileStorage.local()))
                .hasMessage("Cannot read the file source's seen-files state in " + log + ": The file source's "
                        + "log file " + log.resolve("7.compact") + ", line 2: a seen-files entry needs path, "
                        + "timestamp and batchId: '{\"path\":\"file:///in/b.json\",\"batchId\":3}'");

        assertThatThrownBy(() -> FileSourceLogView.open(tmp.resolve("missing")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No file source log at " + tmp.resolve("missing") + ": no such folder");
        assertThat(FileSourceLogView.logOffset("{\"logOffset\": 4}")).isEqualTo(OptionalLong.of(4));
        assertThat(FileSourceLogView.logOffset("4")).isEmpty(); // the rate source's offset, not this one's
        assertThat(FileSourceLogView.logOffset("{\"offset\":5,\"timestamp\":1000}")).isEmpty();
    }
}
