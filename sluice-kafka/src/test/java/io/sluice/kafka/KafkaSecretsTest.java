package io.sluice.kafka;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.DataStreamReader;
import io.sluice.core.StderrCapture;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Secret client settings ({@code kafka.sasl.jaas.config}, {@code kafka.ssl.key.password}) never appear in what the
 * source and the sink log, report as progress, throw, or write to the checkpoint ({@code sluice checkpoint show}
 * prints only what the checkpoint holds).
 */
class KafkaSecretsTest extends KafkaTestBase {
    private static final String JAAS_SECRET = "jaas-pw-7f3a9c";
    private static final String KEY_PASSWORD = "key-pw-41d2e8";
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"alice\" password=\"" + JAAS_SECRET + "\";";

    @RegisterExtension
    final StderrCapture log = new StderrCapture();

    private static Map<String, String> secrets() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kafka.sasl.jaas.config", JAAS);
        m.put("kafka.ssl.key.password", KEY_PASSWORD);
        return m;
    }

    @Test
    void aWorkingSourceAndSinkKeepSecretsOutOfLogsProgressAndCheckpoints() throws Exception {
        String in = createTopic("secret-in", 1);
        String out = createTopic("secret-out", 1);
        sendRange(in, 0, 0, 3);
        DataStreamReader reader = kafka().option("subscribe", in).option("startingOffsets", "earliest")
                .option("commitOffsetsToGroup", "secret-" + in).option("kafka.group.id", "secret-" + in)
                .options(secrets());
        StreamingQuery read = toMemory(reader.load(), tmp.resolve("read"), Trigger.availableNow());
        read.awaitTermination();
        assertThat(received()).hasSize(3);

        MemoryStream input = MemoryStream.create(StructType.fromDDL("value string"));
        StreamingQuery write = sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream().format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", out)
                .option("exactlyOnce", "true").options(secrets())
                .option("checkpointLocation", tmp.resolve("write").toString()).start();
        input.addData(Row.of("a"), Row.of("b"));
        write.processAllAvailable();
        write.stop();
        assertThat(KafkaTestTopics.committedValues(out)).containsExactly("a", "b");

        StringBuilder seen = new StringBuilder();
        for (StreamingQuery q : new StreamingQuery[] {read, write}) {
            seen.append(q).append(q.status());
            q.recentProgress().stream().map(StreamingQueryProgress::prettyJson).forEach(seen::append);
        }
        seen.append(checkpointFiles(tmp));
        seen.append(log.text());
        // The group id warning shows that the logs are captured.
        assertThat(seen.toString()).contains(in, "\"numInputRows\" : 3", "Kafka option 'kafka.group.id' has been set")
                .doesNotContain(JAAS_SECRET, KEY_PASSWORD);
    }

    @Test
    void failingConnectionsKeepSecretsOutOfErrorsAndLogs() throws Exception {
        String unreachable = "localhost:" + freePort();
        StreamingQuery source = sluice.readStream().format("kafka").option("kafka.bootstrap.servers", unreachable)
                .option("subscribe", "t").option("fetchOffset.numRetries", "0")
                .option("kafka.default.api.timeout.ms", "1500").option("kafka.request.timeout.ms", "1000")
                .options(secrets()).load().writeStream().format("noop")
                .option("checkpointLocation", tmp.resolve("source").toString()).start();
        StringBuilder seen = new StringBuilder();
        assertThatThrownBy(source::awaitTermination).satisfies(e -> seen.append(stackTrace(e)));

        MemoryStream input = MemoryStream.create(StructType.fromDDL("value string"));
        StreamingQuery sink = sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream().format("kafka").option("kafka.bootstrap.servers", unreachable).option("topic", "t")
                .option("kafka.max.block.ms", "1000").options(secrets())
                .option("checkpointLocation", tmp.resolve("sink").toString()).start();
        input.addData(Row.of("a"));
        assertThatThrownBy(sink::processAllAvailable).satisfies(e -> seen.append(stackTrace(e)));

        // A client that cannot even be built (SASL with a JAAS entry missing its final semicolon).
        Map<String, String> bad = new LinkedHashMap<>(secrets());
        bad.put("kafka.sasl.jaas.config", JAAS.substring(0, JAAS.length() - 1));
        bad.put("kafka.security.protocol", "SASL_PLAINTEXT");
        bad.put("kafka.sasl.mechanism", "PLAIN");
        // Both fail as the client is created: the source when the query starts, the sink at its first batch.
        assertThatThrownBy(() -> kafka().option("subscribe", "t").options(bad).load().writeStream().format("noop")
                .option("checkpointLocation", tmp.resolve("bad-source").toString()).start().awaitTermination())
                .hasRootCauseMessage("JAAS config entry not terminated by semi-colon")
                .satisfies(e -> seen.append(stackTrace(e)));
        StreamingQuery badSink = sluice.readStream().format("memory").option("name", input.name()).load()
                .writeStream().format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", "t")
                .options(bad).option("checkpointLocation", tmp.resolve("bad-sink").toString()).start();
        assertThatThrownBy(badSink::processAllAvailable).hasRootCauseMessage("JAAS config entry not terminated by"
                + " semi-colon").satisfies(e -> seen.append(stackTrace(e)));

        seen.append(checkpointFiles(tmp)).append(log.text());
        assertThat(seen.toString()).contains("Could not reach the Kafka brokers at " + unreachable
                        + " (kafka.bootstrap.servers) within 1500 ms (kafka.default.api.timeout.ms)",
                "Could not reach the Kafka brokers at " + unreachable + " (kafka.bootstrap.servers) within 1 s"
                        + " (kafka.max.block.ms)").doesNotContain(JAAS_SECRET, KEY_PASSWORD);
    }

    private static String stackTrace(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /** Everything the checkpoints under {@code dir} hold: all that {@code sluice checkpoint show} could print. */
    private static String checkpointFiles(Path dir) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                all.append(f).append('\n').append(Files.readString(f, StandardCharsets.ISO_8859_1)).append('\n');
            }
        }
        return all.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
