package io.sluice.cli;

import io.sluice.kafka.KafkaCalls;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code sluice kafka topics [--bootstrap-servers HOST:PORT] [--timeout-ms N] list | create NAME | describe NAME}:
 * the topics of a broker (by default the {@code sluice kafka dev} one on localhost:9092). Every call is bounded by
 * {@code --timeout-ms}; a topic that exists (create) or does not (describe) is a failure (exit 1).
 */
@Command(name = "topics", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "Lists, creates and describes the topics of a Kafka cluster.",
        subcommands = {KafkaTopicsCommand.ListTopics.class, KafkaTopicsCommand.CreateTopic.class,
                KafkaTopicsCommand.DescribeTopic.class})
final class KafkaTopicsCommand {
    static final String BOOTSTRAP_FLAG = "--bootstrap-servers";
    static final String TIMEOUT_FLAG = "--timeout-ms";

    @Option(names = BOOTSTRAP_FLAG, defaultValue = "localhost:9092", paramLabel = "HOST:PORT",
            description = "The brokers. Default: ${DEFAULT-VALUE} (sluice kafka dev).")
    String bootstrap;

    @Option(names = TIMEOUT_FLAG, defaultValue = "30000", paramLabel = "MS",
            description = "How long each call may wait for the brokers. Default: ${DEFAULT-VALUE}.")
    long timeoutMs;

    TopicAdmin admin(CommandSpec spec) {
        if (timeoutMs <= 0 || timeoutMs > Integer.MAX_VALUE) {
            throw new ParameterException(spec.commandLine(), "Invalid value '" + timeoutMs + "' for option '"
                    + TIMEOUT_FLAG + "': a time-out in milliseconds from 1 to " + Integer.MAX_VALUE + " is accepted");
        }
        return new TopicAdmin(new KafkaCalls.Target(bootstrap, BOOTSTRAP_FLAG, timeoutMs, TIMEOUT_FLAG), Map.of());
    }

    /** {@code list}: the topic names, one a line, sorted; internal topics left out. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the topics, one a line.")
    static final class ListTopics implements Callable<Integer> {
        @ParentCommand
        KafkaTopicsCommand parent;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (TopicAdmin admin = parent.admin(spec)) {
                admin.list().forEach(out::println);
            }
            out.flush();
            return 0;
        }
    }

    /** {@code create NAME [--partitions N] [--replication-factor N]}. */
    @Command(name = "create", mixinStandardHelpOptions = true, description = "Creates a topic.")
    static final class CreateTopic implements Callable<Integer> {
        @ParentCommand
        KafkaTopicsCommand parent;
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "The topic.")
        String name;

        @Option(names = "--partitions", defaultValue = "1", paramLabel = "N",
                description = "Partitions. Default: ${DEFAULT-VALUE}.")
        int partitions;

        @Option(names = "--replication-factor", defaultValue = "1", paramLabel = "N",
                description = "Copies of each partition (at most the number of brokers). Default: ${DEFAULT-VALUE}.")
        short replicationFactor;

        @Override
        public Integer call() {
            atLeastOne("--partitions", partitions);
            atLeastOne("--replication-factor", replicationFactor);
            PrintWriter out = spec.commandLine().getOut();
            try (TopicAdmin admin = parent.admin(spec)) {
                admin.create(name, partitions, replicationFactor);
            }
            out.println("Created topic '" + name + "' at " + parent.bootstrap + ": " + partitions
                    + (partitions == 1 ? " partition" : " partitions") + ", replication factor " + replicationFactor);
            out.flush();
            return 0;
        }

        private void atLeastOne(String flag, int value) {
            if (value < 1) {
                throw new ParameterException(spec.commandLine(), "Invalid value '" + value + "' for option '" + flag
                        + "': a whole number of at least 1 is accepted");
            }
        }
    }

    /** {@code describe NAME}: the partitions with their leader and earliest and latest offsets. */
    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "Shows a topic's partitions: leader, earliest and latest offset.")
    static final class DescribeTopic implements Callable<Integer> {
        @ParentCommand
        KafkaTopicsCommand parent;
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "The topic.")
        String name;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (TopicAdmin admin = parent.admin(spec)) {
                TopicDescription d = admin.describe(name);
                List<TopicPartition> tps = d.partitions().stream()
                        .map(p -> new TopicPartition(name, p.partition())).toList();
                Map<TopicPartition, Long> earliest = admin.offsets(tps, OffsetSpec.earliest());
                Map<TopicPartition, Long> latest = admin.offsets(tps, OffsetSpec.latest());
                int replicas = d.partitions().isEmpty() ? 0 : d.partitions().get(0).replicas().size();
                out.println("Topic '" + name + "' at " + parent.bootstrap + ": " + d.partitions().size()
                        + (d.partitions().size() == 1 ? " partition" : " partitions") + ", replication factor "
                        + replicas);
                for (TopicPartitionInfo p : d.partitions()) {
                    TopicPartition tp = new TopicPartition(name, p.partition());
                    Node leader = p.leader();
                    out.println("  partition " + p.partition() + ": leader "
                            + (leader == null || leader.isEmpty() ? "none" : leader.idString()) + ", earliest "
                            + earliest.get(tp) + ", latest " + latest.get(tp));
                }
            }
            out.flush();
            return 0;
        }
    }
}
