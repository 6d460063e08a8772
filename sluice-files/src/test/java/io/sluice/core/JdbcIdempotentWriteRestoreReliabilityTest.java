package io.sluice.core;

import io.sluice.api.sink.BatchInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability (issue 14, item 1) for the JDBC example's idempotent write ({@link SinkCrashChild#writeIdempotently},
 * the pattern docs/sinks/console-foreach.md recommends): it records each batch's digest with its id, so a
 * checkpoint restored from an older copy than the database fails instead of skipping the batch; the re-run of the
 * same logged batch after a crash is still skipped once.
 */
class JdbcIdempotentWriteRestoreReliabilityTest {
    private static final long T0 = 1_790_899_200_000L;

    @TempDir
    Path tmp;
    private final ManualClock clock = new ManualClock(T0);
    private final String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    private StreamingQuery runOneBatch(Connection c) throws Exception {
        try (Sluice sluice = Sluice.builder().clock(clock).build()) {
            StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 10)
                    .option("numPartitions", 2).load().writeStream()
                    .option("checkpointLocation", tmp.resolve("chk").toString())
                    .foreachBatch((batch, batchId) -> SinkCrashChild.writeIdempotently(c, batch, batchId))
                    .trigger(Trigger.availableNow()).start();
            try {
                q.awaitTermination();
            } finally {
                q.stop();
            }
            return q;
        }
    }

    private static List<Long> values(Connection c) throws Exception {
        List<Long> values = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT v FROM events ORDER BY v")) {
            while (r.next()) {
                values.add(r.getLong(1));
            }
        }
        return values;
    }

    @Test
    void aRestoredOlderCheckpointFailsWithBothDigestsInsteadOfSkippingTheBatch() throws Exception {
        SinkCrashChild.createTables(url);
        try (Connection c = DriverManager.getConnection(url)) {
            String id = runOneBatch(c).id().toString();
            Backups.copy(tmp.resolve("chk"), tmp.resolve("backup"));
            clock.advance(60_000);
            runOneBatch(c);
            BatchInfo written = LoggedBatch.of(tmp.resolve("chk"), id, 1);

            Backups.restore(tmp.resolve("backup"), tmp.resolve("chk"));
            clock.advance(60_000);

            assertThatThrownBy(() -> runOneBatch(c)).isInstanceOf(StreamingQueryException.class)
                    .cause().isInstanceOf(IllegalStateException.class)
                    .satisfies(e -> {
                        BatchInfo now = LoggedBatch.of(tmp.resolve("chk"), id, 1);
                        assertThat(e.getMessage()).isEqualTo("Batch 1 of query " + id + " is already in the table "
                                + "batches, written for another plan of that batch: digest " + written.digest()
                                + "; this run's checkpoint plans batch 1 as digest " + now.digest() + " (offsets ["
                                + String.join(", ", now.endOffsets()) + "] planned at "
                                + Instant.ofEpochMilli(T0 + 120_000) + "). The checkpoint was restored from an older "
                                + "copy than the sink's output, so skipping the batch would lose its rows and mark "
                                + "them read. Either (a) start over with a fresh checkpoint and new tables, or (b) "
                                + "restore the sink's output to the same point as the checkpoint (e.g. restore both "
                                + "from the same backup), then restart.");
                    });
            assertThat(tmp.resolve("chk/commits/1")).doesNotExist();
            assertThat(values(c)).hasSize(20);
        }
    }

    @Test
    void theSameLoggedBatchReRunAfterACrashIsSkippedOnce() throws Exception {
        SinkCrashChild.createTables(url);
        try (Connection c = DriverManager.getConnection(url)) {
            runOneBatch(c);
            clock.advance(60_000);
            runOneBatch(c);
            Files.delete(tmp.resolve("chk/commits/1")); // the crash: rows committed, commits/1 not written
            clock.advance(60_000);

            StreamingQuery q = runOneBatch(c);

            assertThat(q.exception()).isEmpty();
            assertThat(values(c)).hasSize(30).doesNotHaveDuplicates();
        }
    }
}
