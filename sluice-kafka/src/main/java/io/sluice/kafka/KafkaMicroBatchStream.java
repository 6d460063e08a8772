package io.sluice.kafka;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.MetadataLogFiles;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.StreamContext;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The Kafka source's stream, following Spark's KafkaMicroBatchStream: offsets per partition, latest offsets from an
 * Admin client, admission control ({@link KafkaAdmission}, pure: maxOffsetsPerTrigger prorated by backlog,
 * minOffsetsPerTrigger with maxTriggerDelay), availableNow with a target fixed once, data-loss checks, pooled
 * assigned consumers, and the source's metrics ({@link KafkaRetentionMetrics}).
 */
final class KafkaMicroBatchStream implements SupportsTriggerAvailableNow {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaMicroBatchStream.class);
    private static final String INITIAL_OFFSETS_FILE = "0";
    private final KafkaSourceOptions options;
    private final StartSpec startSpec;
    private final StartSpec endSpec;
    private final boolean bounded;
    private final Path metadataPath;
    /** Where the initial offsets are kept when the checkpoint is on an object store (metadataPath null). */
    private final Storage metadataStorage;
    private final String metadataLocation;
    private final SluiceClock clock;
    private final KafkaOffsetReader reader;
    private final ConsumerPool pool;
    private final DataLoss dataLoss;
    private final String executorGroupId;
    private final KafkaRetentionMetrics metrics;
    private Map<TopicPartition, Long> latestSeen;
    private Map<TopicPartition, Long> availableNowTarget;
    private boolean availableNow;
    private long lastTriggerMillis;
    private PartitionOffsets initial;
    private final PushDown pushDown;

    KafkaMicroBatchStream(KafkaSourceOptions options, StartSpec startSpec, StartSpec endSpec, StreamContext ctx) {
        this(options, startSpec, endSpec, ctx, PushDown.none(ctx.schema()));
    }

    /** A stream for a read with a push-down ({@link KafkaPushDown}). */
    KafkaMicroBatchStream(KafkaSourceOptions options, StartSpec startSpec, StartSpec endSpec, StreamContext ctx,
                          PushDown pushDown) {
        this.pushDown = pushDown;
        this.options = options;
        this.startSpec = startSpec;
        this.endSpec = endSpec;
        this.bounded = ctx.bounded();
        this.metadataPath = ctx.metadataPath();
        this.metadataStorage = ctx.metadataStorage();
        this.metadataLocation = ctx.metadataLocation();
        this.clock = ctx.clock();
        this.dataLoss = new DataLoss(options.failOnDataLoss());
        String unique = options.groupIdPrefix() + "-" + UUID.randomUUID() + "-" + ctx.metadataLocation().hashCode();
        this.executorGroupId = options.customGroupId().orElse(unique + "-executor");
        this.reader = new KafkaOffsetReader(options);
        this.metrics = new KafkaRetentionMetrics(reader, clock, dataLoss);
        this.pool = new ConsumerPool(consumerParams(options, executorGroupId), options.consumerPoolCapacity(),
                options.consumerPoolIdleTimeoutMs(), clock);
    }

    /** The executor consumers' settings: throughput defaults, then the user's, then what Sluice must own. */
    static Map<String, Object> consumerParams(KafkaSourceOptions options, String groupId) {
        Map<String, Object> p = new HashMap<>();
        // Large fetches, but few records per poll: a poll's records stay alive while its rows are handed on, and
        // with 10,000 per poll G1 copied them at every young collection, grew the heap and ran 25-35% slower
        // (docs/benchmarks.md, "Kafka: records per poll").
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1_000);
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        p.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 1024 * 1024);
        p.putAll(options.clientParams());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        // Bounds position and beginningOffsets look-ups (Kafka's default is 60 s).
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) options.apiTimeoutMs());
        return p;
    }

    @Override
    public Offset initialOffset() {
        if (initial != null) {
            return initial;
        }
        if (metadataPath == null) {
            return initialOffsetOnStorage();
        }
        Path file = metadataPath.resolve(INITIAL_OFFSETS_FILE);
        try {
            if (Files.exists(file)) {
                initial = parseInitial(file, new String(MetadataLogFiles.readAll(file,
                        MetadataLogFiles.MAX_READ_BYTES), StandardCharsets.UTF_8));
            } else {
                initial = new PartitionOffsets(resolve(startSpec, true));
                if (!bounded) {
                    DurableFiles.createNew(file, ("v1\n" + initial.json()).getBytes(StandardCharsets.UTF_8));
                }
                LOG.info("Initial offsets: {}", initial.json());
            }
        } catch (IOException e) {
            // The message names the file: a bare "No space left on device" would not say where.
            throw new UncheckedIOException("Cannot read or write the Kafka source's initial offsets " + file + ": "
                    + e.getMessage(), e);
        }
        return initial;
    }

    /**
     * {@link #initialOffset()} on a checkpoint on an object store: the same file ({@code sources/N/0}, Spark's
     * {@code v1} format), created with a conditional write, so of two racing first runs the first writer's offsets
     * are the ones both use.
     */
    private Offset initialOffsetOnStorage() {
        String uri = Storages.child(metadataLocation, INITIAL_OFFSETS_FILE);
        try {
            if (metadataStorage.status(uri).isEmpty()) {
                PartitionOffsets resolved = new PartitionOffsets(resolve(startSpec, true));
                if (bounded || metadataStorage.createExclusive(uri,
                        ("v1\n" + resolved.json()).getBytes(StandardCharsets.UTF_8))) {
                    LOG.info("Initial offsets: {}", resolved.json());
                    initial = resolved;
                    return initial;
                }
            }
            initial = parseInitial(uri, new String(metadataStorage.readAll(uri, MetadataLogFiles.MAX_READ_BYTES),
                    StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or write the Kafka source's initial offsets " + uri + ": "
                    + e.getMessage(), e);
        }
        return initial;
    }

    private static PartitionOffsets parseInitial(Object where, String text) {
        int nl = text.indexOf('\n');
        if (!text.startsWith("v1") || nl < 0) {
            throw new IllegalStateException("Unsupported format of the Kafka source's initial offsets in "
                    + where + ": " + text);
        }
        return PartitionOffsets.parse(text.substring(nl + 1).trim());
    }

    /** The offsets a start or end option names, for every partition the strategy holds now. */
    private Map<TopicPartition, Long> resolve(StartSpec spec, boolean starting) {
        Set<TopicPartition> tps = reader.partitions();
        Map<TopicPartition, Long> out = PartitionOffsets.newMap();
        String what = starting ? "startingOffsets" : "endingOffsets";
        if (spec instanceof StartSpec.Earliest) {
            out.putAll(reader.earliest(tps));
        } else if (spec instanceof StartSpec.Latest) {
            out.putAll(reader.latest(tps));
        } else if (spec instanceof StartSpec.Specific s) {
            requireAll(what, s.offsets().keySet(), tps);
            Set<TopicPartition> early = new HashSet<>();
            Set<TopicPartition> late = new HashSet<>();
            s.offsets().forEach((tp, o) -> {
                if (o == StartSpec.EARLIEST) {
                    early.add(tp);
                } else if (o == StartSpec.LATEST) {
                    late.add(tp);
                } else {
                    out.put(tp, o);
                }
            });
            out.putAll(reader.earliest(early));
            out.putAll(reader.latest(late));
        } else if (spec instanceof StartSpec.PerPartitionTimestamp s) {
            requireAll(what, s.timestamps().keySet(), tps);
            out.putAll(byTimestamp(s.timestamps(), starting));
        } else if (spec instanceof StartSpec.GlobalTimestamp g) {
            Map<TopicPartition, Long> ts = PartitionOffsets.newMap();
            tps.forEach(tp -> ts.put(tp, g.timestamp()));
            out.putAll(byTimestamp(ts, starting));
        }
        return out;
    }

    private Map<TopicPartition, Long> byTimestamp(Map<TopicPartition, Long> timestamps, boolean starting) {
        // No retry on -1: the broker answers from the log it holds below the high watermark (the last stable
        // offset under read_committed), so -1 means no such record is readable now, e.g. because retention deleted
        // it (a record's CreateTime, not its arrival, decides when time retention deletes it).
        Map<TopicPartition, Long> found = reader.forTimestamps(timestamps);
        Map<TopicPartition, Long> out = PartitionOffsets.newMap();
        Set<TopicPartition> toLatest = new TreeSet<>(PartitionOffsets.ORDER);
        found.forEach((tp, o) -> {
            if (o >= 0) {
                out.put(tp, o);
            } else if (starting && !options.noMatchLatest()) {
                throw new IllegalArgumentException("No offset matched from request of topic-partition " + tp
                        + " and timestamp " + timestamps.get(tp) + ".");
            } else {
                toLatest.add(tp);
            }
        });
        out.putAll(reader.latest(toLatest));
        return out;
    }

    private static void requireAll(String option, Set<TopicPartition> given, Set<TopicPartition> assigned) {
        Set<TopicPartition> g = new TreeSet<>(PartitionOffsets.ORDER);
        g.addAll(given);
        if (!g.equals(assigned)) {
            throw new IllegalArgumentException("If " + option + " contains specific offsets, you must specify all"
                    + " TopicPartitions.\nUse -1 for latest, -2 for earliest.\nSpecified: " + g + " Assigned: "
                    + assigned);
        }
    }

    @Override
    public Offset deserializeOffset(String json) {
        return PartitionOffsets.parse(json);
    }

    /** Each partition in both whose offset went back, as {@code partition events-2: 100 is before 1000}. */
    @Override
    public Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        // A topic deleted and recreated resets its offsets: a batch planned after that logs an end before the
        // previous one without any edit. With failOnDataLoss=false the user accepted that (Spark's rule: count it
        // and go on from the new offsets), so only failOnDataLoss=true refuses a logged end that went back.
        if (!options.failOnDataLoss()) {
            return Optional.empty();
        }
        Map<TopicPartition, Long> before = ((PartitionOffsets) toOffsets(previousEnd)).offsets();
        List<String> back = new ArrayList<>();
        ((PartitionOffsets) toOffsets(end)).offsets().forEach((tp, after) -> {
            Long b = before.get(tp);
            if (b != null && after < b) {
                back.add("partition " + tp + ": " + after + " is before " + b);
            }
        });
        return back.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", back) + " (a topic deleted and "
                + "recreated also resets its offsets: if that is what happened, restart with failOnDataLoss=false to "
                + "accept the data loss and read on from the new offsets)");
    }

    @Override
    public ReadLimit defaultReadLimit() {
        Optional<Long> max = options.maxOffsetsPerTrigger();
        Optional<Long> min = options.minOffsetsPerTrigger();
        if (min.isPresent() && max.isPresent()) {
            return ReadLimit.composite(ReadLimit.minRows(min.get(), options.maxTriggerDelayMs()),
                    ReadLimit.maxRows(max.get()));
        }
        if (min.isPresent()) {
            return ReadLimit.minRows(min.get(), options.maxTriggerDelayMs());
        }
        return max.<ReadLimit>map(ReadLimit::maxRows).orElse(ReadLimit.allAvailable());
    }

    @Override
    public void prepareForTriggerAvailableNow() {
        availableNow = true;
    }

    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        Map<TopicPartition, Long> from = ((PartitionOffsets) toOffsets(start)).offsets();
        Map<TopicPartition, Long> latest;
        if (bounded) {
            latest = resolve(endSpec, false);
        } else if (availableNow) {
            if (availableNowTarget == null) {
                availableNowTarget = reader.latest(reader.partitions());
            }
            latest = availableNowTarget;
        } else {
            latest = reader.latest(reader.partitions());
        }
        latestSeen = latest;
        KafkaAdmission.Decision d = KafkaAdmission.next(from, latest, limit, availableNow, clock.millis(),
                lastTriggerMillis, reader::earliest);
        lastTriggerMillis = d.lastTriggerMillis();
        return d.end() == null ? start : new PartitionOffsets(d.end());
    }

    @Override
    public Offset reportLatestOffset() {
        return latestSeen == null ? null : new PartitionOffsets(latestSeen);
    }

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        Map<TopicPartition, Long> from = ((PartitionOffsets) toOffsets(start)).offsets();
        Map<TopicPartition, Long> until = ((PartitionOffsets) toOffsets(end)).offsets();
        Set<TopicPartition> newOnes = new TreeSet<>(PartitionOffsets.ORDER);
        newOnes.addAll(until.keySet());
        newOnes.removeAll(from.keySet());
        Map<TopicPartition, Long> newInitial = newOnes.isEmpty() ? Map.of() : reader.earliest(newOnes);
        if (newInitial.size() != newOnes.size()) {
            Set<TopicPartition> missing = new TreeSet<>(PartitionOffsets.ORDER);
            missing.addAll(newOnes);
            missing.removeAll(newInitial.keySet());
            dataLoss.report("Cannot find earliest offsets of " + missing + ". Some data may have been missed");
        }
        newInitial.forEach((tp, o) -> {
            if (o != 0) {
                dataLoss.report("Added partition " + tp + " starts from " + o
                        + " instead of 0. Some data may have been missed");
            }
        });
        Set<TopicPartition> gone = new TreeSet<>(PartitionOffsets.ORDER);
        gone.addAll(from.keySet());
        gone.removeAll(until.keySet());
        if (!gone.isEmpty()) {
            dataLoss.report(gone + " are gone. Some data may have been missed");
        }
        List<KafkaInputPartition> ranges = new ArrayList<>();
        until.forEach((tp, u) -> {
            Long f = from.containsKey(tp) ? from.get(tp) : newInitial.get(tp);
            if (f == null) {
                return;
            }
            if (u < f) {
                dataLoss.report("Partition " + tp + "'s offset was changed from " + f + " to " + u
                        + ", some data may have been missed");
                return;
            }
            ranges.add(new KafkaInputPartition(tp, f, u));
        });
        return new ArrayList<>(OffsetRangeCalculator.ranges(KafkaPushDown.narrow(ranges, pushDown),
                options.minPartitions(), options.maxRecordsPerPartition()));
    }

    @Override
    public PartitionReader createReader(InputPartition partition) {
        return new KafkaPartitionReader((KafkaInputPartition) partition, pool, dataLoss, options.pollTimeoutMs(),
                options.includeHeaders(), executorGroupId, metrics.firstUnread(), clock, pushDown);
    }

    @Override
    public void commit(Offset end) {
        Optional<String> group = options.commitOffsetsToGroup();
        if (group.isEmpty() || bounded) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        ((PartitionOffsets) toOffsets(end)).offsets().forEach((tp, o) -> offsets.put(tp, new OffsetAndMetadata(o)));
        try {
            reader.commitToGroup(group.get(), offsets);
        } catch (InterruptException e) {
            throw e;
        } catch (Exception e) {
            // Lag reporting is advisory: the checkpoint, not the group, is the source of truth.
            LOG.warn("Could not commit offsets to consumer group '{}': {}", group.get(), e.toString());
        }
    }

    @Override
    public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
        return metrics.metrics(latestSeen,
                latestConsumedOffset.map(o -> ((PartitionOffsets) toOffsets(o)).offsets()));
    }

    private Offset toOffsets(Offset o) {
        return o instanceof PartitionOffsets ? o : PartitionOffsets.parse(o.json());
    }

    /**
     * Closes the consumers and the Admin client. Safe from any thread, also while the query thread is inside a
     * call: a look-up in flight fails at once with "The Kafka source was stopped while trying to ...", and a
     * reader's poll is woken up.
     */
    @Override
    public void stop() {
        try {
            pool.close();
        } finally {
            reader.close();
        }
    }

    ConsumerPool pool() {
        return pool;
    }

    @Override
    public String description() {
        return "KafkaV2[" + options.strategy() + "]";
    }

    @Override
    public String toString() {
        return description();
    }
}
