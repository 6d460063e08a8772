package io.sluice.cli;

import io.sluice.kafka.KafkaCalls;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;

/**
 * The Admin calls of the {@code sluice kafka} commands, each bounded by the target's time-out (unreachable brokers:
 * {@link io.sluice.kafka.KafkaUnreachableException}), with the commands' messages for a topic that exists or does
 * not. Closing does not wait for calls still pending.
 */
final class TopicAdmin implements AutoCloseable {
    private final Admin admin;
    private final KafkaCalls.Target target;
    private final int timeoutMs;

    /**
     * @param kafkaOptions {@code kafka.}-prefixed client settings (security...), passed on without the prefix when
     *                     an Admin client knows them
     */
    TopicAdmin(KafkaCalls.Target target, Map<String, String> kafkaOptions) {
        this.target = target;
        this.timeoutMs = (int) target.timeoutMs();
        Map<String, Object> params = new HashMap<>();
        kafkaOptions.forEach((k, v) -> {
            String key = k.toLowerCase(Locale.ROOT);
            if (key.startsWith("kafka.")
                    && AdminClientConfig.configNames().contains(key.substring("kafka.".length()))
                    && !key.equals("kafka." + AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG)) {
                params.put(key.substring("kafka.".length()), v);
            }
        });
        params.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrapServers());
        try {
            this.admin = Admin.create(params);
        } catch (KafkaException e) {
            // "Failed to create new KafkaAdminClient" says nothing: the reason (no resolvable host...) is below it.
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new IllegalStateException("Cannot connect to the Kafka brokers at " + target.bootstrapServers()
                    + " (" + target.bootstrapSetting() + "): " + root.getMessage(), e);
        }
    }

    /** The topics, sorted, internal ones left out. */
    SortedSet<String> list() {
        return new TreeSet<>(await(admin.listTopics(new ListTopicsOptions().timeoutMs(timeoutMs)).names(),
                "list topics"));
    }

    /** Fails with {@code topic 'x' does not exist at <servers>} for the first of {@code topics} that does not. */
    void requireExists(Collection<String> topics) {
        SortedSet<String> existing = list();
        for (String t : topics) {
            if (!existing.contains(t)) {
                throw missing(t);
            }
        }
    }

    void create(String topic, int partitions, short replicationFactor) {
        try {
            KafkaCalls.await(admin.createTopics(java.util.List.of(new NewTopic(topic, partitions, replicationFactor)),
                    new CreateTopicsOptions().timeoutMs(timeoutMs)).all(), target, "create topic " + topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new IllegalStateException("topic '" + topic + "' already exists at " + target.bootstrapServers());
            }
            throw failed("create topic '" + topic + "'", e);
        }
    }

    TopicDescription describe(String topic) {
        try {
            return KafkaCalls.await(admin.describeTopics(java.util.List.of(topic),
                    new DescribeTopicsOptions().timeoutMs(timeoutMs)).allTopicNames(), target,
                    "describe topic " + topic).get(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw missing(topic);
            }
            throw failed("describe topic '" + topic + "'", e);
        }
    }

    /** Each partition's offset for {@code spec} (earliest, latest...), in partition order. */
    Map<TopicPartition, Long> offsets(Collection<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> req = new HashMap<>();
        partitions.forEach(tp -> req.put(tp, spec));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> res = await(admin.listOffsets(req,
                new ListOffsetsOptions().timeoutMs(timeoutMs)).all(), "list offsets");
        Map<TopicPartition, Long> out = new TreeMap<>(
                java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        res.forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    private <T> T await(KafkaFuture<T> future, String what) {
        try {
            return KafkaCalls.await(future, target, what);
        } catch (ExecutionException e) {
            throw failed(what, e);
        }
    }

    private IllegalStateException missing(String topic) {
        return new IllegalStateException("topic '" + topic + "' does not exist at " + target.bootstrapServers());
    }

    private IllegalStateException failed(String what, ExecutionException e) {
        return new IllegalStateException("Could not " + what + " at " + target.bootstrapServers() + ": "
                + e.getCause(), e.getCause());
    }

    @Override
    public void close() {
        admin.close(Duration.ZERO);
    }
}
