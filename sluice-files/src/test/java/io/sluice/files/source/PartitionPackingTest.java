package io.sluice.files.source;

import io.sluice.api.source.InputPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How a batch's files are packed into partitions (one reader thread reads one partition at a time). */
class PartitionPackingTest {
    private static List<FilePartition.Slice> files(int n, long size) {
        List<FilePartition.Slice> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new FilePartition.Slice("file:/in/f" + i, i, size, "", List.of()));
        }
        return out;
    }

    private static List<Integer> counts(List<InputPartition> parts) {
        return parts.stream().map(p -> ((FilePartition) p).files().size()).toList();
    }

    private static List<FilePartition.Slice> flat(List<InputPartition> parts) {
        return parts.stream().flatMap(p -> ((FilePartition) p).files().stream()).toList();
    }

    @Test
    void aBigBatchGetsFourEvenPartitionsPerCoreInLogOrder() {
        List<FilePartition.Slice> in = files(100, 2_260_000);
        List<InputPartition> parts = FilePlanner.pack(in, 100 * 2_260_000L, 2);
        assertThat(counts(parts)).containsExactly(12, 13, 12, 13, 12, 13, 12, 13);
        assertThat(flat(parts)).isEqualTo(in);
    }

    @Test
    void smallBatchesKeepOnePartitionPerCoreAndNeverMoreThanTheFiles() {
        assertThat(counts(FilePlanner.pack(files(10, 100), 1_000, 2))).containsExactly(5, 5);
        assertThat(counts(FilePlanner.pack(files(1, 100), 100, 2))).containsExactly(1);
        assertThat(counts(FilePlanner.pack(files(3, 20L << 20), 60L << 20, 4))).containsExactly(1, 1, 1);
        assertThat(FilePlanner.pack(List.of(), 0, 2)).isEmpty();
    }

    @Test
    void manyFilesAreCutByTheirOpenCostAsSparkDoes() {
        // 1,000 tiny files cost 4 MB each: 4,000 MB in partitions of at most 128 MB.
        List<InputPartition> parts = FilePlanner.pack(files(1_000, 113), 113_000, 2);
        assertThat(parts).hasSize(32);
        assertThat(counts(parts)).allSatisfy(c -> assertThat(c).isBetween(31, 32));
        assertThat(flat(parts)).isEqualTo(files(1_000, 113));
    }

    @Test
    void aHugeFileIsAPartitionOfItsOwn() {
        List<FilePartition.Slice> in = new ArrayList<>(files(4, 1 << 20));
        in.add(2, new FilePartition.Slice("file:/in/big", 9, 1L << 30, "", List.of()));
        List<InputPartition> parts = FilePlanner.pack(in, (4L << 20) + (1L << 30), 2);
        assertThat(flat(parts)).isEqualTo(in);
        assertThat(parts.stream().filter(p -> ((FilePartition) p).files().stream()
                .anyMatch(s -> s.uri().endsWith("big"))).map(p -> ((FilePartition) p).files().size()))
                .containsExactly(1);
    }
}
