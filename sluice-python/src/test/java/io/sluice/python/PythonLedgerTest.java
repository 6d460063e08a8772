package io.sluice.python;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.examples.ledger.LedgerServer;
import io.sluice.testkit.SourceContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The mission's ledger source, in Python, against the ledger example's HTTP server: end to end and restarted. */
class PythonLedgerTest {
    @TempDir
    Path tmp;
    LedgerServer ledger;
    Sluice sluice;

    @BeforeEach
    void start() throws Exception {
        ledger = LedgerServer.start();
        sluice = Sluice.builder().parallelism(2).dataSourceFiles(PythonSourceTest.py("ledger_source.py")).build();
    }

    @AfterEach
    void stop() {
        sluice.close();
        ledger.close();
        MemorySink.clear("py_ledger");
    }

    private StreamingQuery query() {
        return sluice.readStream().format("ledger").option("url", ledger.url()).option("rowsPerPartition", 3)
                .load().writeStream().format("memory").queryName("py_ledger")
                .option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start();
    }

    static List<Row> entries(long from, long to) {
        return LongStream.rangeClosed(from, to).mapToObj(seq -> Row.of(seq, "acct-" + (seq % 3 + 1), seq * 10,
                Instant.parse("2025-01-01T00:00:00Z").plusSeconds(seq - 1))).toList();
    }

    @Test
    void theLedgerRunsEndToEndAndARestartResumesWithNoGapAndNoDuplicate() throws Exception {
        // the Python source, registered, wins over the Java ledger example on the test class path
        assertThat(sluice.sourceProvider("ledger").toString()).isEqualTo("DataSource[ledger, "
                + "io.sluice.python.PythonDataSource]");
        ledger.appendMany(10);
        StreamingQuery q = query();
        q.awaitTermination();
        assertThat(MemorySink.batches("py_ledger")).containsOnlyKeys(0L);
        assertThat(MemorySink.rows("py_ledger")).containsExactlyInAnyOrderElementsOf(entries(1, 10));
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo("{\"seq\":10}");
        assertThat(Files.readAllLines(tmp.resolve("chk/offsets/0"))).last().isEqualTo("{\"seq\":10}");

        ledger.appendMany(5);
        query().awaitTermination();
        assertThat(MemorySink.batches("py_ledger")).containsOnlyKeys(0L, 1L);
        assertThat(MemorySink.batches("py_ledger").get(1L)).containsExactlyInAnyOrderElementsOf(entries(11, 15));
        assertThat(MemorySink.rows("py_ledger")).hasSize(15).containsExactlyInAnyOrderElementsOf(entries(1, 15));
    }

    @Test
    void theDocsShowThisLedgerFileAsItIs() throws Exception {
        String page = Files.readString(Path.of("../docs/sources/python.md"));
        String ledgerSection = page.substring(page.indexOf("## The mission's ledger"));
        String block = ledgerSection.substring(ledgerSection.indexOf("```python\n") + 10,
                ledgerSection.indexOf("```\n", ledgerSection.indexOf("```python\n") + 10));
        assertThat(block).isEqualTo(Files.readString(PythonSourceTest.py("ledger_source.py")));
    }

    @Test
    void theContractTestKitPassesOnThePythonLedger() {
        SourceContract.forFormat("ledger").sluice(sluice).options(Map.of("url", ledger.url(), "rowsPerPartition", "4"))
                .beforeEachTrigger(n -> ledger.appendMany(10)).check();
    }
}
