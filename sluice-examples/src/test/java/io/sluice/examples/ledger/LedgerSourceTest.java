package io.sluice.examples.ledger;

import com.sun.net.httpserver.HttpServer;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.testkit.SourceContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ledger source against a real local ledger server, through real queries. */
class LedgerSourceTest {
    @TempDir
    Path tmp;
    LedgerServer ledger;
    Sluice sluice;

    @BeforeEach
    void start() throws Exception {
        ledger = LedgerServer.start();
        sluice = Sluice.builder().parallelism(2).build();
    }

    @AfterEach
    void stop() {
        sluice.close();
        ledger.close();
        MemorySink.clear("ledger_rows");
    }

    private StreamingQuery query(int maxRowsPerBatch) {
        return sluice.readStream().format("ledger").option("url", ledger.url())
                .option("maxRowsPerBatch", maxRowsPerBatch).option("rowsPerPartition", 3).load()
                .writeStream().format("memory").queryName("ledger_rows")
                .option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start();
    }

    private static Row entry(long seq) {
        return Row.of(seq, "acct-" + (seq % 3 + 1), seq * 10, Instant.parse("2025-01-01T00:00:00Z").plusSeconds(seq - 1));
    }

    private static List<Row> entries(long from, long to) {
        return java.util.stream.LongStream.rangeClosed(from, to).mapToObj(LedgerSourceTest::entry).toList();
    }

    @Test
    void readsTheLedgerInBatchesAndARestartResumesWithNoGapAndNoDuplicate() throws Exception {
        ledger.appendMany(10);
        StreamingQuery q = query(4);
        q.awaitTermination();

        assertThat(MemorySink.rows("ledger_rows")).containsExactlyInAnyOrderElementsOf(entries(1, 10));
        assertThat(MemorySink.batches("ledger_rows")).containsOnlyKeys(0L, 1L, 2L);
        assertThat(MemorySink.batches("ledger_rows").get(2L)).containsExactlyInAnyOrderElementsOf(entries(9, 10));
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo("{\"seq\":10}");

        ledger.appendMany(5);
        query(4).awaitTermination();

        assertThat(MemorySink.batches("ledger_rows")).containsOnlyKeys(0L, 1L, 2L, 3L, 4L);
        assertThat(MemorySink.batches("ledger_rows").get(3L)).containsExactlyInAnyOrderElementsOf(entries(11, 14));
        assertThat(MemorySink.rows("ledger_rows")).hasSize(15).containsExactlyInAnyOrderElementsOf(entries(1, 15));
    }

    @Test
    void theContractTestKitPasses() {
        SourceContract.forFormat("ledger").options(Map.of("url", ledger.url(), "rowsPerPartition", "4"))
                .beforeEachTrigger(n -> ledger.appendMany(10)).check();
    }

    @Test
    void badOptionsFailOnLoad() {
        assertThatThrownBy(() -> sluice.readStream().format("ledger").load())
                .isInstanceOf(InvalidOptionException.class).hasMessage("Option 'url' is missing: the option is required");
        assertThatThrownBy(() -> sluice.readStream().format("ledger").option("url", "ftp://x").load())
                .hasMessage("Invalid value 'ftp://x' for option 'url': an http:// or https:// URL is accepted");
        assertThatThrownBy(() -> sluice.readStream().format("ledger").option("url", ledger.url())
                .option("maxRowsPerBatch", 0).load())
                .hasMessage("Invalid value '0' for option 'maxRowsPerBatch': a positive number is accepted");
        // The declared options: a misspelt name fails before any value is checked.
        assertThatThrownBy(() -> sluice.readStream().format("ledger").option("url", ledger.url())
                .option("maxRowPerBatch", 0).load())
                .hasMessage("Unknown option 'maxRowPerBatch' for source 'ledger': did you mean 'maxRowsPerBatch'?");
    }

    @Test
    void anErrorPageIsQuotedAsItsFirst300CharactersOnOneLine() throws Exception {
        StringBuilder page = new StringBuilder("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n");
        while (page.length() < 50_000) {
            page.append("<p>the upstream ledger did not answer in time</p>\n");
        }
        String body = page.toString();
        HttpServer proxy = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        proxy.createContext("/", exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(502, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        proxy.start();
        try {
            String url = "http://127.0.0.1:" + proxy.getAddress().getPort() + "/ledger/latest";
            String oneLine = body.strip().replaceAll("\\s+", " ");
            assertThatThrownBy(() -> LedgerSource.Reader.get(url)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("GET " + url + " answered 502: " + oneLine.substring(0, 300) + "... ("
                            + (oneLine.length() - 300) + " more characters)");
        } finally {
            proxy.stop(0);
        }
    }
}
