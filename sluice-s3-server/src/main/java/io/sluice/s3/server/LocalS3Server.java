package io.sluice.s3.server;

import com.adobe.testing.s3mock.S3MockApplication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A real S3-compatible server on {@code localhost}, running inside this JVM from Maven artifacts (Adobe S3Mock):
 * for {@code sluice s3 dev} and the tests. Chosen because it honours conditional writes as AWS S3 does
 * ({@code If-None-Match: *} on an existing key answers 412), which checkpoints and the file sink rely on.
 *
 * <p>Plain HTTP, path-style addressing, any credentials accepted (S3Mock checks no signature), region
 * {@code us-east-1}. Objects live under {@link #dataDir()}, kept after {@link #close()} (the folder belongs to the
 * caller). {@link Builder#port(int)} 0 (the default) picks a free port.
 */
public final class LocalS3Server implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private final S3MockApplication app;
    private boolean closed;

    private LocalS3Server(Path dataDir, int port, S3MockApplication app) {
        this.dataDir = dataDir;
        this.port = port;
        this.app = app;
    }

    /** A builder for a server storing its objects under {@code dataDir} (created if missing). */
    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    /** {@code http://localhost:<port>}: the value for {@code fs.s3a.endpoint}. */
    public String endpoint() {
        return "http://localhost:" + port;
    }

    /** The port clients connect to. */
    public int port() {
        return port;
    }

    /** The folder holding the buckets. */
    public Path dataDir() {
        return dataDir;
    }

    /** Stops the server and waits until it has stopped. Calling it again does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        app.stop();
    }

    @Override
    public String toString() {
        return "LocalS3Server[" + endpoint() + ", " + dataDir + "]";
    }

    /** Options of a {@link LocalS3Server}. */
    public static final class Builder {
        private final Path dataDir;
        private int port;
        private List<String> buckets = List.of();

        private Builder(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
        }

        /** The HTTP port; 0 for a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be between 0 and 65535, not " + port);
            }
            this.port = port;
            return this;
        }

        /** Buckets created at start (existing ones are kept). */
        public Builder buckets(List<String> buckets) {
            this.buckets = List.copyOf(buckets);
            return this;
        }

        /**
         * Starts the server and returns once it accepts requests.
         *
         * @throws IllegalStateException when the port is taken, naming it
         */
        public LocalS3Server start() {
            try {
                Files.createDirectories(dataDir);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create the S3 server's folder " + dataDir, e);
            }
            int p = port == 0 ? freePort() : port;
            if (port != 0 && inUse(p)) {
                throw new IllegalStateException("Port " + p + " is already in use: give another with --port");
            }
            Map<String, Object> props = new HashMap<>();
            props.put("com.adobe.testing.s3mock.store.root", dataDir.toAbsolutePath().toString());
            props.put("com.adobe.testing.s3mock.store.retain-files-on-exit", true);
            props.put("com.adobe.testing.s3mock.store.initial-buckets", String.join(",", buckets));
            props.put("com.adobe.testing.s3mock.http-port", p);
            // S3Mock's main connector (server.port) is HTTPS with its self-signed certificate: on a free port
            // nobody is told of. Clients use the plain HTTP connector.
            props.put("server.port", 0);
            props.put("server.address", "localhost");
            props.put("spring.main.banner-mode", "off");
            props.put("spring.main.log-startup-info", false);
            // No Logback here (it is a binding, the application's choice): Spring logs through what it finds.
            props.put("org.springframework.boot.logging.LoggingSystem", "none");
            props.put("logging.level.root", "WARN");
            String previous = System.getProperty("org.springframework.boot.logging.LoggingSystem");
            System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
            // Tomcat registers its URL stream handler factory with the JVM, which fails ("factory already defined")
            // when a library set one first: Spark's SharedState sets Hadoop's FsUrlStreamHandlerFactory. The server
            // serves no war: or jar: resources, so it goes without. Has no effect once registered (a second server).
            org.apache.catalina.webresources.TomcatURLStreamHandlerFactory.disable();
            S3MockApplication app;
            try {
                app = S3MockApplication.start(props);
            } finally {
                if (previous == null) {
                    System.clearProperty("org.springframework.boot.logging.LoggingSystem");
                }
            }
            return new LocalS3Server(dataDir, app.getHttpPort(), app);
        }

        private static int freePort() {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress("localhost", 0));
                return s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static boolean inUse(int p) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress("localhost", p));
                return false;
            } catch (IOException e) {
                return true;
            }
        }
    }
}
