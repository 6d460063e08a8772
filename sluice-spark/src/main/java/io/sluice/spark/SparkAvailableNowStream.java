package io.sluice.spark;

import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SupportsTriggerAvailableNow;

/**
 * A stream whose Sluice source drains in several batches under availableNow. Streams without it reach Spark
 * without SupportsTriggerAvailableNow, so Spark applies its own one-batch wrapper, as Sluice's engine does.
 */
final class SparkAvailableNowStream extends SparkStream
        implements org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow {

    SparkAvailableNowStream(MicroBatchStream stream, ReadSpec spec) {
        super(stream, spec);
    }

    @Override
    public void prepareForTriggerAvailableNow() {
        ((SupportsTriggerAvailableNow) stream).prepareForTriggerAvailableNow();
    }
}
