package io.sluice.files.source;

import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.files.fs.FileStorage;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;

import static io.sluice.files.source.TestFiles.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability (issue 14): a query stuck for good. A truncated {@code .gz}, or a file named {@code .gz} that is not
 * gzip, failed with an error naming no file, at every restart; a file deleted while it sat in the listing cache
 * was logged anyway and failed the query forever. Every read error names the file and the way out;
 * {@code ignoreCorruptFiles} and {@code ignoreMissingFiles} skip such files (counted); cached and availableNow
 * listings drop files that are gone before they are logged.
 */
class CorruptAndMissingFilesTest extends FileQueryFixture {

    @Override
    Sluice newSluice(io.sluice.api.SluiceClock clock) {
        return Sluice.builder().clock(clock).parallelism(2).build();
    }

    private StreamingQuery runAvailableNow(String... options) throws Exception {
        var reader = sluice.readStream().format("json").schema("id long, name string");
        for (int i = 0; i < options.length; i += 2) {
            reader.option(options[i], options[i + 1]);
        }
        StreamingQuery q = reader.load(in.toString()).writeStream().format("memory").queryName(table)
                .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start();
        try {
            assertThat(q.awaitTermination(30_000)).isTrue();
        } catch (StreamingQueryException e) {
            assertThat(q.exception()).containsSame(e); // a failure: the tests look at it
        }
        return q;
    }

    private List<Long> ids() {
        return MemorySink.rows(table).stream().map(r -> r.getLong(0)).sorted().toList();
    }

    private static String lines(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i <= to; i++) {
            sb.append("{\"id\":").append(i).append(",\"name\":\"n").append(i).append("\"}\n");
        }
        return sb.toString();
    }

    private static byte[] gzip(String content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    private Path write(String name, byte[] content, long mtime) throws IOException {
        Path f = in.resolve(name);
        Files.write(f, content);
        Files.setLastModifiedTime(f, FileTime.fromMillis(mtime));
        return f;
    }

    private static long metric(StreamingQuery q, String name) {
        return Long.parseLong(q.lastProgress().sources().get(0).metrics().get(name));
    }

    /** The message of the first exception in the chain that names a file read error. */
    private static String readError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null && c.getMessage().startsWith("Encountered error while reading file ")) {
                return c.getMessage();
            }
        }
        throw new AssertionError("no read error in the chain", t);
    }

    private String description() {
        return "FileStreamSource[" + FileStorage.local().display(in) + "]";
    }

    @Test
    void aFileNamedGzThatIsNotGzipNamesTheFileAtEveryRestartUntilIgnoreCorruptFiles() throws Exception {
        json(in, "a.json", T, 1, 2);
        Path bad = write("b.json.gz", lines(3, 4).getBytes(StandardCharsets.UTF_8), T + 1);
        String expected = "Encountered error while reading file " + FileStorage.local().uri(bad) + " of log offset 0 of "
                + description() + ": Not in GZIP format. Repair or replace the file and restart (the batch is run "
                + "again and reads it again), or set ignoreCorruptFiles=true to skip what cannot be read of it";
        for (int run = 0; run < 2; run++) {
            StreamingQuery q = runAvailableNow();
            assertThat(q.exception()).isPresent();
            assertThat(q.exception().get()).isInstanceOf(StreamingQueryException.class);
            assertThat(readError(q.exception().get())).isEqualTo(expected);
        }
        StreamingQuery q = runAvailableNow("ignoreCorruptFiles", "true");
        assertThat(q.exception()).isEmpty();
        assertThat(ids()).containsExactly(1L, 2L);
        assertThat(metric(q, "numCorruptFilesSkipped")).isEqualTo(1);
    }

    @Test
    void aTruncatedGzKeepsTheRowsReadBeforeTheDamageWithIgnoreCorruptFiles() throws Exception {
        json(in, "a.json", T, 1);
        byte[] whole = gzip(lines(100, 5099));
        Path bad = write("b.json.gz", java.util.Arrays.copyOf(whole, whole.length / 2), T + 1);
        json(in, "c.json", T + 2, 2);

        StreamingQuery failed = runAvailableNow();
        assertThat(readError(failed.exception().orElseThrow())).isEqualTo("Encountered error while reading file "
                + FileStorage.local().uri(bad) + " of log offset 0 of " + description() + ": Unexpected end of ZLIB "
                + "input stream. Repair or replace the file and restart (the batch is run again and reads it "
                + "again), or set ignoreCorruptFiles=true to skip what cannot be read of it");

        StreamingQuery q = runAvailableNow("ignoreCorruptFiles", "true");
        assertThat(q.exception()).isEmpty();
        List<Long> ids = ids();
        // a.json and c.json whole, and of b.json.gz the rows before the cut: a run of ids from 100 on.
        assertThat(ids).startsWith(1L, 2L, 100L);
        List<Long> fromB = ids.subList(2, ids.size());
        assertThat(fromB).hasSizeBetween(100, 4999)
                .isEqualTo(IntStream.range(100, 100 + fromB.size()).mapToObj(i -> (long) i).toList());
        assertThat(metric(q, "numCorruptFilesSkipped")).isEqualTo(1);
    }

    @Test
    void everyFormatNamesATruncatedGzFile() throws Exception {
        byte[] whole = gzip("x,1\n".repeat(20_000));
        Path bad = write("a.gz", java.util.Arrays.copyOf(whole, whole.length / 2), T);
        for (String format : List.of("json", "csv", "text")) {
            var reader = sluice.readStream().format(format);
            if (!format.equals("text")) {
                reader.schema("a string, b int");
            }
            StreamingQuery q = reader.load(in.toString()).writeStream().format("noop")
                    .option("checkpointLocation", tmp.resolve("chk-" + format).toString())
                    .trigger(Trigger.availableNow()).start();
            assertThatThrownBy(() -> q.awaitTermination(30_000)).isInstanceOf(StreamingQueryException.class);
            assertThat(readError(q.exception().orElseThrow())).as(format).isEqualTo("Encountered error while "
                    + "reading file " + FileStorage.local().uri(bad) + " of log offset 0 of " + description()
                    + ": Unexpected end of ZLIB input stream. Repair or replace the file and restart (the batch is "
                    + "run again and reads it again), or set ignoreCorruptFiles=true to skip what cannot be read of "
                    + "it");
        }
    }

    @Test
    void ignoreCorruptFilesDoesNotSkipAFailFastRecord() throws Exception {
        Path f = write("a.json", "{\"id\":1}\n{bad\n".getBytes(StandardCharsets.UTF_8), T);
        StreamingQuery q = runAvailableNow("ignoreCorruptFiles", "true", "mode", "FAILFAST");
        assertThat(q.exception()).isPresent();
        assertThat(q.exception().get()).hasMessageContaining("file " + f + ", line 2: {bad");
    }

    @Test
    void aLoggedFileGoneWhenReadFailsNamingItOrIsSkippedWithIgnoreMissingFiles() throws Exception {
        Harness h = new Harness(in, tmp.resolve("meta"));
        Path a = json(in, "a.json", T, 1);
        json(in, "b.json", T + 1, 2);
        h.open();
        var end = h.next();
        Files.delete(a);
        assertThatThrownBy(() -> h.read(h.start(), end))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("File " + FileStorage.local().uri(a) + " of log offset 0 of " + h.stream.description()
                        + " does not exist any more: it was deleted or moved after it was listed. Is another query "
                        + "with cleanSource reading the same path, or does another process remove files? Put the "
                        + "file back to let the query go on, or set ignoreMissingFiles=true to skip it");

        // The restart re-runs the logged batch; ignoreMissingFiles lets it go on without the file.
        h.option("ignoreMissingFiles", true).open();
        assertThat(Harness.ids(h.read(h.start(), end))).containsExactly(2L);
        assertThat(h.stream.metrics(Optional.empty())).containsEntry("numMissingFilesSkipped", "1");
    }

    @Test
    void aFileDeletedWhileInTheListingCacheIsNeverLogged() throws Exception {
        Harness h = new Harness(in, tmp.resolve("meta")).option("maxFilesPerTrigger", 1);
        json(in, "a.json", T, 1);
        Path b = json(in, "b.json", T + 1, 2);
        json(in, "c.json", T + 2, 3);
        json(in, "d.json", T + 3, 4);
        h.open();
        assertThat(Harness.ids(h.batch())).containsExactly(1L);
        assertThat(h.stream.unreadForTest()).extracting(ListedFile::uri)
                .contains(FileStorage.local().uri(b));
        Files.delete(b);
        // Before: b.json was logged from the cache, and its batch failed at every restart.
        assertThat(Harness.ids(h.batch())).containsExactly(3L);
        assertThat(Harness.ids(h.batch())).containsExactly(4L);
        assertThat(h.names(-1, 2)).containsExactly("a.json", "c.json", "d.json");
        assertThat(h.stream.metrics(Optional.empty())).containsEntry("numMissingFilesSkipped", "1")
                .containsEntry("numFilesOutstanding", "0");
    }

    @Test
    void aFileDeletedFromTheAvailableNowListIsNeverLogged() throws Exception {
        Harness h = new Harness(in, tmp.resolve("meta"));
        json(in, "a.json", T, 1);
        Path b = json(in, "b.json", T + 1, 2);
        Path c = json(in, "c.json", T + 2, 3);
        h.open();
        h.stream.prepareForTriggerAvailableNow();
        assertThat(Harness.ids(h.batch(ReadLimit.maxFiles(1)))).containsExactly(1L);
        Files.delete(b);
        Files.delete(c);
        // Nothing left to take: no batch rather than one of files that are gone.
        assertThat(h.batch(ReadLimit.maxFiles(1))).isNull();
        assertThat(h.names(-1, 0)).containsExactly("a.json");
        assertThat(h.stream.metrics(Optional.empty())).containsEntry("numMissingFilesSkipped", "2");
    }

    @Test
    void theSkipCountersStartAtZero() throws Exception {
        json(in, "a.json", T, 1);
        StreamingQuery q = runAvailableNow();
        assertThat(q.lastProgress().sources().get(0).metrics()).containsEntry("numSpecialFilesSkipped", "0")
                .containsEntry("numMissingFilesSkipped", "0").containsEntry("numCorruptFilesSkipped", "0");
        assertThat(new ArrayList<>(MemorySink.rows(table))).containsExactly(Row.of(1L, "n1"));
        assertThat(ids()).isSortedAccordingTo(Comparator.naturalOrder());
    }
}
