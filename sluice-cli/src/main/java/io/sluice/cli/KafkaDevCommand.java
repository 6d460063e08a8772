package io.sluice.cli;

import io.sluice.kafka.broker.LocalKafkaBroker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code sluice kafka dev}: a single-node KRaft broker in the foreground, for trying pipelines out; prints the
 * bootstrap servers and stops on Ctrl-C. Topics and records stay in the data folder between runs.
 */
@Command(name = "dev", mixinStandardHelpOptions = true,
        description = "Starts a local single-node Kafka broker (KRaft) in the foreground; Ctrl-C stops it.")
final class KafkaDevCommand implements Callable<Integer> {
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
        LocalKafkaBroker.Builder b = LocalKafkaBroker.builder(dataDir).port(port);
        configs.forEach(b::config);
        CountDownLatch stopped = new CountDownLatch(1);
        try (LocalKafkaBroker broker = b.start()) {
            Runnable uninstall = env.hooks().install(stopped::countDown);
            out.println("Kafka broker running: bootstrap servers " + broker.bootstrapServers() + " (data in "
                    + dataDir.toAbsolutePath().normalize() + "). Ctrl-C stops it.");
            out.println("Try: sluice run --source kafka --source-option kafka.bootstrap.servers="
                    + broker.bootstrapServers() + " ... (see docs/sources/kafka.md)");
            out.flush();
            try {
                stopped.await();
            } finally {
                uninstall.run();
            }
        }
        out.println("Kafka broker stopped.");
        return 0;
    }
}
