package io.sluice.kafka;

import io.sluice.core.ManualClock;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsumerPoolTest extends KafkaTestBase {

    private ConsumerPool pool(int capacity, long idleTimeoutMs, ManualClock clock) {
        return new ConsumerPool(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), capacity, idleTimeoutMs, clock);
    }

    @Test
    void aReleasedConsumerIsReusedForItsPartitionWithWhatItFetched() throws Exception {
        String t = createTopic("pool-reuse", 2);
        sendRange(t, 0, 0, 5);
        TopicPartition p0 = new TopicPartition(t, 0);
        try (ConsumerPool pool = pool(4, 60_000, new ManualClock(0))) {
            ConsumerPool.Pooled first = pool.acquire(p0);
            first.seek(0);
            assertThat(first.consumer.assignment()).containsExactly(p0);
            first.nextOffset = 3;
            first.coveredFrom = 3;
            pool.release(first);
            assertThat(pool.idleCount()).isEqualTo(1);

            ConsumerPool.Pooled again = pool.acquire(p0);
            assertThat(again).isSameAs(first);
            again.seek(3);
            assertThat(again.nextOffset).as("no seek when already there").isEqualTo(3);
            ConsumerPool.Pooled other = pool.acquire(new TopicPartition(t, 1));
            assertThat(other).isNotSameAs(first);
            assertThat(pool.created()).isEqualTo(2);
            pool.release(again);
            pool.release(other);
        }
    }

    @Test
    void idleConsumersBeyondTheCapacityOrOlderThanTheTimeoutAreClosed() throws Exception {
        String t = createTopic("pool-evict", 3);
        ManualClock clock = new ManualClock(1_000);
        try (ConsumerPool pool = pool(2, 10_000, clock)) {
            ConsumerPool.Pooled a = pool.acquire(new TopicPartition(t, 0));
            ConsumerPool.Pooled b = pool.acquire(new TopicPartition(t, 1));
            ConsumerPool.Pooled c = pool.acquire(new TopicPartition(t, 2));
            pool.release(a);
            clock.advance(1);
            pool.release(b);
            clock.advance(1);
            pool.release(c);
            // The capacity is 2: the least recently used (a) was closed, so its partition gets a new consumer.
            assertThat(pool.idleCount()).isEqualTo(2);
            ConsumerPool.Pooled a2 = pool.acquire(new TopicPartition(t, 0));
            assertThat(a2).isNotSameAs(a);
            assertThat(pool.created()).isEqualTo(4);
            a2.close();

            // b and c have been idle 10 s: the next acquire closes them, and their partitions get new consumers.
            clock.advance(10_000);
            ConsumerPool.Pooled b2 = pool.acquire(new TopicPartition(t, 1));
            assertThat(b2).isNotSameAs(b);
            assertThat(pool.idleCount()).isZero();
            assertThat(pool.created()).isEqualTo(5);
            pool.release(b2);
        }
    }

    @Test
    void aClosedPoolRefusesToLendAndClosesWhatComesBack() throws Exception {
        String t = createTopic("pool-closed", 1);
        ConsumerPool pool = pool(2, 10_000, new ManualClock(0));
        ConsumerPool.Pooled a = pool.acquire(new TopicPartition(t, 0));
        pool.close();
        pool.release(a);
        assertThat(pool.idleCount()).isZero();
        assertThatThrownBy(() -> pool.acquire(new TopicPartition(t, 0)))
                .isInstanceOf(IllegalStateException.class).hasMessage("The consumer pool is closed");
    }
}
