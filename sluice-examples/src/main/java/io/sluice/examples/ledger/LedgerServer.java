package io.sluice.examples.ledger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sluice.core.OffsetJson;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small local ledger for the demo and the tests: an append-only list of entries numbered 1, 2, 3... served
 * over HTTP by the JDK's {@link HttpServer}.
 *
 * <ul>
 *   <li>{@code GET /ledger?fromSeq=N&limit=M}: a JSON array of up to M entries with {@code seq >= N}, in order,
 *       each {@code {"seq":1,"account":"acct-1","amountCents":250,"ts":"2025-01-01T00:00:00Z"}};</li>
 *   <li>{@code GET /ledger/latest}: {@code {"seq":N}}, the highest sequence number (0 when empty).</li>
 * </ul>
 * An entry never changes once appended: that is what makes a range of sequence numbers replayable.
 */
public final class LedgerServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Map<String, Object>> entries = new ArrayList<>();
    private Instant nextTs = Instant.parse("2025-01-01T00:00:00Z");

    private LedgerServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Starts a server on a free port of 127.0.0.1. */
    public static LedgerServer start() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicInteger n = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "ledger-server-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        LedgerServer ledger = new LedgerServer(http, executor);
        http.createContext("/ledger", ledger::handle);
        http.setExecutor(executor);
        http.start();
        return ledger;
    }

    /** The base URL, e.g. {@code http://127.0.0.1:53412}. */
    public String url() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
    }

    /** Appends one entry a second after the previous one; returns its sequence number. */
    public synchronized long append(String account, long amountCents) {
        Map<String, Object> e = new LinkedHashMap<>();
        long seq = entries.size() + 1;
        e.put("seq", seq);
        e.put("account", account);
        e.put("amountCents", amountCents);
        e.put("ts", nextTs.toString());
        nextTs = nextTs.plusSeconds(1);
        entries.add(e);
        return seq;
    }

    /** Appends {@code count} entries for accounts acct-1..acct-3, amounts seq * 10 cents. */
    public synchronized void appendMany(int count) {
        for (int i = 0; i < count; i++) {
            long seq = entries.size() + 1;
            append("acct-" + (seq % 3 + 1), seq * 10);
        }
    }

    public synchronized long latestSeq() {
        return entries.size();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            URI uri = exchange.getRequestURI();
            String body;
            int status = 200;
            if (!"GET".equals(exchange.getRequestMethod())) {
                status = 405;
                body = "{\"error\":\"GET only\"}";
            } else if (uri.getPath().equals("/ledger/latest")) {
                body = OffsetJson.write(Map.of("seq", latestSeq()));
            } else if (uri.getPath().equals("/ledger")) {
                Map<String, String> q = query(uri);
                try {
                    long from = Long.parseLong(q.getOrDefault("fromSeq", "1"));
                    int limit = Integer.parseInt(q.getOrDefault("limit", "1000"));
                    body = OffsetJson.write(page(from, limit));
                } catch (NumberFormatException e) {
                    status = 400;
                    body = "{\"error\":\"fromSeq and limit must be numbers\"}";
                }
            } else {
                status = 404;
                body = "{\"error\":\"not found\"}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private synchronized List<Map<String, Object>> page(long fromSeq, int limit) {
        int from = (int) Math.max(0, Math.min(entries.size(), fromSeq - 1));
        int to = (int) Math.min(entries.size(), (long) from + limit);
        return new ArrayList<>(entries.subList(from, to));
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> out = new HashMap<>();
        if (uri.getRawQuery() != null) {
            for (String kv : uri.getRawQuery().split("&")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    out.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
