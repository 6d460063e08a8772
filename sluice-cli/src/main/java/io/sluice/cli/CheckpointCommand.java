package io.sluice.cli;

import picocli.CommandLine.Command;

/** {@code sluice checkpoint}: a group; its subcommand {@code show} is added by {@link Main}. */
@Command(name = "checkpoint", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "Inspects a checkpoint folder.")
final class CheckpointCommand {
}
