package io.sluice.kafka;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Spark's {@code reportDataLoss}: with failOnDataLoss the query fails with the reason and Spark's advice; without,
 * the same reason is logged as a warning and counted (the {@code dataLoss} metric), and the read skips ahead.
 */
final class DataLoss {
    private static final Logger LOG = LoggerFactory.getLogger(DataLoss.class);
    private final boolean fail;
    private final AtomicLong count = new AtomicLong();

    DataLoss(boolean fail) {
        this.fail = fail;
    }

    /** @param reason without a final period */
    void report(String reason) {
        if (fail) {
            throw new KafkaDataLossException(reason + ". " + KafkaSourceOptions.DATA_LOSS_FAIL);
        }
        count.incrementAndGet();
        LOG.warn("{}. {}", reason, KafkaSourceOptions.DATA_LOSS_WARN);
    }

    long count() {
        return count.get();
    }

    /** The query's failure when data was lost and failOnDataLoss is true. */
    static final class KafkaDataLossException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        KafkaDataLossException(String message) {
            super(message);
        }
    }
}
