package io.sluice.python;

import io.sluice.core.Sluice;
import io.sluice.examples.changes.ChangesServer;
import io.sluice.testkit.ContractViolation;
import io.sluice.testkit.SourceContract;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The contract test kit drives Python sources as it drives Java ones. */
class PythonContractTest {
    @Test
    void thePartitionedCounterPasses() {
        try (Sluice sluice = Sluice.builder().parallelism(2).dataSourceFiles(PythonSourceTest.py("counter_source.py"))
                .build()) {
            SourceContract.forFormat("counter").sluice(sluice)
                    .options(Map.of("total", "30", "maxRowsPerBatch", "7", "rowsPerPartition", "3")).check();
        }
    }

    @Test
    void theKitFlagsTheNaivePythonChangesSourceAsNotReplayable() throws Exception {
        try (ChangesServer server = ChangesServer.start();
             Sluice sluice = Sluice.builder().parallelism(2)
                     .dataSourceFiles(PythonSourceTest.py("changes_naive_source.py")).build()) {
            AtomicInteger next = new AtomicInteger();
            SourceContract kit = SourceContract.forFormat("py-changes-naive").sluice(sluice)
                    .option("url", server.url()).beforeEachTrigger(n -> {
                        for (int i = 0; i < 3; i++) {
                            server.add("change-" + next.incrementAndGet());
                        }
                    });
            assertThatThrownBy(kit::check).isInstanceOf(ContractViolation.class)
                    .hasMessage("rule 'replayable-after-restart' broke on range {\"n\":0} -> {\"n\":3}: a fresh "
                            + "instance returned 0 rows, the first read 3");
        }
    }
}
