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
import java.util.Map;
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

    /** A real OTLP/HTTP receiver: POST /v1/metrics bodies decoded with the protocol's ExportMetricsServiceRequest. */
    private static final class Receiver implements AutoCloseable {
        final com.sun.net.httpserver.HttpServer server;
        final List<io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest> received =
                new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String> authorizations = new java.util.concurrent.CopyOnWriteArrayList<>();

        Receiver() throws java.io.IOException {
            server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/v1/metrics", ex -> {
                try (ex) {
                    received.add(io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest.parseFrom(
                            ex.getRequestBody().readAllBytes()));
                    authorizations.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
                    ex.sendResponseHeaders(200, -1);
                }
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/metrics";
        }

        /** The value of {@code metric}'s point with attribute query={@code query} in the last push. */
        double last(String metric, String query) {
            var req = received.get(received.size() - 1);
            for (var rm : req.getResourceMetricsList()) {
                for (var sm : rm.getScopeMetricsList()) {
                    for (var m : sm.getMetricsList()) {
                        if (!m.getName().equals(metric)) {
                            continue;
                        }
                        var points = m.hasGauge() ? m.getGauge().getDataPointsList() : m.getSum().getDataPointsList();
                        for (var pt : points) {
                            if (pt.getAttributesList().stream().anyMatch(kv -> kv.getKey().equals("query")
                                    && kv.getValue().getStringValue().equals(query))) {
                                return pt.hasAsDouble() ? pt.getAsDouble() : pt.getAsInt();
                            }
                        }
                    }
                }
            }
            throw new AssertionError(metric + " of " + query + " not in " + req);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Test
    void otlpEndpointPushesTheQueryMetersToACollector() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Path progress = tmp.resolve("p.jsonl");
            Cli.Result r = Cli.run("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=10",
                    "--sink", "noop", "--name", "cli_otlp", "--trigger", "availableNow", "--progress-file",
                    progress.toString(), "--otlp-endpoint", receiver.url(), "--otlp-step", "1h", "--otlp-header",
                    "Authorization=Bearer s3cret");
            assertThat(r.exitCode()).as(r.err()).isEqualTo(0);
            assertThat(r.out()).startsWith("otlp: pushing to " + receiver.url() + " every 1h\n");
            assertThat(r.out()).doesNotContain("s3cret");
            // A step of an hour: the one push is the last one, made when the query had ended.
            assertThat(receiver.received).hasSize(1);
            assertThat(receiver.authorizations).containsExactly("Bearer s3cret");
            List<String> lines = Files.readAllLines(progress);
            assertThat(lines).hasSize(1);
            assertThat(receiver.last("sluice.query.input.rows", "cli_otlp")).isEqualTo(10.0);
            assertThat(receiver.last("sluice.query.batches", "cli_otlp")).isEqualTo(1.0);
            assertThat(receiver.last("sluice.query.last.batch.id", "cli_otlp")).isEqualTo(0.0);
            assertThat(receiver.last("sluice.query.state", "cli_otlp")).isIn(0.0, 1.0);
        }
    }

    @Test
    void aPipelineFileServesAndPushesToo() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Path file = tmp.resolve("p.yaml");
            Files.writeString(file, "name: yaml_otlp\nsource: {format: rate-micro-batch, options: {rowsPerBatch: 4}}\n"
                    + "sink: {format: noop}\ntrigger: availableNow\nmetricsPort: 0\nuiPort: 0\n"
                    + "otlpEndpoint: " + receiver.url() + "\notlpStep: 1h\notlpHeaders: {Authorization: Bearer t}\n");
            Cli.Result r = Cli.run("run", file.toString());
            assertThat(r.exitCode()).as(r.err()).isEqualTo(0);
            assertThat(r.out()).containsPattern("(?m)^ui: http://127\\.0\\.0\\.1:\\d+/$")
                    .containsPattern("(?m)^metrics: http://127\\.0\\.0\\.1:\\d+/metrics, REST API: ")
                    .contains("otlp: pushing to " + receiver.url() + " every 1h\n");
            assertThat(receiver.authorizations).containsExactly("Bearer t");
            assertThat(receiver.last("sluice.query.input.rows", "yaml_otlp")).isEqualTo(4.0);
        }
    }

    @Test
    void otlpFlagsAreChecked() {
        Cli.Result step = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--otlp-step", "10s");
        assertThat(step.exitCode()).isEqualTo(2);
        assertThat(step.err()).isEqualTo("sluice: --otlp-step needs --otlp-endpoint; see 'sluice run --help'\n");
        Cli.Result header = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--otlp-header",
                "Authorization");
        assertThat(header.exitCode()).isEqualTo(2);
        assertThat(header.err()).isEqualTo("sluice: Invalid --otlp-header 'Authorization': expected KEY=VALUE; see "
                + "'sluice run --help'\n");
        Cli.Result comma = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--otlp-endpoint",
                "http://localhost:4318/v1/metrics", "--otlp-header", "X=a,b");
        assertThat(comma.exitCode()).isEqualTo(2);
        assertThat(comma.err()).isEqualTo("sluice: Invalid --otlp-header 'X=...': a header's name or value cannot "
                + "contain ','; see 'sluice run --help'\n");
        Cli.Result url = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--trigger", "once",
                "--otlp-endpoint", "localhost:4318");
        assertThat(url.exitCode()).isEqualTo(1);
        assertThat(url.err()).isEqualTo("sluice: --otlp-endpoint, --otlp-step, --otlp-header (otlpEndpoint, "
                + "otlpStep, otlpHeaders in the pipeline file): Invalid value 'localhost:4318' for option 'otlp.url': "
                + "an http or https URL is accepted, e.g. http://localhost:4318/v1/metrics\n");
        Cli.Result zero = Cli.run("run", "--source", "rate-micro-batch", "--sink", "noop", "--trigger", "once",
                "--otlp-endpoint", "http://localhost:4318/v1/metrics", "--otlp-step", "0s");
        assertThat(zero.exitCode()).isEqualTo(1);
        assertThat(zero.err()).endsWith("Invalid value '0s' for option 'otlp.step': a positive time is accepted, "
                + "e.g. 10s or 1m\n");
    }

    @Test
    void withoutTheOtlpPluginTheErrorSaysWhichJarToAdd() throws Exception {
        Path built = tmp.resolve("plugins");
        // A class loader that sees no plugin: neither the exporter nor its service file.
        try (var bare = new java.net.URLClassLoader(new java.net.URL[0], ClassLoader.getPlatformClassLoader());
             io.sluice.core.Sluice sluice = io.sluice.core.Sluice.local()) {
            assertThat(RunCommand.otlpExporter(bare)).isEmpty();
            assertThat(RunCommand.otlpExporter(MetricsFlagsTest.class.getClassLoader())).isPresent();
            Serving serve = new Serving(null, null, null, null, "http://localhost:4318/v1/metrics", null, Map.of());
            assertThat(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> RunCommand.startOtlp(sluice, bare, built, serve))).hasMessage("The OTLP export "
                    + "(--otlp-endpoint, otlpEndpoint in the pipeline file) is in the plugin sluice-otlp-plugin.jar, "
                    + "which is not in " + built + " nor in the --plugins folder: build it with `mvn -pl sluice-otlp "
                    + "-am package -DskipTests` (bin/sluice builds it with the CLI) and put "
                    + "sluice-otlp/target/sluice-otlp-plugin.jar in " + built + " or in the folder given to --plugins");
        }
    }
}
