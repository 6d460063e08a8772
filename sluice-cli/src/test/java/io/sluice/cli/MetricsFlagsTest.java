package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code sluice run --metrics-port}: /metrics and /api/v1/ while the query runs, gone when it ends. */
class MetricsFlagsTest {

    @TempDir
    Path tmp;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static double sample(String text, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
        assertThat(m.find()).as(series + " in\n" + text).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void metricsPortServesTheQueryWhileItRuns() throws Exception {
        int port = freePort();
        AtomicReference<Runnable> hook = new AtomicReference<>();
        Env env = new Env(false, 80, onShutdown -> {
            hook.set(onShutdown);
            return () -> {
            };
        });
        Path progress = tmp.resolve("p.jsonl");
        CompletableFuture<Cli.Result> run = CompletableFuture.supplyAsync(() -> Cli.run(env, "run", "--source",
                "rate-micro-batch", "--source-option", "rowsPerBatch=10", "--source-option", "numPartitions=1",
                "--sink", "noop", "--name", "cli_metrics", "--checkpoint", tmp.resolve("chk").toString(),
                "--trigger", "processingTime=50ms", "--progress-file", progress.toString(),
                "--metrics-port", Integer.toString(port)));
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(progress)
                && Files.readAllLines(progress).size() >= 2);
        HttpResponse<String> queries = get(port, "/api/v1/queries");
        assertThat(queries.statusCode()).isEqualTo(200);
        assertThat(queries.body()).contains("\"name\":\"cli_metrics\"", "\"state\":\"active\"");
        String metrics = get(port, "/metrics").body();
        String id = queries.body().replaceAll("(?s).*\"id\":\"([0-9a-f-]+)\".*", "$1");
        double rows = sample(metrics, "sluice_query_input_rows_total{query=\"cli_metrics\",query_id=\"" + id
                + "\"}");
        assertThat(rows).isGreaterThanOrEqualTo(20.0);
        assertThat(rows % 10).isEqualTo(0.0);

        hook.get().run();
        Cli.Result r = run.get(20, TimeUnit.SECONDS);
        assertThat(r.exitCode()).as(r.err()).isEqualTo(130);
        assertThat(r.out()).startsWith("metrics: http://127.0.0.1:" + port + "/metrics, REST API: http://127.0.0.1:"
                + port + "/api/v1/queries\n");
        // Every batch the progress file holds was counted by the time the query stopped: the server is gone now.
        List<String> lines = Files.readAllLines(progress);
        assertThat(lines).isNotEmpty();
        assertThat(org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> get(port, "/metrics"))).isNotNull();
    }

    @Test
    void metricsFlagsAreChecked() {
        Cli.Result host = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--metrics-host",
                "0.0.0.0");
        assertThat(host.exitCode()).isEqualTo(2);
        assertThat(host.err()).isEqualTo("sluice: --metrics-host needs --metrics-port; see 'sluice run --help'\n");
        Cli.Result port = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--metrics-port",
                "70000");
        assertThat(port.exitCode()).isEqualTo(2);
        assertThat(port.err()).isEqualTo("sluice: Invalid --metrics-port 70000: expected 0 to 65535; see 'sluice "
                + "run --help'\n");
    }

    @Test
    void aPortInUseIsOneLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Cli.Result r = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--trigger", "once",
                    "--metrics-port", Integer.toString(taken.getLocalPort()));
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).isEqualTo("sluice: --metrics-port " + taken.getLocalPort()
                    + ": Cannot serve metrics on 127.0.0.1:" + taken.getLocalPort() + ": Address already in use\n");
        }
    }

    @Test
    void uiPortServesThePageItsAssetsAndTheApiWhileTheQueryRuns() throws Exception {
        int port = freePort();
        AtomicReference<Runnable> hook = new AtomicReference<>();
        Env env = new Env(false, 80, onShutdown -> {
            hook.set(onShutdown);
            return () -> {
            };
        });
        Path progress = tmp.resolve("p.jsonl");
        CompletableFuture<Cli.Result> run = CompletableFuture.supplyAsync(() -> Cli.run(env, "run", "--source",
                "rate-micro-batch", "--source-option", "rowsPerBatch=10", "--sink", "noop", "--name", "cli_ui",
                "--trigger", "processingTime=50ms", "--progress-file", progress.toString(),
                "--ui-port", Integer.toString(port)));
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(progress)
                && !Files.readAllLines(progress).isEmpty());
        HttpResponse<String> page = get(port, "/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<script src=\"/webjars/uplot/1.6.30/dist/uPlot.iife.min.js\"></script>",
                "<script src=\"/ui/app.js\" defer></script>");
        HttpResponse<String> uplot = get(port, "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js");
        assertThat(uplot.statusCode()).isEqualTo(200);
        assertThat(uplot.body()).contains("uPlot");
        assertThat(get(port, "/webjars/uplot/1.6.30/dist/uPlot.esm.js").statusCode()).isEqualTo(404);
        assertThat(get(port, "/api/v1/queries").body()).contains("\"name\":\"cli_ui\"");

        hook.get().run();
        Cli.Result r = run.get(20, TimeUnit.SECONDS);
        assertThat(r.exitCode()).as(r.err()).isEqualTo(130);
        assertThat(r.out()).startsWith("ui: http://127.0.0.1:" + port + "/\n");
    }

    @Test
    void uiFlagsAreChecked() {
        Cli.Result host = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--ui-host", "0.0.0.0");
        assertThat(host.exitCode()).isEqualTo(2);
        assertThat(host.err()).isEqualTo("sluice: --ui-host needs --ui-port; see 'sluice run --help'\n");
        Cli.Result port = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--ui-port", "-1");
        assertThat(port.exitCode()).isEqualTo(2);
        assertThat(port.err()).isEqualTo("sluice: Invalid --ui-port -1: expected 0 to 65535; see 'sluice run --help'\n");
    }
}
