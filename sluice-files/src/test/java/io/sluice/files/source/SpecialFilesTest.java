package io.sluice.files.source;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.FileFormats;
import io.sluice.files.format.RowIterator;
import io.sluice.files.fs.FileStorage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.sluice.files.source.TestFiles.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Reliability (issue 14): a FIFO in the source folder used to block a reader forever, and a stop waited for it.
 * Special files (FIFOs, sockets, devices, links to them) are skipped by the listing and counted; a link to a
 * regular file is read; a reader never opens a special file; and stop() returns while a reader is stuck in a
 * read. Real FIFOs made with {@code mkfifo}.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class SpecialFilesTest {
    static final long T = 1_700_000_000_000L;

    @TempDir
    Path tmp;
    Path in;
    String table;
    Sluice sluice;

    @BeforeEach
    void setUp() throws IOException {
        in = Files.createDirectories(tmp.resolve("in"));
        table = "t_" + UUID.randomUUID().toString().replace('-', '_');
    }

    @AfterEach
    void tearDown() {
        if (sluice != null) {
            sluice.close();
        }
        MemorySink.clear(table);
    }

    static Path mkfifo(Path p) throws IOException, InterruptedException {
        Process proc = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        assertThat(proc.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(proc.exitValue()).isZero();
        return p;
    }

    private StreamingQuery start(Trigger trigger) {
        return sluice.readStream().format("json").schema("id long, name string").load(in.toString())
                .writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(trigger).start();
    }

    private static long metric(StreamingQueryProgress p, String name) {
        return Long.parseLong(p.sources().get(0).metrics().get(name));
    }

    @Test
    void aFifoAndALinkToOneAreSkippedAndCountedWhileLinkedRegularFilesAreRead() throws Exception {
        json(in, "a.json", T, 1, 2);
        mkfifo(in.resolve("pipe.json"));
        Path outside = json(tmp, "elsewhere/c.json", T + 2, 5);
        Files.createSymbolicLink(in.resolve("linked.json"), outside);
        Files.createSymbolicLink(in.resolve("to-pipe.json"), in.resolve("pipe.json"));
        json(in, "sub/b.json", T + 1, 3, 4);
        sluice = Sluice.builder().parallelism(2).build();

        StreamingQuery q = start(Trigger.availableNow());
        // Before: the FIFO was listed and its reader blocked in open(), so the query never finished.
        assertThat(q.awaitTermination(30_000)).isTrue();
        assertThat(q.exception()).isEmpty();

        assertThat(MemorySink.rows(table).stream().sorted(Comparator.comparingLong(r -> r.getLong(0))).toList())
                .containsExactly(Row.of(1L, "n1"), Row.of(2L, "n2"), Row.of(3L, "n3"), Row.of(4L, "n4"),
                        Row.of(5L, "n5"));
        assertThat(metric(q.lastProgress(), "numSpecialFilesSkipped")).isEqualTo(2);
        assertThat(metric(q.lastProgress(), "numFilesTaken")).isEqualTo(3);
    }

    @Test
    void eachSpecialFileIsCountedOncePerRun() throws Exception {
        json(in, "a.json", T, 1);
        mkfifo(in.resolve("pipe"));
        Harness h = new Harness(in, tmp.resolve("meta"));
        h.open();
        assertThat(Harness.ids(h.batch())).containsExactly(1L);
        json(in, "b.json", T + 1, 2);
        assertThat(Harness.ids(h.batch())).containsExactly(2L);
        assertThat(h.stream.metrics(Optional.empty())).containsEntry("numSpecialFilesSkipped", "1");
        assertThat(h.names(-1, 1)).containsExactly("a.json", "b.json");
    }

    @Test
    void aReaderNeverOpensASpecialFile() throws Exception {
        // A FIFO put where a listed file was: opening it would block until a writer comes, in a system call that
        // no interrupt ends. The reader refuses it at once, naming it.
        Path fifo = mkfifo(tmp.resolve("swapped.json"));
        FileFormatReader reader = FileFormats.reader("json", Options.of(java.util.Map.of()),
                StructType.fromDDL("id long"));
        assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
                assertThatThrownBy(() -> reader.open(fifo).close())
                        .isInstanceOf(IOException.class)
                        .hasMessage("Cannot read " + fifo + ": it is not a regular file (a FIFO, socket, device or "
                                + "directory), so it is not data; reading a FIFO could block forever"));
    }

    @Test
    void stopReturnsWhileAReaderIsStuckInARead() throws Exception {
        // A read blocked in the kernel (a FIFO with a writer and no data, as a hung network file system) is not
        // ended by an interrupt: Java's FileChannel reads of such files ignore it. stop() must return anyway,
        // within twice the grace period, and the query must end as stopped, committing nothing, once the read
        // returns.
        Path fifo = mkfifo(tmp.resolve("blocking"));
        CountDownLatch reading = new CountDownLatch(1);
        AtomicReference<Throwable> readerEnd = new AtomicReference<>();
        Formats blocking = new Formats() {
            @Override
            public Optional<StructType> fixedSchema(String format, Options options) {
                return Optional.empty();
            }

            @Override
            public void validate(String format, Options options, StructType dataSchema) {
            }

            @Override
            public FileFormatReader reader(String format, Options options, StructType dataSchema) {
                return file -> new RowIterator() {
                    // Files.newInputStream, as the real readers open files (a FileChannel's stream).
                    final InputStream stream = Files.newInputStream(fifo);

                    @Override
                    public boolean next() throws IOException {
                        reading.countDown();
                        try {
                            return stream.read() >= 0;
                        } catch (IOException | RuntimeException e) {
                            readerEnd.set(e);
                            throw e;
                        }
                    }

                    @Override
                    public Row get() {
                        return Row.of(0L, "x");
                    }

                    @Override
                    public void close() throws IOException {
                        stream.close();
                    }
                };
            }

            @Override
            public StructType infer(String format, Options options, List<Path> sampleFiles) {
                throw new UnsupportedOperationException();
            }
        };
        json(in, "a.json", T, 1);
        sluice = Sluice.builder().parallelism(2).stopGracePeriod(Duration.ofMillis(500)).build()
                .registerSource(new FileSourceProvider("json", blocking, FileStorage.local()) {
                });
        // Read and write: a writer is there, so the reader's open does not wait, and no data comes.
        FileChannel writer = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
        StreamingQuery q;
        try {
            q = start(Trigger.processingTime(100));
            assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();
            long t0 = System.nanoTime();
            q.stop();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(ms).isBetween(900L, 5_000L); // the grace period twice: the boundary, then the interrupt
        } finally {
            writer.close(); // the read returns (end of input)
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> !q.isActive());
        assertThat(q.exception()).isEmpty();
        // Stopped, not finished: the batch in flight was not committed; the next start runs it again.
        assertThat(readerEnd.get()).isNull();
        assertThat(tmp.resolve("chk/offsets/0")).exists();
        assertThat(tmp.resolve("chk/commits/0")).doesNotExist();
    }
}
