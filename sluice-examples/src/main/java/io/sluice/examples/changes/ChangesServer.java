package io.sluice.examples.changes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sluice.core.OffsetJson;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream that can only say "what is new since you last asked": {@code GET /changes} returns a JSON array of
 * the changes queued since the previous call, as strings, and forgets them. There is no position to ask again
 * from, so whatever a caller fetched exists nowhere else: see {@link ChangesSource}.
 */
public final class ChangesServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;
    private final List<String> queue = new ArrayList<>();

    private ChangesServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    public static ChangesServer start() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicInteger n = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(1, r -> {
            Thread t = new Thread(r, "changes-server-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ChangesServer changes = new ChangesServer(http, executor);
        http.createContext("/changes", changes::handle);
        http.setExecutor(executor);
        http.start();
        return changes;
    }

    public String url() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
    }

    /** Queues changes for the next {@code GET /changes}. */
    public synchronized void add(String... changes) {
        queue.addAll(List.of(changes));
    }

    private synchronized List<String> drain() {
        List<String> out = new ArrayList<>(queue);
        queue.clear();
        return out;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] bytes = OffsetJson.write(drain()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
