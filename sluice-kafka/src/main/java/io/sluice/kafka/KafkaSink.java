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
    private final Map<String, Object> producerParams;
    private final KafkaRecordConverter converter;
    private Producer<byte[], byte[]> producer;

    KafkaSink(KafkaSinkOptions options, KafkaRecordConverter converter) {
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

    // Created on the query thread at the first batch, so that start() does not wait for the cluster.
    private synchronized Producer<byte[], byte[]> producer() {
        if (producer == null) {
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
            producer.close(Duration.ofSeconds(30));
            producer = null;
        }
    }
}
