package io.sluice.examples.ledger;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The ledger demo: starts a local {@link LedgerServer} with 20 entries, runs a query from the {@code ledger}
 * source to the console (at most 8 entries a batch, availableNow), appends 5 entries and runs again on the same
 * checkpoint: the second run prints only the 5 new entries.
 *
 * <p>Argument (optional): the checkpoint folder (default: a fresh temp folder).
 */
public final class LedgerDemo {
    private LedgerDemo() {
    }

    public static void main(String[] args) throws Exception {
        Path checkpoint = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("sluice-ledger-demo-");
        try (LedgerServer ledger = LedgerServer.start(); Sluice sluice = Sluice.local()) {
            ledger.appendMany(20);
            System.out.println("Ledger at " + ledger.url() + " with " + ledger.latestSeq() + " entries; checkpoint "
                    + checkpoint);
            run(sluice, ledger, checkpoint);
            ledger.appendMany(5);
            System.out.println("Appended 5 entries; running again on the same checkpoint:");
            run(sluice, ledger, checkpoint);
        }
    }

    private static void run(Sluice sluice, LedgerServer ledger, Path checkpoint) throws Exception {
        StreamingQuery q = sluice.readStream().format("ledger").option("url", ledger.url())
                .option("maxRowsPerBatch", 8).load()
                .writeStream().format("console").option("checkpointLocation", checkpoint.toString())
                .trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        System.out.println("Last batch: " + q.lastProgress().batchId() + ", ended at "
                + q.lastProgress().sources().get(0).endOffset());
    }
}
