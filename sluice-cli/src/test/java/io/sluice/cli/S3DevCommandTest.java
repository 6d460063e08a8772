package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class S3DevCommandTest {

    @TempDir
    Path tmp;

    @Test
    void devServesS3WithConditionalWritesUntilCtrlC() throws Exception {
        AtomicReference<Runnable> ctrlC = new AtomicReference<>();
        Env env = new Env(false, 80, onShutdown -> {
            ctrlC.set(onShutdown);
            return () -> {
            };
        });
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        AtomicReference<Cli.Result> result = new AtomicReference<>();
        Path dir = tmp.resolve("s3");
        Thread t = new Thread(() -> result.set(Cli.run(env, "s3", "dev", "--port", String.valueOf(port), "--dir",
                dir.toString())), "s3-dev-test");
        t.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> ctrlC.get() != null);
        String endpoint = "http://localhost:" + port;
        try {
            HttpClient http = HttpClient.newHttpClient();
            assertThat(http.send(HttpRequest.newBuilder(URI.create(endpoint + "/dev-bucket"))
                    .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode()).isEqualTo(200);
            HttpRequest put = HttpRequest.newBuilder(URI.create(endpoint + "/dev-bucket/k")).header("If-None-Match", "*")
                    .PUT(HttpRequest.BodyPublishers.ofString("v")).build();
            assertThat(http.send(put, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
            assertThat(http.send(put, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(412);
        } finally {
            ctrlC.get().run();
            t.join(30_000);
        }
        assertThat(result.get().exitCode()).as(result.get().err()).isZero();
        assertThat(result.get().out()).isEqualTo("S3 server running: endpoint " + endpoint + " (buckets in "
                + dir.toAbsolutePath().normalize() + "). Ctrl-C stops it.\n"
                + "Settings: fs.s3a.endpoint=" + endpoint + " fs.s3a.path.style.access=true fs.s3a.access.key=dev "
                + "fs.s3a.secret.key=dev (any credentials are accepted)\n"
                + "Try: sluice run --conf fs.s3a.endpoint=" + endpoint + " ... (see docs/object-stores.md)\n"
                + "S3 server stopped.\n");
    }

    @Test
    void devOnABusyPortSaysSoInOneLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.Result r = Cli.run("s3", "dev", "--port", String.valueOf(taken.getLocalPort()), "--dir",
                    tmp.resolve("d").toString());
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).isEqualTo("sluice: port " + taken.getLocalPort() + " is already in use; choose"
                    + " another with --port PORT\n");
        }
    }

    @Test
    void aMissingServerFolderSaysHowToBuildIt() {
        Path none = tmp.resolve("nowhere");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> S3ServerPlugin.start(
                new ClassLoader(null) { }, none, tmp.resolve("x"), 0)))
                .hasMessage(S3ServerPlugin.missing(none));
    }
}
