package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice kafka dev}: a single-node KRaft broker in the foreground, for trying pipelines out; prints the
 * bootstrap servers and stops on Ctrl-C. Topics and records stay in the data folder between runs. Topics are
 * created on first use ({@code auto.create.topics.enable=true}, {@value #PARTITIONS} partition unless
 * {@code --config} says otherwise). A port already in use fails at once with the {@code --port} hint. The broker
 * comes from sluice-kafka-broker.jar, loaded for this command only ({@link BrokerPlugin}). On Ctrl-C or SIGTERM the
 * shutdown hook waits (up to {@value #STOP_WAIT_SECONDS} s) until the broker has stopped, so its data is closed cleanly
 * and "Kafka broker stopped." is printed before the JVM exits (130 or 143).
 */
@Command(name = "dev", mixinStandardHelpOptions = true,
        description = "Starts a local single-node Kafka broker (KRaft) in the foreground; Ctrl-C stops it.")
final class KafkaDevCommand implements Callable<Integer> {
    static final String PARTITIONS = "1";
    static final long STOP_WAIT_SECONDS = 30;
    private final Env env;

    @Spec
    CommandSpec spec;

    @Option(names = "--port", defaultValue = "9092", description = "Client port (0 picks a free one). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--data-dir", defaultValue = "./.sluice-kafka",
            description = "Where the broker keeps its logs. Default: ${DEFAULT-VALUE}.")
    Path dataDir;

    @Option(names = "--config", description = "A broker setting KEY=VALUE (server.properties key); repeatable.")
    java.util.Map<String, String> configs = new java.util.LinkedHashMap<>();

    KafkaDevCommand(Env env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        // For trying things out, a producer writing to a new topic creates it; --config wins over both.
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("auto.create.topics.enable", "true");
        settings.put("num.partitions", PARTITIONS);
        settings.putAll(configs);
        CountDownLatch stopRequested = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        BrokerPlugin.Running started;
        try {
            started = BrokerPlugin.start(dataDir, port, settings);
        } catch (BrokerPlugin.PortInUseException e) {
            throw new IllegalStateException(e.getMessage() + "; choose another with --port PORT", e);
        }
        try {
            try (BrokerPlugin.Running broker = started) {
                Runnable uninstall = env.hooks().install(() -> {
                    stopRequested.countDown();
                    try {
                        stopped.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                out.println("Kafka broker running: bootstrap servers " + broker.bootstrapServers() + " (data in "
                        + dataDir.toAbsolutePath().normalize() + "). Ctrl-C stops it.");
                String create = "sluice kafka topics --bootstrap-servers " + broker.bootstrapServers()
                        + " create NAME --partitions N";
                out.println(Boolean.parseBoolean(configs.getOrDefault("auto.create.topics.enable", "true").trim())
                        ? "Topics are created on first write, with "
                                + configs.getOrDefault("num.partitions", PARTITIONS) + " partition(s); to choose: " + create
                        : "Topics are not created on first write: " + create);
                out.println("Try: sluice run --source kafka --source-option kafka.bootstrap.servers="
                        + broker.bootstrapServers() + " ... (see docs/sources/kafka.md)");
                out.flush();
                try {
                    stopRequested.await();
                } finally {
                    uninstall.run();
                }
            }
            out.println("Kafka broker stopped.");
            out.flush();
        } finally {
            stopped.countDown(); // lets the shutdown hook return: the JVM may exit now
        }
        return 0;
    }
}
