package io.sluice.iceberg;

import io.sluice.testkit.SourceContract;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The contract test kit on the Iceberg source: one or two new snapshots before each trigger. */
class IcebergSourceContractTest {
    @TempDir
    Path dir;

    private SourceContract contract(int filesPerTrigger) {
        Table table = TestTables.create(dir.resolve("t"));
        TestTables.append(table, 0, 1);
        return SourceContract.forFormat("iceberg").orderedByStream().option("path", dir.resolve("t").toString()).beforeEachTrigger(n -> {
            table.refresh();
            for (int f = 0; f < filesPerTrigger; f++) {
                long base = 1000L * (n + 1) + 10L * f;
                TestTables.append(table, base, base + 2);
            }
        });
    }

    @Test
    void everySnapshot() {
        contract(1).check();
    }

    @Test
    void underAFileLimit() {
        contract(2).option("streaming-max-files-per-micro-batch", 1).batches(4).check();
    }

    // Not under maxRows: iceberg-spark's row limit is soft (the file reaching it is taken whole), which the kit's
    // read-limit rule counts as a violation; IcebergSourceTest#maxFilesAndMaxRowsPerMicroBatchSplitSnapshotsByFile
    // checks it exactly.
}
