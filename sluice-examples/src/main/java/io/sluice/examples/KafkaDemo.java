package io.sluice.examples;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import io.sluice.kafka.KafkaCalls;
import io.sluice.kafka.KafkaUnreachableException;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kafka demo pipeline: two queries on one Kafka topic.
 *
 * <ol>
 *   <li>{@code orders-to-kafka}: rate-micro-batch (100 rows a batch) becomes order events (key {@code order-N},
 *       value a small JSON document), written by the Kafka sink with {@code exactlyOnce=true}: each batch is one
 *       Kafka transaction.</li>
 *   <li>{@code orders-from-kafka}: the Kafka source reads the topic with {@code isolation.level=read_committed}
 *       and prints, per batch, how many orders it read from which partitions and offsets.</li>
 * </ol>
 *
 * The writer runs a few batches and stops; the reader then catches up and stops; the demo prints what was written,
 * what was read and how many keys were read twice (0). Both queries keep checkpoints under the work folder, so a
 * second run resumes both where they left off.
 *
 * <p>The demo only writes into a topic that is new, empty, or holds what this work folder's writer wrote before
 * (the exactly-once sink's batch marker for the writer checkpoint's query id is in Kafka); a topic with other data
 * is refused, naming the way out.
 *
 * <p>Start a broker first with {@code bin/sluice kafka dev} (localhost:9092). Arguments (all optional):
 * bootstrap servers (default {@code localhost:9092}), work folder (default {@code ./.sluice-kafka-demo}),
 * writer batches (default 5), topic (default {@value #TOPIC}).
 */
public final class KafkaDemo {
    /** The demo's topic (created with 3 partitions if missing). */
    public static final String TOPIC = "sluice-demo-orders";
    private static final int ROWS_PER_BATCH = 100;
    private static final Pattern QUERY_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    private KafkaDemo() {
    }

    /**
     * What one run of the demo did.
     *
     * @param written      records the writer committed to Kafka in this run
     * @param read         records the reader read in this run
     * @param distinctKeys distinct keys among them; {@code read - distinctKeys} were read more than once
     */
    public record Summary(long written, long read, long distinctKeys) {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args.length > 0 ? args[0] : "localhost:9092";
        Path work = Path.of(args.length > 1 ? args[1] : ".sluice-kafka-demo");
        int batches = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String topic = args.length > 3 ? args[3] : TOPIC;
        try (Sluice sluice = Sluice.local()) {
            run(sluice, bootstrap, topic, work, batches, System.out);
        }
    }

    /** {@link #run(Sluice, String, String, Path, int, PrintStream)} on {@value #TOPIC}. */
    public static Summary run(Sluice sluice, String bootstrap, Path work, int batches, PrintStream out)
            throws Exception {
        return run(sluice, bootstrap, TOPIC, work, batches, out);
    }

    /**
     * Runs the pipeline once: {@code batches} writer batches, then the reader until it has read them all.
     *
     * @throws IllegalStateException before anything is written when {@code topic} holds data this work folder's
     *                               writer did not write, or when no broker answers within 10 s
     */
    public static Summary run(Sluice sluice, String bootstrap, String topic, Path work, int batches,
                              PrintStream out) throws Exception {
        out.println("Sluice Kafka demo on " + bootstrap + ", topic " + topic + ", checkpoints under "
                + work.toAbsolutePath());
        prepareTopic(bootstrap, topic, work.resolve("writer"));

        Set<String> keys = ConcurrentHashMap.newKeySet();
        AtomicLong read = new AtomicLong();
        StreamingQuery reader = sluice.readStream().format("kafka")
                .option("kafka.bootstrap.servers", bootstrap)
                .option("subscribe", topic)
                .option("startingOffsets", "earliest")
                .option("kafka.isolation.level", "read_committed")
                .load()
                .selectExpr("CAST(key AS STRING) AS key", "CAST(value AS STRING) AS value", "partition", "offset")
                .writeStream().queryName("orders-from-kafka")
                .option("checkpointLocation", work.resolve("reader").toString())
                .trigger(Trigger.processingTime("1 second"))
                .foreachBatch((batch, batchId) -> {
                    Map<Integer, long[]> ranges = new TreeMap<>();
                    batch.rows().forEach(r -> {
                        keys.add(r.getString(0));
                        long offset = r.getLong(3);
                        ranges.merge(r.getInt(2), new long[] {offset, offset},
                                (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
                    });
                    read.addAndGet(batch.count());
                    StringBuilder where = new StringBuilder();
                    ranges.forEach((p, r) -> where.append(" p").append(p).append('[').append(r[0]).append("..")
                            .append(r[1]).append(']'));
                    out.printf("  reader batch %3d: %4d orders%s%n", batchId, batch.count(), where);
                })
                .start();

        CountDownLatch done = new CountDownLatch(batches);
        StreamingQueryListener counter = new StreamingQueryListener() {
            @Override
            public void onQueryStarted(QueryStartedEvent event) {
            }

            @Override
            public void onQueryProgress(QueryProgressEvent event) {
                StreamingQueryProgress p = event.progress();
                if ("orders-to-kafka".equals(p.name())) {
                    out.printf("writer batch %3d: %4d orders in one transaction%n", p.batchId(),
                            p.sink().numOutputRows());
                    done.countDown();
                }
            }

            @Override
            public void onQueryTerminated(QueryTerminatedEvent event) {
            }
        };
        sluice.addListener(counter);
        StreamingQuery writer = sluice.readStream().format("rate-micro-batch")
                .option("rowsPerBatch", ROWS_PER_BATCH).option("numPartitions", 2).load()
                .selectExpr("concat('order-', CAST(value AS STRING)) AS key",
                        "concat('{\"order\":', CAST(value AS STRING), ',\"amount\":', CAST(value % 97 + 1 AS STRING),"
                                + " '}') AS value")
                .writeStream().queryName("orders-to-kafka").format("kafka")
                .option("kafka.bootstrap.servers", bootstrap)
                .option("topic", topic)
                .option("exactlyOnce", "true")
                .option("checkpointLocation", work.resolve("writer").toString())
                .trigger(Trigger.processingTime("500 milliseconds"))
                .start();
        try {
            if (!done.await(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("The writer made no progress in 120 s: " + writer.status()
                        + writer.exception().map(e -> " " + e).orElse(""));
            }
        } finally {
            writer.stop();
            sluice.removeListener(counter);
        }
        writer.exception().ifPresent(e -> {
            throw new IllegalStateException(e);
        });
        // Every batch the writer committed, including one that finished while it was stopping.
        long written = writer.recentProgress().stream().mapToLong(p -> Math.max(0, p.sink().numOutputRows())).sum();
        reader.processAllAvailable();
        reader.stop();
        reader.exception().ifPresent(e -> {
            throw new IllegalStateException(e);
        });

        Summary s = new Summary(written, read.get(), keys.size());
        out.printf("%nwritten %d orders; read %d (read_committed), %d distinct keys, %d read twice%n",
                s.written(), s.read(), s.distinctKeys(), s.read() - s.distinctKeys());
        out.println("(each partition's offsets skip one after every transaction: that offset holds the "
                + "transaction's commit marker)");
        return s;
    }

    /**
     * Creates the topic (3 partitions) if it is missing; if it exists and holds data, requires the batch marker
     * that the exactly-once sink committed for the writer checkpoint's query (consumer group
     * {@code sluice-<query id>}, the sink's default transactionalIdPrefix, docs/sinks/kafka.md).
     */
    private static void prepareTopic(String bootstrap, String topic, Path writerCheckpoint) {
        KafkaCalls.Target target = new KafkaCalls.Target(bootstrap, "the first argument", 10_000, "the demo's wait");
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        try {
            try {
                KafkaCalls.await(admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all(), target,
                        "create topic " + topic);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("Cannot create topic " + topic + " on " + bootstrap + ": "
                            + e.getCause(), e);
                }
            }
            List<TopicPartition> tps = KafkaCalls.await(admin.describeTopics(List.of(topic)).allTopicNames(), target,
                    "describe topic " + topic).get(topic).partitions().stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            long offsets = offsets(admin, tps, OffsetSpec.latest(), target) - offsets(admin, tps, OffsetSpec.earliest(),
                    target);
            if (offsets > 0 && !writtenHere(admin, topic, writerCheckpoint, target)) {
                throw new IllegalStateException("Topic '" + topic + "' at " + bootstrap + " already holds data ("
                        + offsets + " offsets) that this demo's writer checkpoint " + writerCheckpoint.toAbsolutePath()
                        + " did not write. Run the demo with another topic (its 4th argument) or on a fresh broker"
                        + " (sluice kafka dev --data-dir <another folder>).");
            }
        } catch (KafkaUnreachableException e) {
            throw new IllegalStateException(e.getMessage() + " (bin/sluice kafka dev starts a broker)", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot inspect topic " + topic + " on " + bootstrap + ": " + e.getCause(),
                    e);
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    private static long offsets(Admin admin, List<TopicPartition> tps, OffsetSpec spec, KafkaCalls.Target target)
            throws ExecutionException {
        Map<TopicPartition, OffsetSpec> req = new HashMap<>();
        tps.forEach(tp -> req.put(tp, spec));
        return KafkaCalls.await(admin.listOffsets(req).all(), target, "list offsets").values().stream()
                .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
    }

    /** True when the writer checkpoint's query committed a batch to {@code topic} on this broker. */
    private static boolean writtenHere(Admin admin, String topic, Path writerCheckpoint, KafkaCalls.Target target)
            throws ExecutionException {
        Path metadata = writerCheckpoint.resolve("metadata");
        if (!Files.exists(metadata)) {
            return false;
        }
        Matcher m;
        try {
            m = QUERY_ID.matcher(Files.readString(metadata, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!m.find()) {
            return false;
        }
        String queryId = m.group(1);
        OffsetAndMetadata marker = KafkaCalls.await(admin.listConsumerGroupOffsets("sluice-" + queryId)
                .partitionsToOffsetAndMetadata(), target, "read the writer's batch marker")
                .get(new TopicPartition(topic, 0));
        return marker != null && marker.metadata() != null && marker.metadata().startsWith("sluice:" + queryId + ":");
    }
}
