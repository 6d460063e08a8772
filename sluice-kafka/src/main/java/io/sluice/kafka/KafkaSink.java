package io.sluice.kafka;

import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The at-least-once Kafka sink, Spark's semantics: every partition writer sends its rows through one producer
 * shared by the run and waits for their acknowledgement before it commits. A batch re-run after a crash is sent
 * again, so readers may see its records twice.
 */
final class KafkaSink implements Sink {
    private final KafkaSinkOptions options;
    private final Map<String, Object> producerParams;
    private final KafkaRecordConverter converter;
    private Producer<byte[], byte[]> producer;

    KafkaSink(KafkaSinkOptions options, KafkaRecordConverter converter) {
        this.options = options;
        this.producerParams = options.producerParams();
        this.converter = converter;
    }

    @Override
    public BatchWriter beginBatch(long batchId) {
        Producer<byte[], byte[]> p = producer();
        AtomicReference<String> firstTopic = new AtomicReference<>();
        return new BatchWriter() {
            private long rows = -1;

            @Override
            public PartitionWriter partitionWriter(int partitionId) {
                return new SendingPartitionWriter(p, converter, true, firstTopic);
            }

            @Override
            public void commit(List<Object> partitionResults) {
                rows = partitionResults.stream().mapToLong(r -> (Long) r).sum();
            }

            @Override
            public long numOutputRows() {
                return rows;
            }
        };
    }

    // Created on the query thread at the first batch, so that start() does not wait for the cluster; only once the
    // brokers answer, as the producer's own time-out cannot tell unreachable brokers from a missing topic.
    private synchronized Producer<byte[], byte[]> producer() {
        if (producer == null) {
            KafkaClientOptions.awaitBrokers(options.adminParams(), options.target());
            producer = new KafkaProducer<>(producerParams);
        }
        return producer;
    }

    @Override
    public String description() {
        return "KafkaSink";
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            // Every committed batch was flushed by its writers: what is still buffered belongs to a batch that failed
            // or was stopped and will be sent again, so it is not waited for (brokers may be gone).
            producer.close(Duration.ZERO);
            producer = null;
        }
    }
}
