package io.sluice.kafka;

import org.apache.kafka.common.TopicPartition;

import java.util.Map;

/** Where a range starts or ends, as an option asks: Spark's {@code KafkaOffsetRangeLimit} family. */
sealed interface StartSpec {
    long EARLIEST = -2L;
    long LATEST = -1L;

    /** {@code earliest}. */
    record Earliest() implements StartSpec {
    }

    /** {@code latest}. */
    record Latest() implements StartSpec {
    }

    /** A JSON of offsets per partition; -2 earliest, -1 latest. */
    record Specific(Map<TopicPartition, Long> offsets) implements StartSpec {
    }

    /** A JSON of timestamps per partition ({@code ...OffsetsByTimestamp}). */
    record PerPartitionTimestamp(Map<TopicPartition, Long> timestamps) implements StartSpec {
    }

    /** One timestamp for every partition ({@code startingTimestamp}, {@code endingTimestamp}). */
    record GlobalTimestamp(long timestamp) implements StartSpec {
    }
}
