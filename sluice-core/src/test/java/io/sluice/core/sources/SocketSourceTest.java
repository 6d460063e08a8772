package io.sluice.core.sources;

import io.sluice.core.ManualClock;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.source.MicroBatchStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class SocketSourceTest {
    private final SocketSourceProvider provider = new SocketSourceProvider();
    private final ManualClock clock = new ManualClock(1_000);
    private ServerSocket server;
    private Socket client;
    private MicroBatchStream stream;

    @TempDir
    Path dir;

    @BeforeEach
    void listen() throws IOException {
        server = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"));
    }

    @AfterEach
    void close() throws IOException {
        if (stream != null) {
            stream.stop();
        }
        if (client != null) {
            client.close();
        }
        server.close();
    }

    private MicroBatchStream connect(Map<String, String> extra) throws IOException {
        Map<String, String> opts = new HashMap<>(extra);
        opts.put("host", "127.0.0.1");
        opts.put("port", Integer.toString(server.getLocalPort()));
        stream = StreamDriver.create(provider, opts, dir, clock);
        client = server.accept();
        return stream;
    }

    private void send(String text) throws IOException {
        OutputStream out = client.getOutputStream();
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void awaitOffset(MicroBatchStream s, Offset start, String expected) {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            Offset o = s.latestOffset(start, ReadLimit.allAvailable());
            return o != null && o.json().equals(expected);
        });
    }

    @Test
    void readsLinesAndCountsThemAsTheOffset() throws Exception {
        MicroBatchStream s = connect(Map.of("numPartitions", "1"));
        Offset start = s.initialOffset();
        assertThat(start.json()).isEqualTo("0");
        Offset none = s.latestOffset(start, ReadLimit.allAvailable());
        assertThat(none == null || none.json().equals("0")).isTrue();

        send("hello\nwörld\n");
        awaitOffset(s, start, "2");
        Offset two = s.deserializeOffset("2");
        assertThat(StreamDriver.readPartitions(s, start, two))
                .containsExactly(List.of(Row.of("hello"), Row.of("wörld")));
        // replayable until committed
        assertThat(StreamDriver.read(s, start, two)).containsExactly(Row.of("hello"), Row.of("wörld"));

        s.commit(two);
        send("third\n");
        awaitOffset(s, two, "3");
        assertThat(StreamDriver.read(s, two, s.deserializeOffset("3"))).containsExactly(Row.of("third"));
        assertThat(s.description()).isEqualTo("TextSocketV2[host: 127.0.0.1, port: " + server.getLocalPort() + "]");
    }

    @Test
    void includeTimestampAddsTheTimeTheLineWasRead() throws Exception {
        assertThat(provider.resolveSchema(options(Map.of("includeTimestamp", "true")), Optional.empty())
                .simpleString()).isEqualTo("struct<value:string,timestamp:timestamp>");
        assertThat(provider.resolveSchema(options(Map.of()), Optional.empty()).simpleString())
                .isEqualTo("struct<value:string>");

        MicroBatchStream s = connect(Map.of("includeTimestamp", "TRUE", "numPartitions", "1"));
        clock.set(5_000);
        send("a\n");
        awaitOffset(s, s.initialOffset(), "1");
        clock.set(7_000);
        send("b\n");
        awaitOffset(s, s.initialOffset(), "2");
        assertThat(StreamDriver.read(s, s.initialOffset(), s.deserializeOffset("2"))).containsExactly(
                Row.of("a", Instant.ofEpochMilli(5_000)), Row.of("b", Instant.ofEpochMilli(7_000)));
    }

    @Test
    void linesAreDealtRoundRobinOverPartitions() throws Exception {
        MicroBatchStream s = connect(Map.of("numPartitions", "2"));
        send("l1\nl2\nl3\n");
        awaitOffset(s, s.initialOffset(), "3");
        assertThat(StreamDriver.readPartitions(s, s.initialOffset(), s.deserializeOffset("3")))
                .containsExactly(List.of(Row.of("l1"), Row.of("l3")), List.of(Row.of("l2")));
    }

    @Test
    void stopClosesTheSocketAndEndsTheReaderThread() throws Exception {
        connect(Map.of());
        Thread reader = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("sluice-socket-reader-127.0.0.1:" + server.getLocalPort()))
                .findFirst().orElseThrow();
        assertThat(reader.isDaemon()).isTrue();
        stream.stop();
        stream = null;
        await().atMost(Duration.ofSeconds(10)).until(() -> !reader.isAlive());
        // the server sees the connection closed
        assertThat(client.getInputStream().read()).isEqualTo(-1);
    }

    @Test
    void theReaderEndsWhenThePeerClosesTheConnection() throws Exception {
        SocketStream s = (SocketStream) connect(Map.of("numPartitions", "1"));
        send("last\n");
        client.close();
        client = null;
        await().atMost(Duration.ofSeconds(10)).until(() -> !s.readerAlive());
        awaitOffset(s, s.initialOffset(), "1");
        assertThat(StreamDriver.read(s, s.initialOffset(), s.deserializeOffset("1"))).containsExactly(Row.of("last"));
    }

    @Test
    void aBatchLoggedByAnEarlierRunReadsNothingAndNewLinesFollowIt() throws Exception {
        MicroBatchStream s = connect(Map.of("numPartitions", "1"));
        send("new\n");
        // a restart re-runs logged batch (5, 7] first: those lines died with the earlier run
        assertThat(StreamDriver.read(s, s.deserializeOffset("5"), s.deserializeOffset("7"))).isEmpty();
        Offset seven = s.deserializeOffset("7");
        awaitOffset(s, seven, "8");
        assertThat(StreamDriver.read(s, seven, s.deserializeOffset("8"))).containsExactly(Row.of("new"));
    }

    @Test
    void connectionFailureNamesTheAddress() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        Map<String, String> opts = Map.of("host", "127.0.0.1", "port", Integer.toString(port));
        assertThatThrownBy(() -> StreamDriver.create(provider, opts, dir, clock))
                .hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void optionErrorsAreSparks() {
        assertInvalid(Map.of("port", "9999"), "host", null, "Set a host to read from with option(\"host\", ...).");
        assertInvalid(Map.of("host", "localhost"), "port", null, "Set a port to read from with option(\"port\", ...).");
        assertInvalid(Map.of("host", "localhost", "port", "1", "includeTimestamp", "yes"), "includeTimestamp", "yes",
                "includeTimestamp must be set to either \"true\" or \"false\"");
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(Map.of("host", "h", "port", "http")),
                Optional.empty())).isInstanceOf(InvalidOptionException.class).hasMessageContaining("'port'");
    }

    private static Options options(Map<String, String> extra) {
        Map<String, String> opts = new HashMap<>(extra);
        opts.put("host", "localhost");
        opts.put("port", "9999");
        return Options.of(opts);
    }

    private void assertInvalid(Map<String, String> options, String option, String value, String message) {
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(options), Optional.empty()))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo(message);
                    assertThat(e.option()).isEqualTo(option);
                    assertThat(e.value()).isEqualTo(value);
                });
    }

    @Test
    void aResumedQuerysRecommitOfTheLastBatchDropsNoLineOfTheNewRun() throws IOException {
        MicroBatchStream s = connect(Map.of("numPartitions", "1"));
        send("n1\nn2\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> ((SocketStream) s).bufferedLineCount() == 2);
        // The engine resumes after a batch that ended at 5 and commits that end again, before anything else.
        s.commit(new LongOffset(5));
        assertThat(s.latestOffset(new LongOffset(5), ReadLimit.allAvailable())).isEqualTo(new LongOffset(7));
        assertThat(StreamDriver.read(s, new LongOffset(5), new LongOffset(7))).containsExactly(Row.of("n1"), Row.of("n2"));
    }
}
