package io.sluice.kafka;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

/**
 * The {@code kafka.}-prefixed options, shared by the source and the sink: they go to the Kafka client with the
 * prefix removed (security, SASL, TLS, isolation.level...). Client settings Sluice must own are refused, with
 * Spark's wording; secrets are masked wherever settings are shown.
 */
final class KafkaClientOptions {
    static final String PREFIX = "kafka.";
    static final String BOOTSTRAP = "kafka.bootstrap.servers";
    /** The source's bound on one client call (Admin look-ups, consumer position look-ups). */
    static final String DEFAULT_API_TIMEOUT = "kafka.default.api.timeout.ms";
    /** The sink's bound on a blocked send, a transaction step and the first contact with the brokers. */
    static final String MAX_BLOCK = "kafka.max.block.ms";
    static final String CUSTOM_GROUP_ID_WARNING = "Kafka option 'kafka.group.id' has been set on this query, it is"
            + " not recommended to set this option. This option is unsafe to use since multiple concurrent"
            + " queries or sources using the same group id will interfere with each other as they are part"
            + " of the same consumer group. Restarted queries may also suffer interference from the"
            + " previous run having the same group id. The user should have only one query per group id,"
            + " and/or set the option 'kafka.session.timeout.ms' to be very small so that the Kafka"
            + " consumers from the previous query are marked dead by the Kafka group coordinator before the"
            + " restarted query starts running.";
    /** The consumer settings the source owns, each with its explanation (Spark's where Spark has one). */
    private static final Map<String, String> CONSUMER_REFUSED = refusals(
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "Kafka option 'auto.offset.reset' is not supported.\n"
                    + "Instead set the source option 'startingoffsets' to 'earliest' or 'latest'\n"
                    + "to specify where to start. Structured Streaming manages which offsets are consumed\n"
                    + "internally, rather than relying on the kafkaConsumer to do it. This will ensure that no\n"
                    + "data is missed when new topics/partitions are dynamically subscribed. Note that\n"
                    + "'startingoffsets' only applies when a new Streaming query is started, and\n"
                    + "that resuming will always pick up from where the query left off. See the docs for more\n"
                    + "details.",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "Kafka option 'key.deserializer' is not supported as keys"
                    + " are deserialized as byte arrays with ByteArrayDeserializer. Use DataFrame operations to"
                    + " explicitly deserialize the keys.",
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "Kafka option 'value.deserializer' is not supported as"
                    + " values are deserialized as byte arrays with ByteArrayDeserializer. Use DataFrame operations"
                    + " to explicitly deserialize the values.",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "Kafka option 'enable.auto.commit' is not supported. The"
                    + " source tracks offsets in the checkpoint; to let lag tools see them, set the source option"
                    + " 'commitOffsetsToGroup'.",
            ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, "Kafka option 'interceptor.classes' is not supported."
                    + " Interceptors may change records, which would break replaying a batch with the same rows.");
    private static final Logger LOG = LoggerFactory.getLogger(KafkaClientOptions.class);

    private KafkaClientOptions() {
    }

    /** Client key, explanation, client key, explanation...: in the order they are checked. */
    static Map<String, String> refusals(String... keysAndMessages) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndMessages.length; i += 2) {
            out.put(keysAndMessages[i], keysAndMessages[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * The client settings: every {@code kafka.}-prefixed option with the prefix removed and the key lower-cased
     * (options are case-insensitive and Kafka's own keys are lower case, so {@code kafka.Acks} means {@code acks}).
     */
    static Map<String, Object> clientParams(Options options) {
        Map<String, Object> out = new LinkedHashMap<>();
        options.asMap().forEach((k, v) -> {
            String lower = k.toLowerCase(Locale.ROOT);
            if (lower.startsWith(PREFIX)) {
                out.put(lower.substring(PREFIX.length()), v);
            }
        });
        return out;
    }

    /**
     * Of the client settings, those an Admin client knows (the others would make it warn about unknown configs),
     * without {@code default.api.timeout.ms}: Sluice gives every Admin call its time-out itself, and the Admin client
     * refuses to start with one below {@code request.timeout.ms} (30 s) when it is set explicitly.
     */
    static Map<String, Object> adminParams(Map<String, Object> clientParams) {
        Map<String, Object> out = new HashMap<>();
        clientParams.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)
                    && !k.equals(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG)) {
                out.put(k, v);
            }
        });
        return out;
    }

    /**
     * A positive time-out in milliseconds from {@code key} ({@code kafka.}-prefixed), else
     * {@link KafkaCalls#DEFAULT_TIMEOUT_MS}.
     */
    static long timeoutMs(Options options, String key) {
        long v = options.getLong(key, KafkaCalls.DEFAULT_TIMEOUT_MS);
        if (v <= 0 || v > Integer.MAX_VALUE) {
            throw new InvalidOptionException(key, options.get(key).orElse(null),
                    "a time-out in milliseconds from 1 to " + Integer.MAX_VALUE + " is accepted");
        }
        return v;
    }

    /** Where the clients connect and what bounds their calls, for the unreachable-brokers message. */
    static KafkaCalls.Target target(Map<String, Object> clientParams, long timeoutMs, String timeoutSetting) {
        return new KafkaCalls.Target(String.valueOf(clientParams.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)),
                BOOTSTRAP, timeoutMs, timeoutSetting);
    }

    /**
     * Returns once the brokers answer (one Admin describeCluster), so that a client whose own time-out message
     * cannot tell an unreachable cluster from, say, a missing topic (the producer's) is only built against brokers
     * that are there.
     *
     * @throws KafkaUnreachableException when none answered within the target's time-out
     */
    static void awaitBrokers(Map<String, Object> adminParams, KafkaCalls.Target target) {
        Admin admin = Admin.create(adminParams);
        try {
            KafkaCalls.await(admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) target.timeoutMs()))
                    .nodes(), target, "reach the Kafka brokers");
        } catch (ExecutionException e) {
            throw new KafkaException("Could not describe the Kafka cluster at " + target.bootstrapServers() + ": "
                    + e.getCause(), e.getCause());
        } finally {
            // Nothing is pending any more; a time-out's aborted call must not be waited for.
            admin.close(Duration.ZERO);
        }
    }

    /** Fails for a missing bootstrap and for the consumer settings the source manages itself (Spark's checks). */
    static void validateConsumerOptions(Options options) {
        refuse(options, CONSUMER_REFUSED);
        requireBootstrap(options, "consumer");
    }

    /**
     * Fails for the first client setting of {@code refused} (client key, without the prefix, to the explanation)
     * that the options hold. The exception names the lower-case option; a secret value is masked.
     */
    static void refuse(Options options, Map<String, String> refused) {
        refused.forEach((clientKey, message) -> {
            String key = PREFIX + clientKey;
            if (options.contains(key)) {
                String value = options.get(key).orElse(null);
                throw new InvalidOptionException(key, Options.isSecretKey(key) ? Options.SECRET_MASK : value, message,
                        true);
            }
        });
    }

    /** Fails with Spark's message when {@code kafka.bootstrap.servers} is missing or blank. */
    static void requireBootstrap(Options options, String client) {
        String servers = options.get(BOOTSTRAP).orElse(null);
        if (servers == null || servers.isBlank()) {
            throw new InvalidOptionException(BOOTSTRAP, servers,
                    "Option '" + BOOTSTRAP + "' must be specified for configuring Kafka " + client, true);
        }
    }

    /** Logs Spark's warning when the user fixed the group id, which makes queries sharing it interfere. */
    static void warnOnCustomGroupId(Options options) {
        if (options.contains("kafka." + ConsumerConfig.GROUP_ID_CONFIG)) {
            LOG.warn(CUSTOM_GROUP_ID_WARNING);
            if (options.contains("groupIdPrefix")) {
                LOG.warn("Option groupIdPrefix will be ignored as option kafka.group.id has been set.");
            }
        }
    }

    /** The settings for logs and descriptions, sorted, with secret values masked. */
    static Map<String, String> redacted(Map<String, ?> params) {
        Map<String, String> out = new TreeMap<>();
        params.forEach((k, v) -> out.put(k, Options.isSecretKey(k) ? Options.SECRET_MASK : String.valueOf(v)));
        return out;
    }
}
