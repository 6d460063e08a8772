package io.sluice.otlp;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * A real OTLP/HTTP metrics receiver on the JDK's HTTP server: {@code POST /v1/metrics} bodies decoded with the
 * protocol's own {@link ExportMetricsServiceRequest}, as a collector does; it answers 200 with an empty
 * {@code ExportMetricsServiceResponse}. Anything else answers 404.
 */
final class OtlpReceiver implements AutoCloseable {

    /** One request as received: its headers of interest and the decoded body. */
    record Received(String contentType, Map<String, String> headers, ExportMetricsServiceRequest request) {
    }

    private final HttpServer server;
    final List<Received> received = new CopyOnWriteArrayList<>();

    OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            try (ex) {
                if (!"POST".equals(ex.getRequestMethod()) || !"/v1/metrics".equals(ex.getRequestURI().getPath())) {
                    ex.sendResponseHeaders(404, -1);
                    return;
                }
                InputStream in = ex.getRequestBody();
                if ("gzip".equalsIgnoreCase(ex.getRequestHeaders().getFirst("Content-Encoding"))) {
                    in = new GZIPInputStream(in);
                }
                ExportMetricsServiceRequest req = ExportMetricsServiceRequest.parseFrom(in.readAllBytes());
                Map<String, String> headers = new HashMap<>();
                ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT),
                        String.join(",", v)));
                received.add(new Received(ex.getRequestHeaders().getFirst("Content-Type"), headers, req));
                byte[] ok = io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse
                        .getDefaultInstance().toByteArray();
                ex.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                ex.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
                if (ok.length > 0) {
                    ex.getResponseBody().write(ok);
                }
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/metrics";
    }

    /** Every metric of the last request, by name. */
    Map<String, Metric> lastMetrics() {
        Map<String, Metric> out = new HashMap<>();
        ExportMetricsServiceRequest req = received.get(received.size() - 1).request();
        for (ResourceMetrics rm : req.getResourceMetricsList()) {
            for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                for (Metric m : sm.getMetricsList()) {
                    out.put(m.getName(), m);
                }
            }
        }
        return out;
    }

    /** The data points of a gauge or sum. */
    static List<NumberDataPoint> points(Metric m) {
        return m.hasGauge() ? m.getGauge().getDataPointsList() : m.getSum().getDataPointsList();
    }

    /** A point's attributes as text. */
    static Map<String, String> attributes(NumberDataPoint p) {
        Map<String, String> out = new HashMap<>();
        for (KeyValue kv : p.getAttributesList()) {
            out.put(kv.getKey(), kv.getValue().getStringValue());
        }
        return out;
    }

    /** The value of the one point of {@code m} whose attributes include {@code attrs}. */
    static double value(Metric m, Map<String, String> attrs) {
        List<NumberDataPoint> match = new ArrayList<>();
        for (NumberDataPoint p : points(m)) {
            if (attributes(p).entrySet().containsAll(attrs.entrySet())) {
                match.add(p);
            }
        }
        if (match.size() != 1) {
            throw new AssertionError(m.getName() + ": " + match.size() + " points with " + attrs + " in " + m);
        }
        NumberDataPoint p = match.get(0);
        return p.hasAsDouble() ? p.getAsDouble() : p.getAsInt();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
