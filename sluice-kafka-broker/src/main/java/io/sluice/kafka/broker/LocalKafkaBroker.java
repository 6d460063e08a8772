package io.sluice.kafka.broker;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * A real, single-node Apache Kafka broker in KRaft mode (broker and controller in one node), running inside this
 * JVM from the Kafka Maven artifacts: for {@code sluice kafka dev}, the Kafka demo and tests. It is the same server
 * code as a production broker, configured for one node (replication factor 1 for internal topics, transactions
 * enabled, no group rebalance delay).
 *
 * <p>{@link #start()} formats the data folder on first use (a folder formatted before is reused, so a restart
 * keeps its topics and records) and returns once the broker accepts clients. {@link #close()} shuts it down and
 * waits; it is idempotent. The data folder is left in place: it belongs to the caller.
 *
 * <p>Ports: {@link Builder#port(int)} 0 (the default) picks a free port; the controller always uses a free port.
 * The advertised address is {@code localhost}. A given port that something else already listens on fails
 * {@link Builder#start()} with a {@link PortInUseException} before anything is written to the data folder.
 *
 * <p>Topics: {@code auto.create.topics.enable} is false and {@code num.partitions} is 1 unless
 * {@link Builder#config} says otherwise ({@code sluice kafka dev} turns auto-creation on).
 */
public final class LocalKafkaBroker implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private final KafkaRaftServer server;
    private boolean closed;

    private LocalKafkaBroker(Path dataDir, int port, KafkaRaftServer server) {
        this.dataDir = dataDir;
        this.port = port;
        this.server = server;
    }

    /** A builder for a broker storing its data under {@code dataDir} (created if missing). */
    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    /** {@code localhost:<port>}: the value for {@code kafka.bootstrap.servers}. */
    public String bootstrapServers() {
        return "localhost:" + port;
    }

    /** The port clients connect to. */
    public int port() {
        return port;
    }

    /** The folder holding the broker's logs and metadata. */
    public Path dataDir() {
        return dataDir;
    }

    /** Shuts the broker down and waits until it has stopped. Calling it again does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.shutdown();
        server.awaitShutdown();
    }

    /** The client port given to {@link Builder#port(int)} is taken by another socket. */
    public static final class PortInUseException extends IllegalStateException {
        private final int port;

        PortInUseException(int port, Throwable cause) {
            super("port " + port + " is already in use", cause);
            this.port = port;
        }

        /** The port that was asked for. */
        public int port() {
            return port;
        }
    }

    /** Settings for a {@link LocalKafkaBroker}; {@link #start()} starts it. */
    public static final class Builder {
        private final Path dataDir;
        private int port;
        private final Map<String, String> overrides = new LinkedHashMap<>();

        private Builder(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
        }

        /** The client port; 0 (the default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * A broker setting ({@code server.properties} key) that replaces the default, e.g.
         * {@code log.retention.check.interval.ms}. Applied last, so it wins over every default.
         */
        public Builder config(String key, String value) {
            overrides.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Formats the data folder if it is new, starts the broker and returns once it serves clients.
         *
         * @throws PortInUseException when the given client port is taken
         */
        public LocalKafkaBroker start() {
            try {
                if (port != 0) {
                    requireFree(port);
                }
                Files.createDirectories(dataDir);
                int clientPort = port == 0 ? freePort() : port;
                int controllerPort = freePort();
                Path logDir = dataDir.resolve("kraft-combined-logs");
                Properties props = new Properties();
                props.put("process.roles", "broker,controller");
                props.put("node.id", "1");
                props.put("controller.quorum.voters", "1@localhost:" + controllerPort);
                props.put("listeners", "PLAINTEXT://localhost:" + clientPort + ",CONTROLLER://localhost:" + controllerPort);
                props.put("advertised.listeners", "PLAINTEXT://localhost:" + clientPort);
                props.put("controller.listener.names", "CONTROLLER");
                props.put("inter.broker.listener.name", "PLAINTEXT");
                props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
                props.put("log.dirs", logDir.toString());
                props.put("num.partitions", "1");
                props.put("offsets.topic.replication.factor", "1");
                props.put("offsets.topic.num.partitions", "4");
                props.put("transaction.state.log.replication.factor", "1");
                props.put("transaction.state.log.min.isr", "1");
                props.put("transaction.state.log.num.partitions", "4");
                props.put("share.coordinator.state.topic.replication.factor", "1");
                props.put("share.coordinator.state.topic.min.isr", "1");
                props.put("group.initial.rebalance.delay.ms", "0");
                props.put("auto.create.topics.enable", "false");
                props.put("log.retention.check.interval.ms", "1000");
                props.put("log.segment.delete.delay.ms", "0");
                props.put("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));
                props.putAll(overrides);
                if (!Files.exists(logDir.resolve("meta.properties"))) {
                    format(props, logDir);
                }
                KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
                try {
                    server.startup();
                } catch (RuntimeException e) {
                    server.shutdown();
                    throw e;
                }
                return new LocalKafkaBroker(dataDir, clientPort, server);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not start the local Kafka broker in " + dataDir, e);
            }
        }

        private void format(Properties props, Path logDir) throws IOException {
            Path config = dataDir.resolve("server.properties");
            try (OutputStream out = Files.newOutputStream(config)) {
                props.store(out, "Written by Sluice's LocalKafkaBroker to format the storage");
            }
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int status;
            try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
                status = StorageTool.execute(new String[] {
                        "format", "--config", config.toString(), "--cluster-id", Uuid.randomUuid().toString()}, print);
            }
            if (status != 0 || !Files.exists(logDir.resolve("meta.properties"))) {
                throw new IllegalStateException("Formatting the Kafka storage in " + logDir + " failed (status "
                        + status + "): " + output.toString(StandardCharsets.UTF_8).strip());
            }
        }

        /** Binds the address the broker will listen on (localhost:port) and lets it go again. */
        private static void requireFree(int port) throws IOException {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress("localhost", port), 1);
            } catch (BindException e) {
                throw new PortInUseException(port, e);
            }
        }

        private static int freePort() throws IOException {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                socket.setReuseAddress(true);
                return socket.getLocalPort();
            }
        }
    }
}
