package io.sluice.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;

/**
 * Partitions and their offsets, from an Admin client (Spark's KafkaOffsetReaderAdmin): which partitions the
 * strategy names now, and earliest / latest / by-timestamp offsets, with {@code fetchOffset.numRetries} retries.
 * Latest offsets honour the consumer's {@code isolation.level} (the last stable offset under read_committed).
 */
final class KafkaOffsetReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaOffsetReader.class);
    private final Admin admin;
    private final KafkaSourceOptions options;
    private final ListOffsetsOptions listOptions;

    KafkaOffsetReader(KafkaSourceOptions options) {
        this.options = options;
        String isolation = String.valueOf(options.clientParams()
                .getOrDefault(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"));
        this.admin = Admin.create(KafkaClientOptions.adminParams(options.clientParams()));
        this.listOptions = new ListOffsetsOptions(IsolationLevel.valueOf(isolation.toUpperCase(Locale.ROOT)));
    }

    Admin admin() {
        return admin;
    }

    /** The partitions the strategy names now; topics that do not exist (yet) have none. */
    Set<TopicPartition> partitions() {
        return retry("list partitions", () -> {
            KafkaSourceOptions.Strategy s = options.strategy();
            Set<String> existing = admin.listTopics(new ListTopicsOptions().listInternal(false)).names().get();
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
            Map<String, TopicDescription> d = admin.describeTopics(topics).allTopicNames().get();
            for (TopicDescription td : d.values()) {
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
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> res =
                    admin.listOffsets(req, listOptions).all().get();
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
    Map<TopicPartition, Long> sizes(Collection<TopicPartition> tps) throws Exception {
        Set<String> topics = new TreeSet<>();
        tps.forEach(tp -> topics.add(tp.topic()));
        Map<TopicPartition, Integer> leaders = new HashMap<>();
        for (TopicDescription td : admin.describeTopics(topics).allTopicNames().get().values()) {
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
        Map<Integer, Map<String, LogDirDescription>> dirs =
                admin.describeLogDirs(new HashSet<>(leaders.values())).allDescriptions().get();
        leaders.forEach((tp, broker) -> dirs.getOrDefault(broker, Map.of()).values().forEach(dir -> {
            ReplicaInfo info = dir.replicaInfos().get(tp);
            // A future replica is a copy being moved to another log dir: the current one is what retention sees.
            if (info != null && !info.isFuture()) {
                out.put(tp, info.size());
            }
        }));
        return out;
    }

    interface Call<T> {
        T call() throws Exception;
    }

    private <T> T retry(String what, Call<T> call) {
        int attempt = 0;
        while (true) {
            try {
                return call.call();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while trying to " + what, e);
            } catch (Exception e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                attempt++;
                if (attempt > options.fetchOffsetNumRetries()) {
                    throw new IllegalStateException("Failed to " + what + " from Kafka after " + attempt
                            + " attempts: " + cause, cause);
                }
                LOG.warn("Failed to {} (attempt {}), retrying: {}", what, attempt, cause.toString());
                try {
                    Thread.sleep(options.fetchOffsetRetryIntervalMs());
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while trying to " + what, ie);
                }
            }
        }
    }

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(5));
    }


    static List<TopicPartition> sorted(Collection<TopicPartition> tps) {
        return tps.stream().sorted(PartitionOffsets.ORDER).toList();
    }
}
