package io.sluice.kafka;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Kafka sink's options, checked as Spark checks them ({@code KafkaSourceProvider.kafkaParamsForProducer}),
 * plus Sluice's exactly-once options. Secret values of {@code kafka.*} options are never put in a message (see
 * {@link KafkaClientOptions}).
 *
 * @param topic                 the {@code topic} option (trimmed), or empty when rows name their topic
 * @param producerParams        the {@code kafka.*} options without the prefix, with the byte-array serializers
 * @param exactlyOnce           whether each batch is one Kafka transaction with its batch id
 * @param transactionalIdPrefix the {@code transactionalIdPrefix} option, or empty for the default
 * @param target                the brokers and the bound on blocking producer calls ({@code kafka.max.block.ms},
 *                              default 30 s), also the bound on the first contact with the brokers
 */
record KafkaSinkOptions(Optional<String> topic, Map<String, Object> producerParams, boolean exactlyOnce,
                        Optional<String> transactionalIdPrefix, KafkaCalls.Target target) {

    static final String TOPIC = "topic";
    static final String EXACTLY_ONCE = "exactlyOnce";
    static final String TRANSACTIONAL_ID_PREFIX = "transactionalIdPrefix";
    private static final String PREFIX = KafkaClientOptions.PREFIX;
    /** The producer settings the sink owns, each with its explanation (Spark's for the serializers). */
    private static final Map<String, String> PRODUCER_REFUSED = KafkaClientOptions.refusals(
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, "Kafka option '" + ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG
                    + "' is not supported as keys are serialized with ByteArraySerializer.",
            // Spark's wording, "value are", kept as is.
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, "Kafka option '"
                    + ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG
                    + "' is not supported as value are serialized with ByteArraySerializer.",
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, "Kafka option '" + ProducerConfig.TRANSACTIONAL_ID_CONFIG
                    + "' is not supported: the sink runs its own transactions. Set the sink option '" + EXACTLY_ONCE
                    + "' to true (and optionally '" + TRANSACTIONAL_ID_PREFIX + "') to write each batch in one Kafka"
                    + " transaction.");

    /**
     * Parses and checks every option.
     *
     * @throws InvalidOptionException naming the first bad option
     */
    static KafkaSinkOptions parse(Options options) {
        KafkaClientOptions.refuse(options, PRODUCER_REFUSED);
        KafkaClientOptions.requireBootstrap(options, "producer");
        Map<String, Object> client = KafkaClientOptions.clientParams(options);
        Optional<String> topic = options.get(TOPIC).map(String::trim);
        if (topic.isPresent() && topic.get().isEmpty()) {
            throw new InvalidOptionException(TOPIC, options.get(TOPIC).get(),
                    "a topic name is accepted (or leave the option out and give each row a 'topic' column)");
        }
        boolean exactlyOnce = options.getBoolean(EXACTLY_ONCE, false);
        Optional<String> prefix = options.get(TRANSACTIONAL_ID_PREFIX);
        if (prefix.isPresent()) {
            if (!exactlyOnce) {
                throw new InvalidOptionException(TRANSACTIONAL_ID_PREFIX, prefix.get(),
                        "Option '" + TRANSACTIONAL_ID_PREFIX + "' only applies when '" + EXACTLY_ONCE
                                + "' is true", true);
            }
            if (prefix.get().isBlank()) {
                throw new InvalidOptionException(TRANSACTIONAL_ID_PREFIX, prefix.get(),
                        "a non-empty transactional id prefix is accepted");
            }
        }
        if (exactlyOnce) {
            // Transactions need the idempotent producer, which needs acks=all: refuse a contradiction here rather
            // than let the producer fail on the query thread.
            String idempotence = (String) client.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
            if (idempotence != null && !idempotence.trim().equalsIgnoreCase("true")) {
                throw new InvalidOptionException(PREFIX + ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotence,
                        "with " + EXACTLY_ONCE + "=true only true is accepted: Kafka transactions need the "
                                + "idempotent producer");
            }
            String acks = (String) client.get(ProducerConfig.ACKS_CONFIG);
            if (acks != null && !acks.trim().equalsIgnoreCase("all") && !acks.trim().equals("-1")) {
                throw new InvalidOptionException(PREFIX + ProducerConfig.ACKS_CONFIG, acks,
                        "with " + EXACTLY_ONCE + "=true only all (or -1) is accepted: Kafka transactions need "
                                + "the idempotent producer");
            }
        }
        long maxBlockMs = KafkaClientOptions.timeoutMs(options, KafkaClientOptions.MAX_BLOCK);
        Map<String, Object> params = new HashMap<>(client);
        params.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        params.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        // Bounds a send waiting for metadata or buffer space and every transaction step (Kafka's default is 60 s).
        params.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, maxBlockMs);
        return new KafkaSinkOptions(topic, Map.copyOf(params), exactlyOnce, prefix.map(String::trim),
                KafkaClientOptions.target(client, maxBlockMs, KafkaClientOptions.MAX_BLOCK));
    }

    /** The Admin client's settings: the producer's that an Admin client knows. */
    Map<String, Object> adminParams() {
        return KafkaClientOptions.adminParams(producerParams);
    }
}
