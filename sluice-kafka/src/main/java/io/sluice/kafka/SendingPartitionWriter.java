package io.sluice.kafka;

import io.sluice.api.Row;
import io.sluice.api.sink.PartitionWriter;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends one partition's rows through a producer shared by the batch's writers. Sends are asynchronous; the first
 * failure a callback reports fails the next {@link #write} or {@link #commit()}, as in Spark's KafkaRowWriter.
 * The commit result is the number of records sent (a {@code Long}).
 */
final class SendingPartitionWriter implements PartitionWriter {
    private final Producer<byte[], byte[]> producer;
    private final KafkaRecordConverter converter;
    private final boolean flushOnCommit;
    private final AtomicReference<String> firstTopic;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Callback callback = (metadata, e) -> {
        if (e != null) {
            failure.compareAndSet(null, e);
        }
    };
    private long sent;

    /**
     * @param flushOnCommit wait for every send to be acknowledged in {@link #commit()} (at-least-once); a
     *                      transaction's commit waits for them instead
     * @param firstTopic    set to the topic of the first record the batch sends, if still unset
     */
    SendingPartitionWriter(Producer<byte[], byte[]> producer, KafkaRecordConverter converter, boolean flushOnCommit,
                           AtomicReference<String> firstTopic) {
        this.producer = producer;
        this.converter = converter;
        this.flushOnCommit = flushOnCommit;
        this.firstTopic = firstTopic;
    }

    @Override
    public void write(Row row) throws Exception {
        checkForErrors();
        ProducerRecord<byte[], byte[]> record = converter.toRecord(row);
        if (sent == 0 && firstTopic.get() == null) {
            firstTopic.compareAndSet(null, record.topic());
        }
        producer.send(record, callback);
        sent++;
    }

    @Override
    public Object commit() throws Exception {
        if (flushOnCommit) {
            producer.flush();
        }
        checkForErrors();
        return sent;
    }

    private void checkForErrors() throws Exception {
        Exception e = failure.get();
        if (e != null) {
            throw e;
        }
    }
}
