package io.sluice.python;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Python sources run by the engine through real python3 workers: rows, offsets, types, errors, stops. */
class PythonSourceTest {
    @TempDir
    Path tmp;
    Sluice sluice;

    static Path py(String name) {
        try {
            return Path.of(PythonSourceTest.class.getResource("/python/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private Sluice sluice(String file) {
        sluice = Sluice.builder().parallelism(2).dataSourceFiles(py(file)).build();
        return sluice;
    }

    @AfterEach
    void close() {
        if (sluice != null) {
            sluice.close();
        }
        MemorySink.clear("py_rows");
    }

    private StreamingQuery counter(Map<String, String> options, String chk) {
        return sluice.readStream().format("counter").options(options).load()
                .writeStream().format("memory").queryName("py_rows")
                .option("checkpointLocation", tmp.resolve(chk).toString())
                .trigger(Trigger.availableNow()).start();
    }

    private static List<Row> counted(long from, long to) {
        return LongStream.range(from, to).mapToObj(i -> Row.of(i, "w" + i)).toList();
    }

    @Test
    void aPartitionedStreamReaderRunsUnderAvailableNowWithItsReadLimitAndItsOffsetsInTheLog() throws Exception {
        sluice("counter_source.py");
        StreamingQuery q = counter(Map.of("total", "10", "maxRowsPerBatch", "4", "rowsPerPartition", "3"), "chk");
        q.awaitTermination();

        assertThat(MemorySink.batches("py_rows")).containsOnlyKeys(0L, 1L, 2L);
        assertThat(MemorySink.batches("py_rows").get(0L)).containsExactlyInAnyOrderElementsOf(counted(0, 4));
        assertThat(MemorySink.batches("py_rows").get(1L)).containsExactlyInAnyOrderElementsOf(counted(4, 8));
        assertThat(MemorySink.batches("py_rows").get(2L)).containsExactlyInAnyOrderElementsOf(counted(8, 10));
        assertThat(q.lastProgress().sources().get(0).startOffset()).isEqualTo("{\"n\":8}");
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo("{\"n\":10}");
        assertThat(Files.readAllLines(tmp.resolve("chk/offsets/1"))).last().isEqualTo("{\"n\":8}");
    }

    @Test
    void everyTypeRoundTrips() throws Exception {
        sluice("types_source.py");
        assertThat(sluice.readStream().format("types").load().schema().toDDL()).isEqualTo(
                "bo BOOLEAN, by TINYINT, sh SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, de DECIMAL(12,3), "
                        + "s STRING, bi BINARY, da DATE, ts TIMESTAMP, ar ARRAY<BIGINT>, ma MAP<STRING, DOUBLE>, "
                        + "st STRUCT<x: INT, y: STRING>");
        sluice.readStream().format("types").load().writeStream().format("memory").queryName("py_rows")
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.availableNow())
                .start().awaitTermination();
        List<Row> rows = MemorySink.rows("py_rows");
        assertThat(rows).hasSize(2);
        Object[] full = rows.get(0).toArray();
        Map<String, Double> map = new LinkedHashMap<>();
        map.put("a", 1.0);
        map.put("b", null);
        assertThat(Arrays.copyOfRange(full, 0, 9)).containsExactly(true, (byte) -128, (short) 32767,
                Integer.MIN_VALUE, Long.MAX_VALUE, 1.5f, -2.25d, new BigDecimal("123456789.125"), "héllo ☃");
        assertThat((byte[]) full[9]).containsExactly(0, 0xff);
        assertThat(full[10]).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(full[11]).isEqualTo(Instant.parse("2025-01-01T12:30:00.123456Z"));
        assertThat(full[12]).isEqualTo(Arrays.asList(1L, null, 3L));
        assertThat(full[13]).isEqualTo(map);
        assertThat(((Row) full[14]).toArray()).containsExactly(7, "z");
        assertThat(rows.get(1).toArray()).containsOnlyNulls().hasSize(15);
    }

    @Test
    void aPythonExceptionFailsTheQueryWithItsTracebackAndARestartReadsTheSameRange() throws Exception {
        sluice("counter_source.py");
        StreamingQuery q = counter(Map.of("total", "10", "failAt", "5", "rowsPerPartition", "10"), "chk");
        assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(PythonSourceException.class)
                .hasMessageStartingWith("Python data source 'counter' failed in read: ValueError: boom at 5\n")
                .hasMessageEndingWith("counter_source.py\", line 35, in _rows\n"
                        + "    raise ValueError(\"boom at %d\" % i)");
        assertThat(Files.exists(tmp.resolve("chk/offsets/0"))).isTrue();
        assertThat(Files.exists(tmp.resolve("chk/commits/0"))).isFalse();

        counter(Map.of("total", "10", "rowsPerPartition", "10"), "chk").awaitTermination();
        assertThat(MemorySink.batches("py_rows")).containsOnlyKeys(0L);
        assertThat(MemorySink.rows("py_rows")).containsExactlyInAnyOrderElementsOf(counted(0, 10));
    }

    @Test
    void aWorkerKilledInsideReadFailsTheBatchClearlyAndTheRestartReadsEverything() throws Exception {
        sluice("counter_source.py");
        Path wait = tmp.resolve("go");
        StreamingQuery q = counter(Map.of("total", "6", "rowsPerPartition", "6", "waitFor", wait.toString(),
                "waitAt", "2"), "chk");
        Path pidFile = tmp.resolve("go.pid");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(pidFile) && Files.size(pidFile) > 0);
        long pid = Long.parseLong(Files.readString(pidFile));
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        assertThatThrownBy(q::awaitTermination).cause().isInstanceOf(PythonSourceException.class)
                .hasMessage("Python data source 'counter': its Python worker (pid " + pid
                        + ") died during read with exit code 137");
        Files.writeString(wait, "go");
        counter(Map.of("total", "6", "rowsPerPartition", "6"), "chk").awaitTermination();
        assertThat(MemorySink.rows("py_rows")).containsExactlyInAnyOrderElementsOf(counted(0, 6));
    }

    @Test
    void readingWorkersKilledBetweenBatchesAreReplacedAndTheQueryGoesOn() throws Exception {
        // On a manual clock the query waits between triggers, so the workers are killed while idle.
        io.sluice.core.ManualClock clock = new io.sluice.core.ManualClock(0);
        sluice = Sluice.builder().parallelism(2).clock(clock).dataSourceFiles(py("endless_source.py")).build();
        Path pids = Files.createDirectory(tmp.resolve("pids"));
        StreamingQuery q = sluice.readStream().format("endless").option("pidDir", pids.toString()).load()
                .writeStream().format("memory").queryName("py_rows")
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.processingTime(1000))
                .start();
        await().atMost(Duration.ofSeconds(30)).until(() -> MemorySink.rows("py_rows").size() == 100
                && clock.isWaiting());
        List<Long> first;
        try (var s = Files.list(pids)) {
            first = s.map(f -> Long.parseLong(f.getFileName().toString())).toList();
        }
        assertThat(first).hasSizeBetween(1, 2);
        for (long pid : first) {
            ProcessHandle h = ProcessHandle.of(pid).orElseThrow();
            h.destroyForcibly();
            h.onExit().get();
        }
        for (int batch = 2; batch <= 3; batch++) {
            clock.advance(1000);
            int expected = batch * 100;
            await().atMost(Duration.ofSeconds(30)).until(() -> !q.isActive()
                    || (MemorySink.rows("py_rows").size() == expected && clock.isWaiting()));
            assertThat(q.exception()).isEmpty();
        }
        q.stop();
        assertThat(MemorySink.rows("py_rows").stream().map(r -> r.getLong(0)).sorted().toList())
                .isEqualTo(LongStream.range(0, 300).boxed().toList());
        try (var s = Files.list(pids)) {
            assertThat(s.map(f -> Long.parseLong(f.getFileName().toString())).filter(p -> !first.contains(p)))
                    .isNotEmpty();
        }
    }

    @Test
    void stopIsPromptWhilePythonIsInsideReadAndNoWorkerOutlivesTheQuery() throws Exception {
        sluice = Sluice.builder().parallelism(2).stopGracePeriod(Duration.ofMillis(500))
                .dataSourceFiles(py("counter_source.py")).build();
        Path wait = tmp.resolve("never");
        StreamingQuery q = counter(Map.of("total", "6", "rowsPerPartition", "6", "waitFor", wait.toString()), "chk");
        Path pidFile = tmp.resolve("never.pid");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(pidFile) && Files.size(pidFile) > 0);
        ProcessHandle reader = ProcessHandle.of(Long.parseLong(Files.readString(pidFile))).orElseThrow();
        List<ProcessHandle> before = new ArrayList<>(ProcessHandle.current().children().toList());
        assertThat(before).contains(reader).hasSize(2);  // the planning worker and the reading one
        long t0 = System.nanoTime();
        q.stop();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
        await().atMost(Duration.ofSeconds(5)).until(() -> before.stream().noneMatch(ProcessHandle::isAlive));
    }

    @Test
    void readingWorkersStayWarmAcrossBatchesAndAreBoundedByTheParallelism() throws Exception {
        sluice("counter_source.py");
        long before = PythonWorker.STARTED.get();
        // 4 batches of 6 rows in 3 partitions each: 2 readers at most, the same two for every batch
        counter(Map.of("total", "24", "maxRowsPerBatch", "6", "rowsPerPartition", "2"), "chk").awaitTermination();
        assertThat(MemorySink.batches("py_rows")).containsOnlyKeys(0L, 1L, 2L, 3L);
        assertThat(MemorySink.rows("py_rows")).containsExactlyInAnyOrderElementsOf(counted(0, 24));
        // one for the schema at load(), the planning worker, at most two readers: not one per partition or batch
        assertThat(PythonWorker.STARTED.get() - before).isBetween(3L, 4L);
    }

    @Test
    void aSimpleReaderRunsOneBatchPerReadAndReplaysWithReadBetweenOffsets() throws Exception {
        sluice("simple_source.py");
        StreamingQuery q = sluice.readStream().format("simple_counter").option("total", "5").load()
                .writeStream().format("memory").queryName("py_rows")
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.processingTime(0))
                .start();
        await().atMost(Duration.ofSeconds(30)).until(() -> MemorySink.rows("py_rows").size() == 5);
        q.stop();
        assertThat(MemorySink.batches("py_rows").get(0L)).containsExactly(Row.of(0), Row.of(1), Row.of(2));
        assertThat(MemorySink.batches("py_rows").get(1L)).containsExactly(Row.of(3), Row.of(4));
        assertThat(Files.readAllLines(tmp.resolve("chk/offsets/1"))).last().isEqualTo("{\"n\":5}");
    }

    @Test
    void aBoundedReadUsesTheBatchReader() throws Exception {
        sluice("counter_source.py");
        assertThat(sluice.read().format("counter").load().collectAsList())
                .containsExactlyInAnyOrderElementsOf(counted(0, 5));
    }

    @Test
    void aBoundedReadOfASourceWithoutReaderReadsItsStreamFromTheInitialOffset() throws Exception {
        sluice("types_source.py");
        assertThat(sluice.read().format("types").load().count()).isEqualTo(2);
    }

    @Test
    void aRowThatDoesNotMatchTheSchemaNamesTheColumnAndThePythonType() {
        sluice("bad_types_source.py");
        StreamingQuery q = sluice.readStream().format("bad_types").load().writeStream().format("memory")
                .queryName("py_rows").option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start();
        assertThatThrownBy(q::awaitTermination).cause().isInstanceOf(PythonSourceException.class)
                .hasMessageStartingWith("Python data source 'bad_types' failed in read: RowTypeError: "
                        + "column 'seq' of type BIGINT got a value of Python type str: '2'");
    }

    @Test
    void aFileThatDoesNotImportFailsBeforeAnyQueryNamingTheFileAndLine() throws Exception {
        Path bad = tmp.resolve("broken.py");
        Files.copy(py("broken_source.py.txt"), bad);
        assertThatThrownBy(() -> Sluice.builder().dataSourceFiles(bad).build())
                .isInstanceOf(PythonSourceException.class)
                .hasMessageStartingWith("Cannot load Python data sources from " + bad.toRealPath()
                        + ": SyntaxError: expected ':' (" + bad.toRealPath() + ", line 3)")
                .hasMessageNotContaining("File \"");
    }

    @Test
    void aMissingPythonGivesAClearMessageBeforeTheQuery() {
        System.setProperty("sluice.python", "/nonexistent/python3");
        try {
            assertThatThrownBy(() -> PythonDataSources.load(py("counter_source.py"), 1, 10))
                    .isInstanceOf(PythonSourceException.class)
                    .hasMessage("Python data source 'counter_source.py': cannot start /nonexistent/python3: Cannot "
                            + "run program \"/nonexistent/python3\": error=2, No such file or directory. Python 3.9 "
                            + "or later is needed (no PySpark): install it, or name the command with "
                            + "-Dsluice.python=... or SLUICE_PYTHON");
        } finally {
            System.clearProperty("sluice.python");
        }
    }

    @Test
    void aFolderRegistersEveryPythonFileAndItsSourcesAreFoundByName() {
        sluice = Sluice.builder().dataSourceFiles(py("counter_source.py").getParent()).build();
        assertThat(sluice.sourceProvider("counter").shortName()).isEqualTo("counter");
        assertThat(sluice.sourceProvider("simple_counter").shortName()).isEqualTo("simple_counter");
        assertThat(sluice.sourceProvider("TYPES").shortName()).isEqualTo("types");
    }
}
