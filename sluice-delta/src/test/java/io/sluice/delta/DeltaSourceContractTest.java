package io.sluice.delta;

import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.testkit.SourceContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/** The contract test kit on the Delta source: a commit of two files per trigger, after a first snapshot. */
class DeltaSourceContractTest {
    @TempDir
    Path dir;

    private SourceContract contract() throws Exception {
        Path t = dir.resolve("t");
        TestDelta.append(t, "id string, n bigint", Row.of("start", 0L));
        return SourceContract.forFormat("delta").option("path", t.toString()).beforeEachTrigger(n -> {
            try {
                TestDelta.append(t, "id string, n bigint", List.of(),
                        List.of(Row.of(n + "-a", (long) n)), List.of(Row.of(n + "-b", (long) n)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void delta() throws Exception {
        contract().orderedByStream().check();
    }

    @Test
    void deltaUnderAFileLimit() throws Exception {
        contract().orderedByStream().readLimit(ReadLimit.maxFiles(1)).batches(4).check();
    }
}
