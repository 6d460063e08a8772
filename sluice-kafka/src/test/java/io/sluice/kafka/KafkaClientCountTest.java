package io.sluice.kafka;

import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each Kafka client logs its whole configuration at INFO when it is created, so a query must create few: one Admin
 * for the query, and one consumer per partition, reused by every batch. Counted with a metrics reporter, which
 * every Kafka client instantiates and configures once, at its creation.
 */
class KafkaClientCountTest extends KafkaTestBase {

    /** Counts client creations; only this test's query uses it. */
    public static final class CountingReporter implements MetricsReporter {
        static final AtomicInteger ADMINS = new AtomicInteger();
        static final AtomicInteger CONSUMERS = new AtomicInteger();

        @Override
        public void configure(Map<String, ?> configs) {
            // A consumer's settings hold its deserializers; an Admin's do not.
            boolean consumer = configs.containsKey(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
            (consumer ? CONSUMERS : ADMINS).incrementAndGet();
        }

        @Override
        public void init(List<KafkaMetric> metrics) {
        }

        @Override
        public void metricChange(KafkaMetric metric) {
        }

        @Override
        public void metricRemoval(KafkaMetric metric) {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aQueryCreatesOneAdminAndOneConsumerPerPartitionWhateverTheNumberOfBatches() throws Exception {
        String t = createTopic("clients", 2);
        sendRange(t, 0, 0, 30);
        sendRange(t, 1, 0, 30);
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest")
                .option("maxOffsetsPerTrigger", "10")
                .option("kafka.metric.reporters", CountingReporter.class.getName())
                .load(), tmp.resolve("chk"), Trigger.availableNow());
        q.awaitTermination();

        assertThat(received()).hasSize(60);
        assertThat(q.recentProgress()).filteredOn(p -> p.numInputRows() > 0)
                .extracting(StreamingQueryProgress::numInputRows).containsExactly(10L, 10L, 10L, 10L, 10L, 10L);
        assertThat(CountingReporter.ADMINS).as("Admin clients").hasValue(1);
        assertThat(CountingReporter.CONSUMERS).as("consumers").hasValue(2);
    }
}
