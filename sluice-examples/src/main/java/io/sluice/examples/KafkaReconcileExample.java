package io.sluice.examples;

import io.sluice.core.Sluice;

import java.time.Instant;

/**
 * Reconciliation with a bounded Kafka read: counts the records a topic holds with timestamps in {@code [from, to)}
 * and compares the count with what a sink reports having written for the same window.
 *
 * <pre>
 * java -cp sluice-examples/target/sluice-examples.jar io.sluice.examples.KafkaReconcileExample \
 *     localhost:9092 events 2024-05-01T00:00:00Z 2024-05-02T00:00:00Z 1250000
 * </pre>
 *
 * Exits 0 when the counts match, 1 otherwise. {@code sluice kafka reconcile} does the same from the command line.
 */
public final class KafkaReconcileExample {
    private KafkaReconcileExample() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: KafkaReconcileExample BOOTSTRAP TOPIC FROM TO EXPECTED_COUNT");
            System.exit(2);
        }
        long count = count(args[0], args[1], Instant.parse(args[2]), Instant.parse(args[3]));
        long expected = Long.parseLong(args[4]);
        System.out.println("Kafka holds " + count + " records of " + args[1] + " in [" + args[2] + ", " + args[3]
                + "); the sink reported " + expected + (count == expected ? ": MATCH" : ": MISMATCH"));
        System.exit(count == expected ? 0 : 1);
    }

    /** The number of committed records of {@code topic} whose timestamp is in {@code [from, to)}. */
    public static long count(String bootstrap, String topic, Instant from, Instant to) throws Exception {
        try (Sluice sluice = Sluice.local()) {
            return sluice.read().format("kafka")
                    .option("kafka.bootstrap.servers", bootstrap)
                    .option("subscribe", topic)
                    // Transactional writers' aborted records are not counted.
                    .option("kafka.isolation.level", "read_committed")
                    .option("startingTimestamp", from.toEpochMilli())
                    // A partition with nothing at or after `from` contributes nothing, rather than failing.
                    .option("startingOffsetsByTimestampStrategy", "latest")
                    .option("endingTimestamp", to.toEpochMilli())
                    .load()
                    .count(); // counted as read: no record is kept in memory
        }
    }
}
