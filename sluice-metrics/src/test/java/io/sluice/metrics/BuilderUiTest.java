package io.sluice.metrics;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@code Sluice.builder().ui(port)}: the UI found through ServiceLoader, serving from build() until close(). */
class BuilderUiTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpResponse<String> get(InetSocketAddress at, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long httpThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sluice-metrics-http-")).count();
    }

    @Test
    void theBuilderServesTheUiUntilClose(@TempDir Path dir) throws Exception {
        long before = httpThreads();
        InetSocketAddress at;
        try (Sluice sluice = Sluice.builder().ui(0).build()) {
            at = sluice.uiAddress().orElseThrow();
            assertThat(at.getAddress().getHostAddress()).isEqualTo("127.0.0.1");
            assertThat(at.getPort()).isPositive();
            HttpResponse<String> page = get(at, "/");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<script src=\"/ui/app.js\" defer></script>");
            StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3).load()
                    .writeStream().format("noop").queryName("built_ui")
                    .option("checkpointLocation", dir.resolve("chk").toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            await().atMost(Duration.ofSeconds(20)).until(() -> get(at, "/api/v1/queries/" + q.id()).body()
                    .contains("\"numInputRows\":3"));
            assertThat(get(at, "/api/v1/queries").body()).contains("\"name\":\"built_ui\"");
            assertThat(httpThreads()).isGreaterThan(before);
        }
        // close() stopped the server and joined its threads.
        assertThatThrownBy(() -> get(at, "/")).isInstanceOf(IOException.class);
        assertThat(httpThreads()).isEqualTo(before);
    }

    @Test
    void aHostAndAPortInUse() throws Exception {
        try (Sluice sluice = Sluice.builder().ui("localhost", 0).build()) {
            assertThat(sluice.uiAddress().orElseThrow().getAddress().isLoopbackAddress()).isTrue();
        }
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> Sluice.builder().ui(taken.getLocalPort()).build())
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessage("Cannot serve metrics on 127.0.0.1:" + taken.getLocalPort()
                            + ": Address already in use");
        }
    }
}
