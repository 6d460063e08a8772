package io.sluice.parquet;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The memory bound of the open Parquet files under partitionBy ({@link ParquetMemory}), in a process with a small
 * heap: two writer threads keep 2 × 50 files open to the end of a batch of about 100 MB of Parquet; with
 * parquet-java's fixed 128 MiB row groups they would buffer everything until the files close and the process runs
 * out of memory; with the budget their row groups are flushed early and every row comes back exactly once.
 */
class ParquetMemoryTest {
    private static final int ROWS = 980_000;
    private static final int PARTITIONS = 49;
    private static final String HEAP = "-Xmx96m";

    @TempDir
    Path tmp;

    private record Run(int exit, String out, String err) {
    }

    private Run child(Path chk, Path out, String... sinkOptions) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                HEAP, "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError", "-cp",
                System.getProperty("java.class.path"), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                ParquetMemoryChild.class.getName(), chk.toString(), out.toString(), Integer.toString(ROWS),
                Integer.toString(PARTITIONS)));
        command.addAll(List.of(sinkOptions));
        Path stdout = Files.createTempFile(tmp, "out", ".txt");
        Path stderr = Files.createTempFile(tmp, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!p.waitFor(240, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
        return new Run(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }

    private static List<Path> dataFiles(Path out) throws IOException {
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
        }
    }

    @Test
    void manyOpenFilesStayWithinTheBudgetInASmallHeapAndEveryRowComesBackOnce() throws Exception {
        Path out = tmp.resolve("out");
        Run run = child(tmp.resolve("chk"), out);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("done\n");

        List<Path> files = dataFiles(out);
        // Each writer thread kept its file of each folder open to the end: no file was closed early.
        assertThat(files).hasSize(2 * PARTITIONS);
        int rowGroups = 0;
        long largest = 0;
        for (Path f : files) {
            try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(f),
                    org.apache.parquet.SluiceReadOptions.of(ParquetCodecs.INSTANCE))) {
                rowGroups += r.getFooter().getBlocks().size();
                for (var b : r.getFooter().getBlocks()) {
                    largest = Math.max(largest, b.getTotalByteSize());
                }
            }
        }
        // The row groups were flushed early: several per file, each far below 128 MiB and the heap.
        assertThat(rowGroups).isGreaterThan(2 * files.size());
        assertThat(largest).isLessThan(8L << 20);

        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            var frame = sluice.read().format("parquet").schema("id bigint, s string, p bigint").load(out.toString());
            Map<Row, Long> expected = new HashMap<>();
            for (long p = 0; p < PARTITIONS; p++) {
                expected.put(Row.of(p), (long) (ROWS / PARTITIONS));
            }
            assertThat(frame.countBy("p")).isEqualTo(expected);
            // Every id once: the count of each id modulo a prime coprime to the partitions is exact too.
            Map<Row, Long> byResidue = new HashMap<>();
            for (long i = 0; i < ROWS; i++) {
                byResidue.merge(Row.of(i % 9973), 1L, Long::sum);
            }
            assertThat(sluice.read().format("parquet").schema("id bigint, s string, p bigint").load(out.toString())
                    .countBy("id % 9973")).isEqualTo(byResidue);
        }
    }

    @Test
    void withThePoolAsLargeAsTheHeapTheSameBatchRunsOutOfMemory() throws Exception {
        // What the bound is for: the files' buffers alone may then fill the heap (parquet-java's 0.95 would too).
        Run run = child(tmp.resolve("chk"), tmp.resolve("out"), "parquet.memory.pool.ratio", "1");
        assertThat(run.exit()).as(run.err()).isEqualTo(3); // -XX:+ExitOnOutOfMemoryError
        assertThat(run.out() + run.err()).contains("java.lang.OutOfMemoryError"); // the JVM's "Terminating due to"
    }
}
