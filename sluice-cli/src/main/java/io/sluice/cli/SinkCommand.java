package io.sluice.cli;

import picocli.CommandLine.Command;

/** {@code sluice sink}: a group; its subcommand {@code check} is added by {@link Main}. */
@Command(name = "sink", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "Inspects a sink's output.")
final class SinkCommand {
}
