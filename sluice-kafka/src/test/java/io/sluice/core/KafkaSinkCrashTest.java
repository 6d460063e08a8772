package io.sluice.core;

import io.sluice.core.CrashChildMain.CrashPoint;
import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static io.sluice.core.CrashChildMain.readUntilBatch;
import static io.sluice.core.CrashChildMain.stdout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The exactly-once Kafka sink across real process deaths: a separate JVM runs rate-micro-batch into the Kafka sink
 * with {@code exactlyOnce=true} and dies over and over at random points of the batch cycle (before or after the
 * offset log, in the middle of the sink's sends with a transaction open, after the transaction committed but
 * before commits/N, after commits/N), by halting itself there or by a SIGKILL from this test. After every death a
 * {@code read_committed} reader of the topic sees every row of every batch it sees exactly once. Trials:
 * {@code -Dsluice.kafkaCrashTrials} (default 10, to keep the module's suite short).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class KafkaSinkCrashTest {
    private static final int TRIALS = Integer.getInteger("sluice.kafkaCrashTrials", 10);
    private static final CrashPoint[] POINTS = {CrashPoint.BEFORE_OFFSET_LOG, CrashPoint.AFTER_OFFSET_LOG,
        CrashPoint.DURING_SINK_WRITE, CrashPoint.BEFORE_COMMIT_LOG, CrashPoint.AFTER_COMMIT_LOG, null};

    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();
    private final String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
    private final KafkaConsumer<String, String> reader = new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new StringDeserializer(), new StringDeserializer());

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
        reader.close();
    }

    @Test
    void everyRowExactlyOnceForReadCommittedReadersAcrossManyDeaths() throws Exception {
        String topic = "sink-crash-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int trial = 0; trial < TRIALS; trial++) {
            // A new batch (not one re-run from the log, which the sink may skip as already written), so that the
            // crash point is always reached.
            long next = Math.max(lastId("offsets").orElse(-1), lastId("commits").orElse(-1)) + 1;
            CrashPoint point = POINTS[random.nextInt(POINTS.length)];
            long batch = next + random.nextInt(3);
            String why = "seed " + seed + ", trial " + trial + ", " + (point == null ? "SIGKILL" : point)
                    + " at batch " + batch;
            if (point != null) {
                Process p = child(topic, point, batch);
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    throw new AssertionError(why + ": the child did not die in 60 s; stderr:\n" + stderr());
                }
                assertThat(p.exitValue()).as(why + ": " + stderr()).isEqualTo(137);
            } else {
                Process p = child(topic, CrashPoint.NONE, -1);
                assertThat(readUntilBatch(stdout(p), batch)).as(why + ": " + stderr()).isGreaterThanOrEqualTo(batch);
                p.destroyForcibly();
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(why).isTrue();
            }
            assertExactlyOnce(topic, false, why);
        }
        Process p = child(topic, CrashPoint.NONE, -1);
        long until = lastId("commits").orElse(-1) + 2;
        assertThat(readUntilBatch(stdout(p), until)).as(stderr()).isGreaterThanOrEqualTo(until);
        try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            w.write("stop\n");
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(stderr()).isZero();
        assertExactlyOnce(topic, true, "final clean run, seed " + seed);
    }

    /**
     * A read_committed reader sees batches 0..M, each batch's 100 rows once: the values [0, 100 (M + 1)) exactly
     * once. M is the last batch in commits/, or one more when the process died after the transaction committed
     * and before commits/N (that batch is re-run later, and the sink must skip it). A transaction the coordinator
     * is still completing may be visible in one partition before the other, so the check is retried briefly.
     */
    private void assertExactlyOnce(String topic, boolean clean, String why) {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<Long> values = committedValues(topic);
            long committed = lastId("commits").orElse(-1);
            assertThat(values).as(why).doesNotHaveDuplicates();
            long batches = values.size() / CrashChildMain.ROWS_PER_BATCH;
            assertThat(values.stream().sorted().toList()).as(why).containsExactlyElementsOf(
                    LongStream.range(0, batches * CrashChildMain.ROWS_PER_BATCH).boxed().toList());
            if (clean) {
                assertThat(batches - 1).as(why).isEqualTo(committed);
            } else {
                assertThat(batches - 1).as(why).isBetween(committed, committed + 1);
            }
        });
    }

    /** Every value a read_committed reader sees in the topic now; one consumer, re-read from the start. */
    private List<Long> committedValues(String topic) {
        List<TopicPartition> tps = new ArrayList<>();
        for (PartitionInfo info : reader.partitionsFor(topic)) {
            tps.add(new TopicPartition(topic, info.partition()));
        }
        reader.assign(tps);
        reader.seekToBeginning(tps);
        Map<TopicPartition, Long> end = reader.endOffsets(tps);
        List<Long> values = new ArrayList<>();
        while (tps.stream().anyMatch(tp -> reader.position(tp) < end.get(tp))) {
            reader.poll(Duration.ofMillis(200)).forEach(r -> values.add(Long.parseLong(r.value())));
        }
        return values;
    }

    private OptionalLong lastId(String log) throws IOException {
        return CrashChildMain.lastLogId(tmp.resolve("chk"), log);
    }

    private Process child(String topic, CrashPoint point, long batch) throws IOException {
        Process p = CrashChildMain.startChild(tmp.resolve("child.err"),
                List.of("-Xshare:auto", "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=error"),
                KafkaSinkCrashChild.class, tmp.resolve("chk").toString(), bootstrap, topic, point.name(),
                Long.toString(batch));
        children.add(p);
        return p;
    }

    private String stderr() throws IOException {
        Path err = tmp.resolve("child.err");
        return Files.exists(err) ? Files.readString(err) : "";
    }
}
