package io.sluice.kafka;

import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The exactly-once Kafka sink: batch N is one Kafka transaction of one transactional producer
 * ({@code transactional.id = <prefix>-0}), and the same transaction commits a marker, the offset N with metadata
 * {@code sluice:<queryId>:<N>:<digest>} ({@link BatchInfo#digest()}), to the consumer group {@code <prefix>} (for
 * partition 0 of the batch's topic). Data and marker become visible together or not at all.
 *
 * <p>On the first batch of a run the producer's {@code initTransactions} fences any earlier writer with the same
 * transactional id (a zombie of a killed run) and aborts or completes its open transaction; the marker is then
 * read. The batch with the marker's id and digest (the engine re-runs a batch whose transaction committed but
 * whose {@code commits/N} was not written) is skipped: its rows are dropped. The marker's id with another digest,
 * or an older id, is a checkpoint restored from an older copy than the topic: the query fails
 * ({@link BatchInfo#rangeConflict}) rather than drop rows that were never written. A marker without a digest
 * (written before digests were recorded) is trusted for its batch id. Readers must use
 * {@code isolation.level=read_committed} to see each record once.
 *
 * <p>All partition writers of a batch share the one producer, so the batch commits atomically; the cost is that
 * the commit of a batch waits for every partition's records (no per-partition commit).
 */
final class TransactionalKafkaSink implements Sink {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionalKafkaSink.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> producerParams;
    private final Map<String, Object> adminParams;
    private final KafkaCalls.Target target;
    private final KafkaRecordConverter converter;
    private final String queryId;
    private final String markerGroup;
    private final String fixedTopic;
    // Used on the query thread only (beginBatch, commit, abort and close).
    private Producer<byte[], byte[]> producer;
    private boolean inTransaction;
    private long lastCommittedBatch = -1;
    /** The digest in the marker of {@code lastCommittedBatch}; empty when the marker has none. */
    private String lastDigest = "";

    TransactionalKafkaSink(KafkaSinkOptions options, KafkaRecordConverter converter, String queryId) {
        this.converter = converter;
        this.queryId = queryId;
        this.markerGroup = options.transactionalIdPrefix().orElse(defaultPrefix(queryId));
        this.fixedTopic = options.topic().orElse(null);
        Map<String, Object> params = new HashMap<>(options.producerParams());
        params.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(markerGroup));
        this.producerParams = Map.copyOf(params);
        this.adminParams = Map.copyOf(options.adminParams());
        this.target = options.target();
    }

    /** {@code sluice-<queryId>}: the default transactionalIdPrefix. */
    static String defaultPrefix(String queryId) {
        return "sluice-" + queryId;
    }

    /** The producer's transactional id for a prefix. */
    static String transactionalId(String prefix) {
        return prefix + "-0";
    }

    /**
     * The marker's metadata for a batch: the query id guards against another query that reused the prefix, the
     * digest against a restored checkpoint that plans the batch id again.
     */
    static String marker(String queryId, long batchId, String digest) {
        return "sluice:" + queryId + ":" + batchId + (digest.isEmpty() ? "" : ":" + digest);
    }

    @Override
    public BatchWriter beginBatch(long batchId) {
        return beginBatch(BatchInfo.unknown(queryId, batchId));
    }

    @Override
    public BatchWriter beginBatch(BatchInfo info) {
        long batchId = info.batchId();
        Producer<byte[], byte[]> p = producer();
        if (batchId <= lastCommittedBatch) {
            checkRerun(info);
            LOG.info("Batch {} is already in Kafka (committed in a transaction of {} before a restart): skipping "
                    + "its rows", batchId, transactionalId(markerGroup));
            return BatchWriter.discarding(0);
        }
        p.beginTransaction();
        inTransaction = true;
        AtomicReference<String> firstTopic = new AtomicReference<>(fixedTopic);
        return new BatchWriter() {
            private long rows = -1;

            @Override
            public PartitionWriter partitionWriter(int partitionId) {
                return new SendingPartitionWriter(p, converter, false, firstTopic);
            }

            @Override
            public void commit(List<Object> partitionResults) {
                String topic = firstTopic.get();
                if (topic != null) {
                    p.sendOffsetsToTransaction(Map.of(new TopicPartition(topic, 0),
                            new OffsetAndMetadata(batchId, marker(queryId, batchId, info.digest()))),
                            new ConsumerGroupMetadata(markerGroup));
                }
                // With no topic (no rows and no topic option) there is nothing a re-run could duplicate.
                p.commitTransaction();
                inTransaction = false;
                lastCommittedBatch = batchId;
                lastDigest = info.digest();
                rows = partitionResults.stream().mapToLong(r -> (Long) r).sum();
            }

            @Override
            public void abort(Throwable cause) {
                abortTransaction();
            }

            @Override
            public long numOutputRows() {
                return rows;
            }
        };
    }

    /**
     * A batch id the marker covers is skipped only as the re-run of the marker's own batch (same digest); any other
     * is a checkpoint restored from an older copy than the topic.
     */
    private void checkRerun(BatchInfo info) {
        if (!info.known()) {
            return;
        }
        String sink = "the exactly-once Kafka sink (marker in consumer group " + markerGroup + ")";
        String now = "digest " + info.digest() + " (" + info.range() + ")";
        String fresh = "a new topic";
        if (info.batchId() < lastCommittedBatch) {
            throw new IllegalStateException(info.rangeConflict(sink, "an older batch of a run that has committed "
                    + "batches up to " + lastCommittedBatch, now, fresh));
        }
        if (!lastDigest.isEmpty() && !lastDigest.equals(info.digest())) {
            throw new IllegalStateException(info.rangeConflict(sink, "digest " + lastDigest, now, fresh));
        }
    }

    private Producer<byte[], byte[]> producer() {
        if (producer == null) {
            // initTransactions would time out after max.block.ms too, but with a message about InitProducerId.
            KafkaClientOptions.awaitBrokers(adminParams, target);
            KafkaProducer<byte[], byte[]> p = KafkaCalls.create(() -> new KafkaProducer<>(producerParams), target);
            try {
                p.initTransactions();
                readMarker();
            } catch (RuntimeException e) {
                p.close(Duration.ZERO);
                throw e;
            }
            producer = p;
            LOG.info("Exactly-once Kafka sink: transactional id {}, last batch committed in Kafka: {}",
                    transactionalId(markerGroup), lastCommittedBatch);
        }
        return producer;
    }

    /** Sets the highest batch id this query committed through the marker group (or -1) and its digest. */
    private void readMarker() {
        Map<TopicPartition, OffsetAndMetadata> offsets;
        Admin admin = KafkaCalls.create(() -> Admin.create(adminParams), target);
        try {
            offsets = KafkaCalls.await(admin.listConsumerGroupOffsets(markerGroup, new ListConsumerGroupOffsetsOptions()
                    .requireStable(true).timeoutMs((int) target.timeoutMs())).partitionsToOffsetAndMetadata(),
                    target, "read the batch marker of consumer group " + markerGroup);
        } catch (ExecutionException e) {
            throw new KafkaException("Could not read the batch marker of consumer group " + markerGroup + ": "
                    + e.getCause(), e.getCause());
        } finally {
            admin.close(Duration.ZERO);
        }
        String prefix = "sluice:" + queryId + ":";
        long last = -1;
        String digest = "";
        for (OffsetAndMetadata o : offsets.values()) {
            if (o != null && o.metadata() != null && o.metadata().startsWith(prefix)) {
                String[] idAndDigest = o.metadata().substring(prefix.length()).split(":", 2);
                long id = Long.parseLong(idAndDigest[0]);
                if (id > last) {
                    last = id;
                    digest = idAndDigest.length > 1 ? idAndDigest[1] : "";
                }
            }
        }
        lastCommittedBatch = last;
        lastDigest = digest;
    }

    private void abortTransaction() {
        if (!inTransaction || producer == null) {
            return;
        }
        inTransaction = false;
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            // Fenced, or a commit whose outcome is unknown: this producer is done. The next one's
            // initTransactions settles the transaction and the marker says whether it committed.
            LOG.warn("Could not abort the Kafka transaction of {}: {}", transactionalId(markerGroup), e.toString());
            producer.close(Duration.ZERO);
            producer = null;
        }
    }

    @Override
    public String description() {
        return "KafkaSink[exactlyOnce]";
    }

    @Override
    public void close() {
        // An open transaction would hold back read_committed readers until it times out: abort it now.
        abortTransaction();
        if (producer != null) {
            producer.close(CLOSE_TIMEOUT);
            producer = null;
        }
    }
}
