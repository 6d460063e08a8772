package io.sluice.cli;

import picocli.CommandLine.Command;

/**
 * {@code sluice kafka}: a group; its subcommands {@code dev}, {@code topics} and {@code reconcile} are added by
 * {@link Main}.
 */
@Command(name = "kafka", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "Kafka tools: a local broker for trying things out, its topics, and reconciliation of a time"
                + " window.")
final class KafkaCommand {
}
