package io.sluice.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of the real S3 server that injects faults per connection: answers the next connections
 * with a canned HTTP response (a 503, a 403), or cuts the server's response after a number of bytes. Each
 * connection carries one request here: the SDK's URL-connection client reopens after a canned answer closes it.
 */
final class FaultProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final Thread acceptor;
    private final List<Socket> open = new ArrayList<>();
    final AtomicInteger cannedLeft = new AtomicInteger();
    volatile String canned = "";
    final AtomicInteger cutLeft = new AtomicInteger();
    volatile int cutAfterBytes = Integer.MAX_VALUE;
    final AtomicInteger connections = new AtomicInteger();

    FaultProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String endpoint() {
        return "http://localhost:" + server.getLocalPort();
    }

    /** The next {@code n} connections get {@code status} with an S3 error body of {@code code}. */
    void failNext(int n, int status, String reason, String code) {
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>injected"
                + "</Message></Error>";
        canned = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: application/xml\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body;
        cannedLeft.set(n);
    }

    /** The next {@code n} connections see the server's response cut after {@code bytes} bytes. */
    void cutNext(int n, int bytes) {
        cutAfterBytes = bytes;
        cutLeft.set(n);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                connections.incrementAndGet();
                synchronized (open) {
                    open.add(client);
                }
                if (cannedLeft.getAndDecrement() > 0) {
                    Thread t = new Thread(() -> answer(client), "fault-proxy-canned");
                    t.setDaemon(true);
                    t.start();
                    continue;
                }
                int cut = cutLeft.getAndDecrement() > 0 ? cutAfterBytes : Integer.MAX_VALUE;
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                synchronized (open) {
                    open.add(upstream);
                }
                pipe(client, upstream, Integer.MAX_VALUE, "fault-proxy-up");
                pipe(upstream, client, cut, "fault-proxy-down");
            } catch (IOException e) {
                return;
            }
        }
    }

    private void answer(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            byte[] b = new byte[8192];
            // Read the request head (and whatever body came with it) before answering.
            client.setSoTimeout(200);
            try {
                while (in.read(b) > 0) {
                    // drain
                }
            } catch (IOException timeout) {
                // enough
            }
            client.getOutputStream().write(canned.getBytes(StandardCharsets.UTF_8));
            client.getOutputStream().flush();
        } catch (IOException ignored) {
            // the client went away
        }
    }

    private static void pipe(Socket from, Socket to, int limit, String name) {
        Thread t = new Thread(() -> {
            byte[] b = new byte[8192];
            long sent = 0;
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(b)) > 0) {
                    int allowed = (int) Math.min(n, limit - sent);
                    out.write(b, 0, allowed);
                    out.flush();
                    sent += allowed;
                    if (sent >= limit) {
                        break;
                    }
                }
            } catch (IOException ignored) {
                // closed
            }
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // closed
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (open) {
            for (Socket s : open) {
                s.close();
            }
        }
        try {
            acceptor.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
