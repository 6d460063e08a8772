package io.sluice.kafka;

import io.sluice.api.SluiceClock;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Kafka source's metrics (Spark's {@code KafkaMicroBatchStream.metrics} and Sluice's retention ones): offsets
 * behind latest, {@code minRetentionMsLeft} from the first unread record readers saw and the topics'
 * retention.ms, {@code minRetentionBytesLeft} from the leaders' log sizes and retention.bytes, and
 * {@code dataLoss}. Topic configurations and log sizes are asked for through the stream's offset reader, at most
 * every {@link #RETENTION_CONFIG_REFRESH_MS} and {@link #LOG_SIZE_REFRESH_MS}; a failed look-up leaves the metric
 * out. Used on the query thread only, but {@link #firstUnread()} is written by reader threads.
 */
final class KafkaRetentionMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaRetentionMetrics.class);
    static final long RETENTION_CONFIG_REFRESH_MS = 5 * 60_000L;
    /** Log sizes for minRetentionBytesLeft are asked for at most this often (one describeLogDirs on the leaders). */
    static final long LOG_SIZE_REFRESH_MS = 60_000L;
    private final KafkaOffsetReader reader;
    private final SluiceClock clock;
    private final DataLoss dataLoss;
    /** First unread record seen by a reader past its range end: offset and timestamp, for the retention metric. */
    private final Map<TopicPartition, long[]> firstUnread = new ConcurrentHashMap<>();
    private Map<String, Retention> retention = Map.of();
    private long retentionFetchedAt = Long.MIN_VALUE;
    private Map<TopicPartition, LogSize> logSizes = Map.of();
    private long logSizesFetchedAt = Long.MIN_VALUE;

    KafkaRetentionMetrics(KafkaOffsetReader reader, SluiceClock clock, DataLoss dataLoss) {
        this.reader = reader;
        this.clock = clock;
        this.dataLoss = dataLoss;
    }

    /** Where readers note the first record past their range end: offset and timestamp per partition. */
    Map<TopicPartition, long[]> firstUnread() {
        return firstUnread;
    }

    /**
     * The source's metrics: offsets behind the latest ones (min, max, average over partitions), the retention
     * time and bytes left before the oldest unread record may be deleted, and the data-loss count; only the
     * data-loss count before a batch has been planned and consumed.
     *
     * @param latestSeen   the latest offsets the last trigger saw, or null before any
     * @param consumedUpTo the offsets the query has consumed up to, if any
     */
    Map<String, String> metrics(Map<TopicPartition, Long> latestSeen,
                                Optional<Map<TopicPartition, Long>> consumedUpTo) {
        if (consumedUpTo.isEmpty() || latestSeen == null) {
            return dataLossOnly();
        }
        Map<TopicPartition, Long> consumed = consumedUpTo.get();
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long sum = 0;
        int n = 0;
        for (var e : latestSeen.entrySet()) {
            long behind = e.getValue() - consumed.getOrDefault(e.getKey(), 0L);
            min = Math.min(min, behind);
            max = Math.max(max, behind);
            sum += behind;
            n++;
        }
        if (n == 0) {
            return dataLossOnly();
        }
        Map<String, String> m = new LinkedHashMap<>();
        m.put("minOffsetsBehindLatest", Long.toString(min));
        m.put("maxOffsetsBehindLatest", Long.toString(max));
        m.put("avgOffsetsBehindLatest", Double.toString((double) sum / n));
        retentionMetric(latestSeen, consumed).ifPresent(v -> m.put("minRetentionMsLeft", Long.toString(v)));
        retentionBytesMetric(latestSeen, consumed).ifPresent(v -> m.put("minRetentionBytesLeft", Long.toString(v)));
        if (dataLoss.count() > 0) {
            m.put("dataLoss", Long.toString(dataLoss.count()));
        }
        return m;
    }

    private Map<String, String> dataLossOnly() {
        return dataLoss.count() > 0 ? Map.of("dataLoss", Long.toString(dataLoss.count())) : Map.of();
    }

    /**
     * How long until retention.ms deletes the oldest unread record, for partitions with a backlog whose first unread
     * record a reader has already seen (it fetches past its range end): retention.ms minus that record's age.
     * Negative means it is overdue: only the segment roll and the cleaner's interval still keep it.
     */
    private Optional<Long> retentionMetric(Map<TopicPartition, Long> latestSeen,
                                           Map<TopicPartition, Long> consumed) {
        Long best = null;
        for (var e : latestSeen.entrySet()) {
            TopicPartition tp = e.getKey();
            Long c = consumed.get(tp);
            long[] seen = firstUnread.get(tp);
            if (c == null || e.getValue() <= c || seen == null || seen[0] != c) {
                continue;
            }
            Retention r = retention(tp.topic(), latestSeen.keySet());
            if (r == null || r.ms() < 0) {
                continue;
            }
            long left = r.ms() - (clock.millis() - seen[1]);
            best = best == null ? left : Math.min(best, left);
        }
        return Optional.ofNullable(best);
    }

    /**
     * How many more bytes the partition can take before size retention may delete its oldest unread record, over
     * partitions with a backlog whose topic sets retention.bytes: retention.bytes minus the bytes the partition holds
     * from that record on. Those bytes are estimated from the leader's log size in proportion to offsets (records of
     * one partition are taken as equally large), from sizes at most {@link #LOG_SIZE_REFRESH_MS} old. Retention
     * deletes whole segments, so the real deletion comes later than this says, never earlier (for equal records).
     * Negative means the record may be deleted at the next retention check.
     */
    private Optional<Long> retentionBytesMetric(Map<TopicPartition, Long> latestSeen,
                                                Map<TopicPartition, Long> consumed) {
        List<TopicPartition> backlog = new ArrayList<>();
        for (var e : latestSeen.entrySet()) {
            Long c = consumed.get(e.getKey());
            Retention r = c == null || e.getValue() <= c ? null
                    : retention(e.getKey().topic(), latestSeen.keySet());
            if (r != null && r.bytes() >= 0) {
                backlog.add(e.getKey());
            }
        }
        if (backlog.isEmpty()) {
            return Optional.empty();
        }
        long now = clock.millis();
        if (!logSizes.keySet().containsAll(backlog) || now - logSizesFetchedAt >= LOG_SIZE_REFRESH_MS) {
            try {
                Map<TopicPartition, Long> sizes = reader.sizes(backlog);
                Map<TopicPartition, Long> start = reader.earliest(sizes.keySet());
                Map<TopicPartition, Long> end = reader.latest(sizes.keySet());
                Map<TopicPartition, LogSize> fetched = new HashMap<>();
                sizes.forEach((tp, size) -> {
                    if (start.containsKey(tp) && end.containsKey(tp)) {
                        fetched.put(tp, new LogSize(size, start.get(tp), end.get(tp)));
                    }
                });
                logSizes = fetched;
                logSizesFetchedAt = now;
            } catch (InterruptException e) {
                throw e;
            } catch (Exception e) {
                LOG.debug("Could not read log sizes", e);
                return Optional.empty();
            }
        }
        Long best = null;
        for (TopicPartition tp : backlog) {
            LogSize size = logSizes.get(tp);
            if (size == null) {
                continue;
            }
            long left = retention(tp.topic(), latestSeen.keySet()).bytes() - size.bytesFrom(consumed.get(tp));
            best = best == null ? left : Math.min(best, left);
        }
        return Optional.ofNullable(best);
    }

    /** A partition's log size on its leader and the offsets it spanned when the size was read. */
    private record LogSize(long bytes, long start, long end) {
        /** The bytes from {@code offset} to the end, in proportion to offsets. */
        long bytesFrom(long offset) {
            if (end <= start) {
                return 0;
            }
            long from = Math.max(start, Math.min(end, offset));
            return (long) Math.ceil((double) bytes * (end - from) / (end - start));
        }
    }

    /** A topic's retention.ms and retention.bytes (-1: unlimited). */
    private record Retention(long ms, long bytes) {
    }

    private Retention retention(String topic, Set<TopicPartition> partitions) {
        long now = clock.millis();
        if (!retention.containsKey(topic) || now - retentionFetchedAt >= RETENTION_CONFIG_REFRESH_MS) {
            Set<String> topics = new TreeSet<>();
            partitions.forEach(tp -> topics.add(tp.topic()));
            Map<String, Retention> fetched = new HashMap<>();
            try {
                Map<ConfigResource, Config> configs = reader.topicConfigs(topics);
                configs.forEach((r, cfg) -> fetched.put(r.name(), new Retention(
                        longConfig(cfg, TopicConfig.RETENTION_MS_CONFIG), longConfig(cfg, TopicConfig.RETENTION_BYTES_CONFIG))));
            } catch (InterruptException e) {
                throw e;
            } catch (Exception e) {
                LOG.debug("Could not read the retention settings", e);
                return null;
            }
            retention = fetched;
            retentionFetchedAt = now;
        }
        return retention.get(topic);
    }

    private static long longConfig(Config cfg, String key) {
        ConfigEntry entry = cfg.get(key);
        return entry == null || entry.value() == null ? -1 : Long.parseLong(entry.value());
    }

}
