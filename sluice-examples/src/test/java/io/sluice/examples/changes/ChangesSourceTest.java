package io.sluice.examples.changes;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.testkit.ContractViolation;
import io.sluice.testkit.SourceContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An upstream that cannot replay: the naive source loses data, the staging source does not. */
class ChangesSourceTest {
    @TempDir
    Path tmp;
    ChangesServer server;
    Sluice sluice;

    @BeforeEach
    void start() throws Exception {
        server = ChangesServer.start();
        sluice = Sluice.builder().parallelism(2).build();
    }

    @AfterEach
    void stop() {
        sluice.close();
        server.close();
        MemorySink.clear("changes_rows");
    }

    private SourceContract contract(String format) {
        AtomicInteger next = new AtomicInteger();
        return SourceContract.forFormat(format).option("url", server.url()).beforeEachTrigger(n -> {
            for (int i = 0; i < 3; i++) {
                server.add("change-" + next.incrementAndGet());
            }
        });
    }

    @Test
    void theKitFlagsTheNaiveSourceAsNotReplayable() {
        assertThatThrownBy(() -> contract("changes-naive").check()).isInstanceOf(ContractViolation.class)
                .hasMessage("rule 'replayable-after-restart' broke on range {\"n\":0} -> {\"n\":3}: a fresh instance "
                        + "returned 0 rows, the first read 3");
    }

    @Test
    void theKitPassesTheStagingSource() {
        contract("changes").check();
    }

    private StreamingQuery memoryQuery() {
        return sluice.readStream().format("changes").option("url", server.url()).load()
                .writeStream().format("memory").queryName("changes_rows")
                .option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start();
    }

    @Test
    void aCrashAfterTheFetchBeforeTheCommitLosesNothing() throws Exception {
        server.add("a", "b", "c");
        StreamingQuery failing = sluice.readStream().format("changes").option("url", server.url()).load()
                .writeStream().foreachBatch((batch, id) -> {
                    throw new IllegalStateException("sink down");
                })
                .option("checkpointLocation", tmp.resolve("chk").toString())
                .trigger(Trigger.availableNow()).start();
        assertThatThrownBy(failing::awaitTermination).isInstanceOf(StreamingQueryException.class)
                .cause().hasMessage("sink down");
        assertThat(Files.exists(tmp.resolve("chk/offsets/0"))).isTrue();
        assertThat(Files.exists(tmp.resolve("chk/commits/0"))).isFalse();

        server.add("d");
        memoryQuery().awaitTermination();
        memoryQuery().awaitTermination();

        assertThat(MemorySink.batches("changes_rows").get(0L))
                .containsExactly(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
        assertThat(MemorySink.rows("changes_rows")).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"),
                Row.of(3L, "c"), Row.of(4L, "d"));
        // Committed chunks are released.
        try (var staged = Files.list(tmp.resolve("chk/sources/0/staged"))) {
            assertThat(staged).isEmpty();
        }
    }

    @Test
    void aCrashAfterTheFetchBeforeTheOffsetIsLoggedLosesNothing() throws Exception {
        server.add("x", "y");
        Path metadata = Files.createDirectories(tmp.resolve("chk/sources/0"));
        // A run that fetched (and staged) and died before writing offsets/0.
        var reader = new ChangesSource().simpleStreamReader(new DataSourceContext(
                Options.of(java.util.Map.of("url", server.url())), StructType.fromDDL("n bigint, change string"),
                metadata, SluiceClock.system(), "q", false));
        @SuppressWarnings("unchecked")
        var r = (io.sluice.api.datasource.SimpleDataSourceStreamReader<ChangesSource.Count>) reader;
        assertThat(r.read(new ChangesSource.Count(0)).rows()).hasSize(2);

        memoryQuery().awaitTermination();

        assertThat(MemorySink.rows("changes_rows")).containsExactly(Row.of(1L, "x"), Row.of(2L, "y"));
    }
}
