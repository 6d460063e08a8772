package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.files.sink.JsonSinkProvider;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

/**
 * The process {@link SinkCrashTest} kills: rate-micro-batch (100 rows a batch) into the real JSON file sink
 * ({@code files} mode) or, through foreachBatch, into an H2 database with a transaction keyed by batch id
 * ({@code jdbc} mode). Halts at the crash point of the chosen batch; prints {@code batch N} per batch; stops
 * cleanly on {@code stop} from stdin.
 *
 * <p>Arguments: mode, checkpoint folder, output folder or JDBC URL, crash point, batch.
 */
public final class SinkCrashChild {
    private SinkCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String checkpoint = args[1];
        String target = args[2];
        CrashChildMain.arm(CrashPoint.valueOf(args[3]), Long.parseLong(args[4]));
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.registerSource(new CrashChildMain.CrashingRate());
            CrashChildMain.reportBatches(sluice);
            DataStreamWriter writer = sluice.readStream().format("crashing-rate")
                    .option("rowsPerBatch", CrashChildMain.ROWS_PER_BATCH).option("numPartitions", 2).load()
                    .writeStream().option("checkpointLocation", checkpoint);
            if (mode.equals("files")) {
                sluice.registerSink(new CrashingSink(new JsonSinkProvider()));
                writer.format("crashing-json").option("path", target);
            } else {
                createTables(target);
                // One connection for the process: H2 opens its file once, not at every batch.
                Connection connection = DriverManager.getConnection(target);
                writer.foreachBatch((batch, batchId) -> writeIdempotently(connection, batch, batchId));
            }
            StreamingQuery q = writer.start();
            CrashChildMain.runUntilStopped(q);
        }
    }

    static void createTables(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS events (v BIGINT NOT NULL, batch_id BIGINT NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS batches (batch_id BIGINT PRIMARY KEY, digest VARCHAR(16) NOT NULL)");
        }
    }

    /**
     * The idempotent write the docs recommend: one transaction that records the batch id and its digest with the
     * rows, and does nothing when the id is already recorded with the same digest (a re-run after a crash); the id
     * recorded with another digest is a checkpoint restored from an older copy than the database, which fails
     * rather than skip rows that were never written.
     */
    static void writeIdempotently(Connection c, BatchData batch, long batchId) throws Exception {
        {
            c.setAutoCommit(false);
            String digest = batch.info().digest();
            try (PreparedStatement seen = c.prepareStatement("SELECT digest FROM batches WHERE batch_id = ?")) {
                seen.setLong(1, batchId);
                try (ResultSet r = seen.executeQuery()) {
                    if (r.next()) {
                        String recorded = r.getString(1);
                        c.rollback();
                        if (!recorded.equals(digest)) {
                            throw new IllegalStateException(batch.info().rangeConflict("the table batches",
                                    "digest " + recorded, "digest " + digest + " (" + batch.info().range() + ")",
                                    "new tables"));
                        }
                        return;
                    }
                }
            }
            List<Row> rows = batch.rows();
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO events (v, batch_id) VALUES (?, ?)")) {
                for (int i = 0; i < rows.size(); i++) {
                    insert.setLong(1, rows.get(i).getLong(1));
                    insert.setLong(2, batchId);
                    insert.executeUpdate();
                    if (i == rows.size() / 2) {
                        CrashChildMain.crashIf(CrashPoint.DURING_SINK_WRITE, batchId);
                    }
                }
            }
            try (PreparedStatement mark = c.prepareStatement("INSERT INTO batches (batch_id, digest) VALUES (?, ?)")) {
                mark.setLong(1, batchId);
                mark.setString(2, digest);
                mark.executeUpdate();
            }
            c.commit();
        }
        CrashChildMain.crashIf(CrashPoint.BEFORE_COMMIT_LOG, batchId);
    }
}
