package io.sluice.kafka;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.sources.MemoryStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Brokers that do not answer: the source, the sink and one-off reads fail within the documented bound with a
 * message naming the bootstrap servers, and a stop or an interrupt ends a Kafka call in flight at once.
 */
class KafkaUnreachableBrokersTest extends KafkaTestBase {
    private static final String NODE_TIMEOUT = "org.apache.kafka.common.errors.TimeoutException: Timed out waiting"
            + " for a node assignment. Call: ";

    /** A port nothing listens on: bound, then closed. */
    private static String closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "localhost:" + s.getLocalPort();
        }
    }

    private static String unreachable(String servers, String timeout, String setting, String call) {
        return "Could not reach the Kafka brokers at " + servers + " (kafka.bootstrap.servers) within " + timeout
                + " (" + setting + "): " + NODE_TIMEOUT + call;
    }

    @Test
    void theDefaultBoundOnEveryCallIs30Seconds() {
        KafkaSourceOptions source = KafkaSourceOptions.parse(Options.of(Map.of("kafka.bootstrap.servers", "h:1",
                "subscribe", "t")));
        assertThat(source.target()).isEqualTo(new KafkaCalls.Target("h:1", "kafka.bootstrap.servers", 30_000,
                "kafka.default.api.timeout.ms"));
        assertThat(KafkaMicroBatchStream.consumerParams(source, "g"))
                .containsEntry(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        KafkaSinkOptions sink = KafkaSinkOptions.parse(Options.of(Map.of("kafka.bootstrap.servers", "h:1")));
        assertThat(sink.target()).isEqualTo(new KafkaCalls.Target("h:1", "kafka.bootstrap.servers", 30_000,
                "kafka.max.block.ms"));
        assertThat(sink.producerParams()).containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000L);

        KafkaSinkOptions own = KafkaSinkOptions.parse(Options.of(Map.of("kafka.bootstrap.servers", "h:1",
                "kafka.max.block.ms", "5000")));
        assertThat(own.producerParams()).containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000L);
        // The Admin client gets no default.api.timeout.ms: each call carries it (a value below request.timeout.ms
        // would stop the Admin client from starting).
        assertThat(KafkaClientOptions.adminParams(Map.of("bootstrap.servers", "h:1", "default.api.timeout.ms", "1")))
                .isEqualTo(Map.of("bootstrap.servers", "h:1"));
        assertThatThrownBy(() -> KafkaSourceOptions.parse(Options.of(Map.of("kafka.bootstrap.servers", "h:1",
                "subscribe", "t", "kafka.default.api.timeout.ms", "0"))))
                .hasMessage("Invalid value '0' for option 'kafka.default.api.timeout.ms': a time-out in milliseconds"
                        + " from 1 to 2147483647 is accepted");
    }

    @Test
    void aStreamingQueryFailsWithinTheTimeoutWithoutRetryingIt() throws Exception {
        String servers = closedPort();
        long started = System.nanoTime();
        // Three retries of a 1.5 s call would take 6 s: a time-out is not retried.
        StreamingQuery q = sluice.readStream().format("kafka").option("kafka.bootstrap.servers", servers)
                .option("subscribe", "t").option("kafka.default.api.timeout.ms", "1500").load()
                .writeStream().format("noop").option("checkpointLocation", tmp.resolve("chk").toString()).start();
        assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(KafkaUnreachableException.class)
                .hasMessage(unreachable(servers, "1500 ms", "kafka.default.api.timeout.ms", "listTopics"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(5_500));
    }

    @Test
    void aOneOffReadFailsWithinTheTimeout() throws Exception {
        String servers = closedPort();
        assertThatThrownBy(() -> sluice.read().format("kafka").option("kafka.bootstrap.servers", servers)
                .option("subscribe", "t").option("kafka.default.api.timeout.ms", "1000").load().count())
                .isInstanceOf(KafkaUnreachableException.class)
                .hasMessage(unreachable(servers, "1 s", "kafka.default.api.timeout.ms", "listTopics"));
    }

    @Test
    void bothSinksFailTheirFirstBatchWithinMaxBlockMs() throws Exception {
        String servers = closedPort();
        for (String exactlyOnce : new String[] {"false", "true"}) {
            MemoryStream input = MemoryStream.create(StructType.fromDDL("value string"));
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("kafka").option("kafka.bootstrap.servers", servers).option("topic", "t")
                    .option("exactlyOnce", exactlyOnce).option("kafka.max.block.ms", "1500")
                    .option("checkpointLocation", tmp.resolve("sink-" + exactlyOnce).toString()).start();
            input.addData(Row.of("a"));
            assertThatThrownBy(q::awaitTermination).as("exactlyOnce=" + exactlyOnce)
                    .isInstanceOf(StreamingQueryException.class).cause()
                    .isInstanceOf(KafkaUnreachableException.class)
                    .hasMessage(unreachable(servers, "1500 ms", "kafka.max.block.ms", "listNodes"));
        }
    }

    @Test
    void stoppingTheStreamEndsALookUpInFlight() throws Exception {
        KafkaMicroBatchStream s = stream(closedPort());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                s.initialOffset();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "initial-offset");
        t.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> insideKafkaCall(t));
        s.stop();
        await().atMost(Duration.ofSeconds(3)).until(() -> !t.isAlive());
        assertThat(failure.get()).isInstanceOf(IllegalStateException.class)
                .hasMessage("The Kafka source was stopped while trying to list partitions");
    }

    @Test
    void anInterruptEndsALookUpAtOnceAndKeepsTheFlag() throws Exception {
        KafkaMicroBatchStream s = stream(closedPort());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                s.initialOffset();
            } catch (Throwable e) {
                failure.set(e);
                flag.set(Thread.currentThread().isInterrupted());
            }
        }, "initial-offset");
        try {
            t.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> insideKafkaCall(t));
            t.interrupt();
            await().atMost(Duration.ofSeconds(3)).until(() -> !t.isAlive());
            assertThat(failure.get()).isInstanceOf(InterruptException.class)
                    .hasMessage("Interrupted while trying to list topics");
            assertThat(flag.get()).isTrue();
        } finally {
            s.stop();
        }
    }

    @Test
    void stoppingTheStreamWakesUpAReaderWaitingForRecords() throws Exception {
        String topic = createTopic("wakeup", 1);
        KafkaMicroBatchStream s = stream(bootstrap, "subscribe", topic);
        // Offsets 0-4 do not exist yet: the reader polls for up to kafkaConsumer.pollTimeoutMs (120 s).
        PartitionReader r = s.createReader(new KafkaInputPartition(new TopicPartition(topic, 0), 0, 5));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                r.next();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "reader");
        t.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> Arrays.stream(t.getStackTrace())
                .anyMatch(f -> f.getMethodName().equals("poll") && f.getClassName().contains("Consumer")));
        s.stop();
        await().atMost(Duration.ofSeconds(3)).until(() -> !t.isAlive());
        r.close();
        assertThat(failure.get()).isInstanceOf(InterruptedIOException.class)
                .hasMessage("The Kafka source was stopped while reading " + topic + "-0");
    }

    @Test
    void stopWhileTheSourceWaitsForBrokersEndsTheQueryWithinSeconds() throws Exception {
        StreamingQuery q = sluice.readStream().format("kafka").option("kafka.bootstrap.servers", closedPort())
                .option("subscribe", "t").load()
                .writeStream().format("noop").queryName("unreachable-source")
                .option("checkpointLocation", tmp.resolve("chk").toString()).start();
        assertStopsWithinSeconds(q, "unreachable-source");
    }

    @Test
    void stopWhileTheSinkWaitsForBrokersEndsTheQueryWithinSeconds() throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("value string"));
        StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream().format("kafka").queryName("unreachable-sink")
                .option("kafka.bootstrap.servers", closedPort()).option("topic", "t")
                .option("checkpointLocation", tmp.resolve("chk").toString()).start();
        input.addData(Row.of("a"));
        assertStopsWithinSeconds(q, "unreachable-sink");
    }

    /**
     * With the default bound (30 s) on each Kafka call, {@code stop()} does not wait the call out: the engine's
     * stop interrupts the query thread after its grace period (5 s by default), the call ends at once, and the
     * query ends stopped, not failed.
     */
    private static void assertStopsWithinSeconds(StreamingQuery q, String name) {
        await().atMost(Duration.ofSeconds(10)).until(() -> queryThread(name),
                o -> o.isPresent() && insideKafkaCall(o.get()));
        Thread stopper = new Thread(q::stop, "stopper");
        stopper.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> !stopper.isAlive() && !q.isActive());
        assertThat(q.exception()).isEmpty();
    }

    private static Optional<Thread> queryThread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("sluice-query-" + name))
                .findFirst();
    }

    private static boolean insideKafkaCall(Thread t) {
        return Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().equals(KafkaCalls.class.getName()));
    }

    private KafkaMicroBatchStream stream(String servers, String... kv) {
        Map<String, String> o = new HashMap<>(Map.of("kafka.bootstrap.servers", servers, "subscribe", "t"));
        for (int i = 0; i < kv.length; i += 2) {
            o.put(kv[i], kv[i + 1]);
        }
        return (KafkaMicroBatchStream) new KafkaSourceProvider().createStream(new StreamContext(Options.of(o),
                KafkaSourceProvider.SCHEMA, tmp, SluiceClock.system(), "q", 0));
    }
}
