package io.sluice.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.core.Sluice;
import io.sluice.core.UiProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * An HTTP server of one {@link Sluice} instance on the JDK's {@code com.sun.net.httpserver}: {@code GET /metrics}
 * (Prometheus text format, or OpenMetrics when the {@code Accept} header asks for {@code application/openmetrics-text})
 * and the JSON REST API under {@code /api/v1/} (docs/rest-api.md). It has a Prometheus registry of its own with
 * {@link SluiceMetrics} and the JVM's binders bound.
 *
 * <p>Every response is rendered at request time on the server's own two daemon threads
 * ({@code sluice-metrics-http-N}); a failing request answers 500 and never reaches a query. {@link #close()} stops the
 * server, joins its threads and removes its meters and listener.
 */
public final class SluiceServer implements UiProvider.Server {

    private static final Logger LOG = LoggerFactory.getLogger(SluiceServer.class);

    /** The Prometheus text format 0.0.4 content type. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    /** The OpenMetrics 1.0.0 text format content type. */
    public static final String OPENMETRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService threads;
    private final PrometheusMeterRegistry registry;
    private final SluiceMetrics metrics;
    private final AutoCloseable jvm;
    private final RestApi api;
    private final UnaryOperator<String> redact;
    private final List<Thread> started;
    private final boolean ui;

    private SluiceServer(HttpServer server, ExecutorService threads, List<Thread> started,
                         PrometheusMeterRegistry registry,
                         SluiceMetrics metrics, AutoCloseable jvm, UnaryOperator<String> redact, boolean ui) {
        this.ui = ui;
        this.redact = redact;
        this.started = started;
        this.server = server;
        this.threads = threads;
        this.registry = registry;
        this.metrics = metrics;
        this.jvm = jvm;
        this.api = new RestApi(metrics.sluice(), metrics.tracker());
    }

    /** Starts a server on {@code host:port} (port 0: any free port) keeping 100 progress objects per query run. */
    public static SluiceServer start(Sluice sluice, String host, int port) {
        return start(sluice, host, port, SluiceMetrics.DEFAULT_RECENT_PROGRESS);
    }

    /**
     * Starts a server on {@code host:port}.
     *
     * @param recentProgress how many progress objects of each query run the API keeps ({@code progress/recent})
     * @throws UncheckedIOException when the address cannot be bound
     */
    public static SluiceServer start(Sluice sluice, String host, int port, int recentProgress) {
        return start(sluice, host, port, recentProgress, null);
    }

    /**
     * As {@link #start(Sluice, String, int, int)}, with every response's text passed through {@code redact} before
     * it is sent: the progress holds no option values, but a query's failure (the API's {@code exception}) is the
     * message its source or sink threw, and some echo a secret value in it. The command line passes its masking of
     * the pipeline's secret options.
     *
     * @param redact null for none
     */
    public static SluiceServer start(Sluice sluice, String host, int port, int recentProgress,
                                     UnaryOperator<String> redact) {
        return start(sluice, host, port, recentProgress, redact, false);
    }

    /** As above; {@code ui}: also serve the web UI ({@link SluiceUi}) at {@code /}. */
    static SluiceServer start(Sluice sluice, String host, int port, int recentProgress,
                              UnaryOperator<String> redact, boolean ui) {
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        AtomicInteger n = new AtomicInteger();
        List<Thread> started = new CopyOnWriteArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "sluice-metrics-http-" + n.incrementAndGet());
            t.setDaemon(true);
            started.add(t);
            return t;
        });
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SluiceMetrics metrics = SluiceMetrics.bind(sluice, registry, recentProgress);
        AutoCloseable jvm = SluiceMetrics.bindJvm(registry);
        SluiceServer s = new SluiceServer(http, threads, started, registry, metrics, jvm, redact, ui);
        http.setExecutor(threads);
        http.createContext("/", s::handle);
        http.start();
        return s;
    }

    /** The bound address (with the actual port when 0 was asked). */
    @Override
    public InetSocketAddress address() {
        return server.getAddress();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The meters' binding, whose tracker the API reads (tests post listener events to it). */
    SluiceMetrics metrics() {
        return metrics;
    }

    /** The server's registry, to add meters of one's own to {@code /metrics}. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            if (!"GET".equals(ex.getRequestMethod()) && !"HEAD".equals(ex.getRequestMethod())) {
                ex.getResponseHeaders().set("Allow", "GET, HEAD");
                send(ex, 405, RestApi.JSON, RestApi.error("Only GET is supported"));
                return;
            }
            if (ui) {
                UiAssets.Asset asset = UiAssets.find(path);
                if (asset != null) {
                    // The page may load only from this server: a second guard, besides the assets naming no other.
                    ex.getResponseHeaders().set("Content-Security-Policy",
                            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
                    send(ex, 200, asset.contentType(), asset.bytes());
                    return;
                }
            }
            RestApi.Response r;
            try {
                if ("/metrics".equals(path)) {
                    String accept = ex.getRequestHeaders().getFirst("Accept");
                    String type = accept != null && accept.contains("application/openmetrics-text")
                            ? OPENMETRICS_TEXT : PROMETHEUS_TEXT;
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    registry.scrape(out, type);
                    r = new RestApi.Response(200, type, out.toByteArray());
                } else {
                    r = api.answer(path);
                }
            } catch (RuntimeException | IOException e) {
                LOG.warn("{} {} failed", ex.getRequestMethod(), path, e);
                r = new RestApi.Response(500, RestApi.JSON, RestApi.error("Internal error: " + e));
            }
            byte[] body = r.body();
            if (redact != null) {
                body = utf8(redact.apply(new String(body, StandardCharsets.UTF_8)));
            }
            send(ex, r.status(), r.contentType(), body);
        }
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(ex.getRequestMethod());
        ex.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        }
    }

    /** Stops accepting, waits up to a second for exchanges in flight, joins the threads, removes the meters. */
    @Override
    public void close() {
        server.stop(1);
        threads.shutdown();
        try {
            if (!threads.awaitTermination(5, TimeUnit.SECONDS)) {
                threads.shutdownNow();
                threads.awaitTermination(5, TimeUnit.SECONDS);
            }
            // The pool is terminated once its workers are done; join them so none is left when close() returns.
            for (Thread t : started) {
                t.join(5_000);
            }
        } catch (InterruptedException e) {
            threads.shutdownNow();
            Thread.currentThread().interrupt();
        }
        metrics.close();
        try {
            jvm.close();
        } catch (Exception e) {
            LOG.debug("Closing the JVM binders failed", e);
        }
        registry.close();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
