package io.sluice.kafka;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The Kafka sink's options, checked as Spark checks them ({@code KafkaSourceProvider.kafkaParamsForProducer}),
 * plus Sluice's exactly-once options. Values of {@code kafka.*} options are never put in a message: they may be
 * secrets.
 *
 * @param topic                 the {@code topic} option (trimmed), or empty when rows name their topic
 * @param producerParams        the {@code kafka.*} options without the prefix, with the byte-array serializers
 * @param exactlyOnce           whether each batch is one Kafka transaction with its batch id
 * @param transactionalIdPrefix the {@code transactionalIdPrefix} option, or empty for the default
 */
record KafkaSinkOptions(Optional<String> topic, Map<String, Object> producerParams, boolean exactlyOnce,
                        Optional<String> transactionalIdPrefix) {

    static final String TOPIC = "topic";
    static final String EXACTLY_ONCE = "exactlyOnce";
    static final String TRANSACTIONAL_ID_PREFIX = "transactionalIdPrefix";
    private static final String PREFIX = "kafka.";

    /**
     * Parses and checks every option.
     *
     * @throws InvalidOptionException naming the first bad option
     */
    static KafkaSinkOptions parse(Options options) {
        Map<String, String> kafka = options.withPrefix(PREFIX);
        Map<String, String> byLower = new HashMap<>();
        kafka.forEach((k, v) -> byLower.put(k.toLowerCase(Locale.ROOT), v));
        if (byLower.containsKey(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG)) {
            throw refused(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, "Kafka option '"
                    + ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG
                    + "' is not supported as keys are serialized with ByteArraySerializer.");
        }
        if (byLower.containsKey(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG)) {
            // Spark's wording, "value are", kept as is.
            throw refused(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, "Kafka option '"
                    + ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG
                    + "' is not supported as value are serialized with ByteArraySerializer.");
        }
        if (byLower.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
            throw refused(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "Kafka option '"
                    + ProducerConfig.TRANSACTIONAL_ID_CONFIG + "' is not supported: the sink runs its own "
                    + "transactions. Set the sink option '" + EXACTLY_ONCE + "' to true (and optionally '"
                    + TRANSACTIONAL_ID_PREFIX + "') to write each batch in one Kafka transaction.");
        }
        String servers = byLower.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        if (servers == null || servers.isBlank()) {
            throw new InvalidOptionException(PREFIX + ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
                    "Option 'kafka." + ProducerConfig.BOOTSTRAP_SERVERS_CONFIG
                            + "' must be specified for configuring Kafka producer", true);
        }
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
            String idempotence = byLower.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
            if (idempotence != null && !idempotence.trim().equalsIgnoreCase("true")) {
                throw new InvalidOptionException(PREFIX + ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotence,
                        "with " + EXACTLY_ONCE + "=true only true is accepted: Kafka transactions need the "
                                + "idempotent producer");
            }
            String acks = byLower.get(ProducerConfig.ACKS_CONFIG);
            if (acks != null && !acks.trim().equalsIgnoreCase("all") && !acks.trim().equals("-1")) {
                throw new InvalidOptionException(PREFIX + ProducerConfig.ACKS_CONFIG, acks,
                        "with " + EXACTLY_ONCE + "=true only all (or -1) is accepted: Kafka transactions need "
                                + "the idempotent producer");
            }
        }
        // Kafka's own keys are lower-case; options are case-insensitive, so kafka.Acks means acks.
        Map<String, Object> params = new HashMap<>(byLower);
        params.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        params.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaSinkOptions(topic, Map.copyOf(params), exactlyOnce, prefix.map(String::trim));
    }

    private static InvalidOptionException refused(String kafkaKey, String message) {
        return new InvalidOptionException(PREFIX + kafkaKey, null, message, true);
    }
}
