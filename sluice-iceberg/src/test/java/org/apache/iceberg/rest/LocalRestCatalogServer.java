package org.apache.iceberg.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.util.Pair;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A REST catalog server for the tests: Iceberg's own RESTCatalogAdapter (from iceberg-core's tests jar, the server
 * side of the REST spec over any catalog) behind the JDK's HTTP server, doing what Iceberg's RESTCatalogServlet does
 * without a servlet container. In Iceberg's package for the adapter's protected request methods.
 */
public final class LocalRestCatalogServer implements AutoCloseable {
    private final RESTCatalogAdapter adapter;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "rest-catalog-server");
        t.setDaemon(true);
        return t;
    });

    public LocalRestCatalogServer(Catalog backing) throws IOException {
        this.adapter = new RESTCatalogAdapter(backing);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    public String uri() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            HTTPRequest.HTTPMethod method = HTTPRequest.HTTPMethod.valueOf(ex.getRequestMethod());
            String path = ex.getRequestURI().getRawPath().substring(1);
            Pair<RESTCatalogAdapter.Route, Map<String, String>> route = RESTCatalogAdapter.Route.from(method, path);
            byte[] in;
            try (InputStream body = ex.getRequestBody()) {
                in = body.readAllBytes();
            }
            if (route == null) {
                send(ex, 400, ErrorResponse.builder().responseCode(400).withType("BadRequestException")
                        .withMessage("No route for request: " + method + " " + path).build());
                return;
            }
            Object requestBody = null;
            if (route.first().requestClass() != null) {
                requestBody = RESTObjectMapper.mapper().readValue(in, route.first().requestClass());
            } else if (route.first() == RESTCatalogAdapter.Route.TOKENS) {
                requestBody = RESTUtil.decodeFormData(new String(in, StandardCharsets.UTF_8));
            }
            Map<String, String> query = new HashMap<>();
            String raw = ex.getRequestURI().getRawQuery();
            if (raw != null) {
                for (String kv : raw.split("&")) {
                    int eq = kv.indexOf('=');
                    query.put(URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8),
                            eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
            Map<String, String> headers = new HashMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k, v.get(0)));
            AtomicReference<ErrorResponse> error = new AtomicReference<>();
            Object response;
            try {
                HTTPRequest request = adapter.buildRequest(method, path, query, headers, requestBody);
                response = adapter.execute(request, route.first().responseClass(), error::set, h -> { });
            } catch (RuntimeException e) {
                // the adapter throws "Unhandled error" once the error handler has the error response
                if (error.get() != null) {
                    send(ex, error.get().code(), error.get());
                } else {
                    send(ex, 500, ErrorResponse.builder().responseCode(500).withType(e.getClass().getSimpleName())
                            .withMessage(String.valueOf(e.getMessage())).build());
                }
                return;
            }
            if (error.get() != null) {
                send(ex, error.get().code(), error.get());
            } else {
                send(ex, 200, response);
            }
        }
    }

    private static void send(HttpExchange ex, int code, Object body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/json");
        if (body == null || "HEAD".equals(ex.getRequestMethod())) {
            ex.sendResponseHeaders(code, -1);
            return;
        }
        byte[] bytes = RESTObjectMapper.mapper().writeValueAsBytes(body);
        ex.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() throws Exception {
        server.stop(0);
        threads.shutdownNow();
        adapter.close();
    }
}
