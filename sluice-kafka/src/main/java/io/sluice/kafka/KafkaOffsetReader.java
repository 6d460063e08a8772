package io.sluice.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Partitions and their offsets, from an Admin client (Spark's KafkaOffsetReaderAdmin): which partitions the
 * strategy names now, and earliest / latest / by-timestamp offsets, with {@code fetchOffset.numRetries} retries.
 * Latest offsets honour the consumer's {@code isolation.level} (the last stable offset under read_committed).
 *
 * <p>Every call is bounded by {@code kafka.default.api.timeout.ms} (default 30 s, {@link KafkaSourceOptions#target}):
 * a call that times out is not retried (the Admin client has already retried it for that long), so unreachable
 * brokers fail a look-up with a {@link KafkaUnreachableException} within the bound. Other failures are retried.
 * An interrupt ends a call or a retry pause at once (Kafka's {@link InterruptException}, the flag set again), and
 * {@link #close()} from another thread ends them too, with "the Kafka source was stopped".
 */
final class KafkaOffsetReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaOffsetReader.class);
    private final Admin admin;
    private final KafkaSourceOptions options;
    private final KafkaCalls.Target target;
    private final int timeoutMs;
    private final IsolationLevel isolation;
    private final CountDownLatch closed = new CountDownLatch(1);

    KafkaOffsetReader(KafkaSourceOptions options) {
        this.options = options;
        this.target = options.target();
        this.timeoutMs = (int) target.timeoutMs();
        String isolation = String.valueOf(options.clientParams()
                .getOrDefault(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"));
        this.isolation = IsolationLevel.valueOf(isolation.toUpperCase(Locale.ROOT));
        this.admin = Admin.create(KafkaClientOptions.adminParams(options.clientParams()));
    }

    /** The partitions the strategy names now; topics that do not exist (yet) have none. */
    Set<TopicPartition> partitions() {
        return retry("list partitions", () -> {
            KafkaSourceOptions.Strategy s = options.strategy();
            Set<String> existing = await(admin.listTopics(new ListTopicsOptions().listInternal(false)
                    .timeoutMs(timeoutMs)).names(), "list topics");
            Set<String> topics = new TreeSet<>();
            if (s instanceof KafkaSourceOptions.Strategy.Subscribe sub) {
                sub.topics().stream().filter(existing::contains).forEach(topics::add);
            } else if (s instanceof KafkaSourceOptions.Strategy.SubscribePattern p) {
                existing.stream().filter(t -> p.pattern().matcher(t).find()).forEach(topics::add);
            } else {
                ((KafkaSourceOptions.Strategy.Assign) s).partitions().stream().map(TopicPartition::topic)
                        .filter(existing::contains).forEach(topics::add);
            }
            Set<TopicPartition> all = new TreeSet<>(PartitionOffsets.ORDER);
            if (topics.isEmpty()) {
                return all;
            }
            for (TopicDescription td : describe(topics).values()) {
                for (TopicPartitionInfo pi : td.partitions()) {
                    all.add(new TopicPartition(td.name(), pi.partition()));
                }
            }
            if (s instanceof KafkaSourceOptions.Strategy.Assign a) {
                all.retainAll(new HashSet<>(a.partitions()));
            }
            return all;
        });
    }

    Map<TopicPartition, Long> latest(Collection<TopicPartition> tps) {
        return list(tps, tp -> OffsetSpec.latest());
    }

    Map<TopicPartition, Long> earliest(Collection<TopicPartition> tps) {
        return list(tps, tp -> OffsetSpec.earliest());
    }

    /** The earliest offset whose timestamp is at or after each given one; -1 where none is. */
    Map<TopicPartition, Long> forTimestamps(Map<TopicPartition, Long> timestamps) {
        return list(timestamps.keySet(), tp -> OffsetSpec.forTimestamp(timestamps.get(tp)));
    }

    private Map<TopicPartition, Long> list(Collection<TopicPartition> tps,
                                           java.util.function.Function<TopicPartition, OffsetSpec> spec) {
        if (tps.isEmpty()) {
            return PartitionOffsets.newMap();
        }
        return retry("list offsets", () -> {
            Map<TopicPartition, OffsetSpec> req = new HashMap<>();
            tps.forEach(tp -> req.put(tp, spec.apply(tp)));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> res = await(admin.listOffsets(req,
                    new ListOffsetsOptions(isolation).timeoutMs(timeoutMs)).all(), "list offsets");
            Map<TopicPartition, Long> out = PartitionOffsets.newMap();
            res.forEach((tp, info) -> out.put(tp, info.offset()));
            return out;
        });
    }

    /**
     * The size in bytes of each partition's log on its leader (Admin describeLogDirs); partitions without a known
     * leader or size are left out. One describeTopics and one describeLogDirs call on the leaders, no retries: the
     * sizes only feed a metric.
     */
    Map<TopicPartition, Long> sizes(Collection<TopicPartition> tps) throws ExecutionException {
        Set<String> topics = new TreeSet<>();
        tps.forEach(tp -> topics.add(tp.topic()));
        Map<TopicPartition, Integer> leaders = new HashMap<>();
        for (TopicDescription td : describe(topics).values()) {
            for (TopicPartitionInfo pi : td.partitions()) {
                TopicPartition tp = new TopicPartition(td.name(), pi.partition());
                if (tps.contains(tp) && pi.leader() != null && !pi.leader().isEmpty()) {
                    leaders.put(tp, pi.leader().id());
                }
            }
        }
        Map<TopicPartition, Long> out = PartitionOffsets.newMap();
        if (leaders.isEmpty()) {
            return out;
        }
        Map<Integer, Map<String, LogDirDescription>> dirs = await(admin.describeLogDirs(new HashSet<>(leaders.values()),
                new DescribeLogDirsOptions().timeoutMs(timeoutMs)).allDescriptions(), "describe log dirs");
        leaders.forEach((tp, broker) -> dirs.getOrDefault(broker, Map.of()).values().forEach(dir -> {
            ReplicaInfo info = dir.replicaInfos().get(tp);
            // A future replica is a copy being moved to another log dir: the current one is what retention sees.
            if (info != null && !info.isFuture()) {
                out.put(tp, info.size());
            }
        }));
        return out;
    }

    /** The topics' configs (Admin describeConfigs), one call, no retries. */
    Map<ConfigResource, Config> topicConfigs(Collection<String> topics) throws ExecutionException {
        List<ConfigResource> res = topics.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        return await(admin.describeConfigs(res, new DescribeConfigsOptions().timeoutMs(timeoutMs)).all(),
                "describe topic configs");
    }

    /** Commits offsets to a consumer group (Admin alterConsumerGroupOffsets), one call, no retries. */
    void commitToGroup(String group, Map<TopicPartition, OffsetAndMetadata> offsets) throws ExecutionException {
        await(admin.alterConsumerGroupOffsets(group, offsets, new AlterConsumerGroupOffsetsOptions()
                .timeoutMs(timeoutMs)).all(), "commit offsets to group " + group);
    }

    private Map<String, TopicDescription> describe(Set<String> topics) throws ExecutionException {
        return await(admin.describeTopics(topics, new DescribeTopicsOptions().timeoutMs(timeoutMs)).allTopicNames(),
                "describe topics");
    }

    private <T> T await(KafkaFuture<T> future, String what) throws ExecutionException {
        try {
            return KafkaCalls.await(future, target, what);
        } catch (RuntimeException | ExecutionException e) {
            // A call aborted by close() from another thread fails with a time-out: say what really happened.
            throwIfClosed(what);
            throw e;
        }
    }

    interface Call<T> {
        T call() throws Exception;
    }

    private <T> T retry(String what, Call<T> call) {
        int attempt = 0;
        while (true) {
            throwIfClosed(what);
            try {
                return call.call();
            } catch (KafkaUnreachableException | InterruptException e) {
                throw e;
            } catch (Exception e) {
                throwIfClosed(what);
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                attempt++;
                if (attempt > options.fetchOffsetNumRetries()) {
                    throw new IllegalStateException("Failed to " + what + " from Kafka after " + attempt
                            + " attempts: " + cause, cause);
                }
                LOG.warn("Failed to {} (attempt {}), retrying: {}", what, attempt, cause.toString());
                try {
                    // Ends early when the source is stopped.
                    closed.await(options.fetchOffsetRetryIntervalMs(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException ie) {
                    throw new InterruptException("Interrupted while trying to " + what, ie);
                }
            }
        }
    }

    private void throwIfClosed(String what) {
        if (closed.getCount() == 0) {
            throw new IllegalStateException("The Kafka source was stopped while trying to " + what);
        }
    }

    /**
     * Closes the Admin client; safe from any thread and more than once. A call in flight on another thread is
     * aborted (not waited for) and fails with "the Kafka source was stopped".
     */
    @Override
    public void close() {
        closed.countDown();
        admin.close(Duration.ZERO);
    }


    static List<TopicPartition> sorted(Collection<TopicPartition> tps) {
        return tps.stream().sorted(PartitionOffsets.ORDER).toList();
    }
}
