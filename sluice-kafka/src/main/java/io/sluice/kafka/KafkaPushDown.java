package io.sluice.kafka;

import io.sluice.api.source.ColumnFilter;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.SupportsPushDown;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the Kafka source does with a read's push-down ({@link SupportsPushDown}). Filters on {@code key},
 * {@code value}, {@code topic}, {@code partition}, {@code offset}, {@code timestamp} and {@code timestampType} are
 * exact: each reader tests every record before it builds a row. Planning also uses them to read less, where
 * that is exact: a topic-partition no row of which can match (a filter on {@code topic} and {@code partition}
 * alone) is not read at all, and comparisons on {@code offset} shrink each range. Headers are not built when the
 * read does not require them.
 */
final class KafkaPushDown {
    private static final Set<String> FILTERABLE = Set.of("key", "value", "topic", "partition", "offset",
            "timestamp", "timestampType");
    private static final Set<String> PER_PARTITION = Set.of("topic", "partition");

    private KafkaPushDown() {
    }

    static SupportsPushDown.FilterUse use(ColumnFilter filter) {
        return FILTERABLE.containsAll(filter.columns()) ? SupportsPushDown.FilterUse.EXACT
                : SupportsPushDown.FilterUse.UNUSED;
    }

    /** Whether the record matches the read's filters, tested on the record itself (no row is built). */
    static boolean matches(PushDown pushDown, ConsumerRecord<byte[], byte[]> r) {
        return pushDown.filters().isEmpty() || pushDown.test(column -> switch (column) {
            case "key" -> r.key();
            case "value" -> r.value();
            case "topic" -> r.topic();
            case "partition" -> r.partition();
            case "offset" -> r.offset();
            case "timestamp" -> Instant.ofEpochMilli(r.timestamp());
            case "timestampType" -> r.timestampType().id;
            default -> throw new IllegalArgumentException("Not a filterable Kafka column: " + column);
        });
    }

    /** The ranges that can hold matching records, each cut to the offsets the filters admit. */
    static List<KafkaInputPartition> narrow(List<KafkaInputPartition> ranges, PushDown pushDown) {
        if (pushDown.filters().isEmpty()) {
            return ranges;
        }
        List<KafkaInputPartition> out = new ArrayList<>(ranges.size());
        for (KafkaInputPartition r : ranges) {
            long from = r.fromOffset();
            long until = r.untilOffset();
            boolean possible = true;
            for (ColumnFilter f : pushDown.filters()) {
                if (PER_PARTITION.containsAll(f.columns())) {
                    possible &= f.test(c -> c.equals("topic") ? r.topicPartition().topic()
                            : r.topicPartition().partition());
                } else if (f instanceof ColumnFilter.Compare c && c.column().equals("offset")) {
                    long v = ((Number) c.value()).longValue();
                    long after = v == Long.MAX_VALUE ? v : v + 1; // the largest stays: no range reaches it
                    switch (c.op()) {
                        case EQUAL_TO -> {
                            from = Math.max(from, v);
                            until = Math.min(until, after);
                        }
                        case GREATER_THAN -> from = Math.max(from, after);
                        case GREATER_THAN_OR_EQUAL -> from = Math.max(from, v);
                        case LESS_THAN -> until = Math.min(until, v);
                        case LESS_THAN_OR_EQUAL -> until = Math.min(until, after);
                    }
                }
            }
            if (possible && from < until) {
                out.add(new KafkaInputPartition(r.topicPartition(), from, until));
            }
        }
        return out;
    }
}
