package io.sluice.spark;

import org.apache.spark.sql.connector.read.streaming.Offset;

/**
 * A Sluice offset as Spark sees it: Spark writes {@link #json()} to its offset log and compares offsets by JSON,
 * exactly as Sluice does. The Sluice offset rides along (transient) so the driver need not parse it back.
 */
final class SparkOffset extends Offset {
    private final String json;
    private final transient io.sluice.api.Offset sluice;

    SparkOffset(io.sluice.api.Offset sluice) {
        this.json = sluice.json();
        this.sluice = sluice;
    }

    static SparkOffset wrap(io.sluice.api.Offset sluice) {
        return sluice == null ? null : new SparkOffset(sluice);
    }

    @Override
    public String json() {
        return json;
    }

    /** The Sluice offset, or null when this one was deserialized by Spark. */
    io.sluice.api.Offset sluice() {
        return sluice;
    }
}
