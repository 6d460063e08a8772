package io.sluice.kafka;

import io.sluice.api.SluiceClock;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Consumers kept between batches, one per topic-partition reader: assigned (never subscribed, so no group
 * rebalancing), reused by the next batch on the same partition with whatever they already fetched. The capacity is
 * soft (Spark's pool too): when more readers run at once, more consumers exist, and idle ones beyond the capacity,
 * or idle longer than the timeout, are closed.
 */
final class ConsumerPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerPool.class);
    private final Map<String, Object> params;
    private final int capacity;
    private final long idleTimeoutMs;
    private final SluiceClock clock;
    private final Map<TopicPartition, Deque<Pooled>> idle = new HashMap<>();
    /** Consumers lent out and not yet back: {@link #close()} wakes them up. */
    private final Set<Pooled> lent = new HashSet<>();
    private int idleCount;
    private int created;
    private boolean closed;

    ConsumerPool(Map<String, Object> params, int capacity, long idleTimeoutMs, SluiceClock clock) {
        this.params = params;
        this.capacity = capacity;
        this.idleTimeoutMs = idleTimeoutMs;
        this.clock = clock;
    }

    /** A consumer assigned to {@code tp}: an idle one (most recently used first) or a new one. */
    Pooled acquire(TopicPartition tp) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("The consumer pool is closed");
            }
            evictExpired();
            Deque<Pooled> q = idle.get(tp);
            if (q != null && !q.isEmpty()) {
                idleCount--;
                Pooled p = q.pollFirst();
                lent.add(p);
                return p;
            }
            created++;
        }
        KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(params, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        c.assign(List.of(tp));
        Pooled p = new Pooled(tp, c);
        boolean closedMeanwhile;
        synchronized (this) {
            closedMeanwhile = closed;
            if (!closedMeanwhile) {
                lent.add(p);
            }
        }
        if (closedMeanwhile) {
            p.close();
            throw new IllegalStateException("The consumer pool is closed");
        }
        return p;
    }

    /** Gives a consumer back after a clean read; one that failed must be {@link #discard}ed instead. */
    void release(Pooled p) {
        List<Pooled> toClose = new ArrayList<>();
        synchronized (this) {
            lent.remove(p);
            if (closed) {
                toClose.add(p);
            } else {
                p.lastUsed = clock.millis();
                idle.computeIfAbsent(p.tp, k -> new ArrayDeque<>()).addFirst(p);
                idleCount++;
                while (idleCount > capacity) {
                    Pooled oldest = oldestIdle();
                    idle.get(oldest.tp).remove(oldest);
                    idleCount--;
                    toClose.add(oldest);
                }
            }
        }
        toClose.forEach(Pooled::close);
    }

    void discard(Pooled p) {
        synchronized (this) {
            lent.remove(p);
        }
        p.close();
    }

    synchronized int idleCount() {
        return idleCount;
    }

    synchronized int created() {
        return created;
    }

    private Pooled oldestIdle() {
        Pooled oldest = null;
        for (Deque<Pooled> q : idle.values()) {
            for (Pooled p : q) {
                if (oldest == null || p.lastUsed < oldest.lastUsed) {
                    oldest = p;
                }
            }
        }
        return oldest;
    }

    private void evictExpired() {
        long now = clock.millis();
        for (Deque<Pooled> q : idle.values()) {
            for (Iterator<Pooled> it = q.iterator(); it.hasNext(); ) {
                Pooled p = it.next();
                if (now - p.lastUsed >= idleTimeoutMs) {
                    it.remove();
                    idleCount--;
                    p.close();
                }
            }
        }
    }

    /**
     * Closes the idle consumers and wakes up the lent ones (safe from any thread): a poll or look-up in progress
     * ends with a {@link org.apache.kafka.common.errors.WakeupException}, and the consumer is closed when it comes
     * back.
     */
    @Override
    public void close() {
        List<Pooled> all = new ArrayList<>();
        List<Pooled> busy;
        synchronized (this) {
            closed = true;
            idle.values().forEach(all::addAll);
            idle.clear();
            idleCount = 0;
            busy = List.copyOf(lent);
        }
        busy.forEach(p -> p.consumer.wakeup());
        all.forEach(Pooled::close);
    }

    /**
     * One consumer and the records it fetched but not yet handed out: {@code nextOffset} is where it stands, so a
     * batch starting there continues without a seek (keeping the prefetched data).
     */
    static final class Pooled {
        final TopicPartition tp;
        final KafkaConsumer<byte[], byte[]> consumer;
        List<ConsumerRecord<byte[], byte[]>> buffer = List.of();
        int index;
        long nextOffset = -1;
        /** No record exists in {@code [coveredFrom, nextOffset)}: a start anywhere in it needs no seek. */
        long coveredFrom = -1;
        long lastUsed;

        Pooled(TopicPartition tp, KafkaConsumer<byte[], byte[]> consumer) {
            this.tp = tp;
            this.consumer = consumer;
        }

        /** Positions at {@code offset}, keeping fetched data when already there. */
        void seek(long offset) {
            if (offset < coveredFrom || offset > nextOffset) {
                buffer = List.of();
                index = 0;
                consumer.seek(tp, offset);
                nextOffset = offset;
                coveredFrom = offset;
            }
        }

        void close() {
            try {
                // Nothing to flush: these consumers never commit (offsets live in the checkpoint, and the optional
                // group commit goes through the Admin client). Waiting would only wait out an in-flight fetch that
                // the broker holds up to fetch.max.wait.ms (500 ms) at the end of the data, once per consumer.
                consumer.close(Duration.ZERO);
            } catch (RuntimeException e) {
                LOG.debug("Closing consumer for {} failed", tp, e);
            }
        }
    }
}
