package io.sluice.kafka;

import io.sluice.api.Row;
import io.sluice.api.source.PartitionReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Reads offsets {@code [from, until)} of one partition with a pooled consumer. Gaps (transaction markers, aborted
 * records under read_committed, compaction) are skipped silently; offsets deleted by retention are data loss.
 */
final class KafkaPartitionReader implements PartitionReader {
    private static final Integer[] TIMESTAMP_TYPES = {-1, 0, 1};
    private final KafkaInputPartition range;
    private final ConsumerPool pool;
    private final DataLoss dataLoss;
    private final long pollTimeoutMs;
    private final boolean includeHeaders;
    private final String groupId;
    private final Map<TopicPartition, long[]> firstUnread;
    private final io.sluice.api.SluiceClock clock;
    private final io.sluice.api.source.PushDown pushDown;
    private final boolean buildHeaders;
    private final String topic;
    private final Integer partition;
    private ConsumerPool.Pooled consumer;
    private long nextOffset;
    private boolean done;
    private Row current;
    private long lastTimestamp = Long.MIN_VALUE;
    private Instant lastInstant;

    KafkaPartitionReader(KafkaInputPartition range, ConsumerPool pool, DataLoss dataLoss, long pollTimeoutMs,
                         boolean includeHeaders, String groupId, Map<TopicPartition, long[]> firstUnread,
                         io.sluice.api.SluiceClock clock, io.sluice.api.source.PushDown pushDown) {
        this.clock = clock;
        this.pushDown = pushDown;
        this.buildHeaders = pushDown.requires("headers");
        this.firstUnread = firstUnread;
        this.range = range;
        this.pool = pool;
        this.dataLoss = dataLoss;
        this.pollTimeoutMs = pollTimeoutMs;
        this.includeHeaders = includeHeaders;
        this.groupId = groupId;
        TopicPartition tp = range.topicPartition();
        this.topic = tp.topic();
        this.partition = tp.partition();
        this.nextOffset = range.fromOffset();
        this.done = range.fromOffset() >= range.untilOffset();
    }

    /**
     * @throws java.io.InterruptedIOException when the stream was stopped (its consumers woken up) during the read
     */
    @Override
    public boolean next() throws java.io.IOException {
        try {
            return advance();
        } catch (WakeupException e) {
            throw new java.io.InterruptedIOException("The Kafka source was stopped while reading "
                    + range.topicPartition());
        }
    }

    private boolean advance() throws java.io.IOException {
        if (done) {
            current = null;
            return false;
        }
        if (consumer == null) {
            consumer = pool.acquire(range.topicPartition());
            consumer.seek(nextOffset);
        }
        ConsumerPool.Pooled c = consumer;
        long waitedSince = Long.MIN_VALUE;
        while (true) {
            if (c.index < c.buffer.size()) {
                ConsumerRecord<byte[], byte[]> r = c.buffer.get(c.index);
                long off = r.offset();
                if (off < nextOffset) {
                    c.index++;
                    continue;
                }
                if (off >= range.untilOffset()) {
                    // Stays buffered for the batch that starts here.
                    c.nextOffset = off;
                    firstUnread.put(range.topicPartition(), new long[] {off, r.timestamp()});
                    return finish();
                }
                c.index++;
                c.nextOffset = off + 1;
                c.coveredFrom = off + 1;
                nextOffset = off + 1;
                if (!KafkaPushDown.matches(pushDown, r)) {
                    continue;
                }
                current = toRow(r);
                return true;
            }
            if (nextOffset >= range.untilOffset()) {
                return finish();
            }
            fetch(c);
            if (c.index >= c.buffer.size()) {
                // No record came back: the position may still have moved past markers or aborted records.
                long position = c.consumer.position(range.topicPartition());
                if (position > nextOffset) {
                    c.nextOffset = position;
                    nextOffset = position;
                    waitedSince = Long.MIN_VALUE;
                    continue;
                }
                long now = clock.millis();
                if (waitedSince == Long.MIN_VALUE) {
                    waitedSince = now;
                } else if (now - waitedSince >= pollTimeoutMs) {
                    if (!skipLostOffsets(c)) {
                        throw new java.io.IOException(new TimeoutException("Cannot fetch record for offset "
                                + nextOffset + " in " + pollTimeoutMs + " milliseconds"));
                    }
                    waitedSince = Long.MIN_VALUE;
                }
            } else {
                waitedSince = Long.MIN_VALUE;
            }
        }
    }

    private void fetch(ConsumerPool.Pooled c) {
        try {
            // Short polls: a poll that only skips markers or aborted records returns nothing until its timeout.
            ConsumerRecords<byte[], byte[]> polled = c.consumer.poll(Duration.ofMillis(Math.min(pollTimeoutMs, 100)));
            c.buffer = polled.records(range.topicPartition());
            c.index = 0;
        } catch (OffsetOutOfRangeException e) {
            c.buffer = List.of();
            c.index = 0;
            if (!skipLostOffsets(c)) {
                throw e;
            }
        }
    }

    /** True when offsets from nextOffset on are gone (retention): reported, then the read moves to the earliest. */
    private boolean skipLostOffsets(ConsumerPool.Pooled c) {
        TopicPartition tp = range.topicPartition();
        Map<TopicPartition, Long> earliest = c.consumer.beginningOffsets(List.of(tp));
        long first = earliest.getOrDefault(tp, nextOffset);
        if (first <= nextOffset) {
            return false;
        }
        dataLoss.report("Cannot fetch offset " + nextOffset + " (GroupId: " + groupId + ", TopicPartition: " + tp
                + "). The earliest offset available is " + first);
        long to = Math.min(first, range.untilOffset());
        c.buffer = List.of();
        c.index = 0;
        c.consumer.seek(tp, to);
        c.nextOffset = to;
        c.coveredFrom = to;
        nextOffset = to;
        return true;
    }

    private boolean finish() {
        done = true;
        current = null;
        ConsumerPool.Pooled c = consumer;
        consumer = null;
        if (c != null) {
            pool.release(c);
        }
        return false;
    }

    private Row toRow(ConsumerRecord<byte[], byte[]> r) {
        long ts = r.timestamp();
        if (ts != lastTimestamp) {
            lastTimestamp = ts;
            lastInstant = Instant.ofEpochMilli(ts);
        }
        int type = r.timestampType().id;
        Integer typeBox = type >= -1 && type <= 1 ? TIMESTAMP_TYPES[type + 1] : type;
        if (!includeHeaders) {
            return Row.wrap(new Object[] {r.key(), r.value(), topic, partition, r.offset(), lastInstant, typeBox});
        }
        return Row.wrap(new Object[] {r.key(), r.value(), topic, partition, r.offset(), lastInstant, typeBox,
                buildHeaders ? headers(r.headers()) : null});
    }

    /** Null, not empty, when the record has no headers, as in Spark. */
    private static List<Row> headers(Headers headers) {
        Header[] all = headers.toArray();
        if (all.length == 0) {
            return null;
        }
        List<Row> out = new ArrayList<>(all.length);
        for (Header h : all) {
            out.add(Row.of(h.key(), h.value()));
        }
        return out;
    }

    @Override
    public Row get() {
        return current;
    }

    @Override
    public void close() {
        ConsumerPool.Pooled c = consumer;
        consumer = null;
        if (c != null) {
            // Stopped mid-range or failed: its position is unknown to the next batch, so it is not reused.
            pool.discard(c);
        }
    }
}
