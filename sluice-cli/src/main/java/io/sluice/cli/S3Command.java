package io.sluice.cli;

import picocli.CommandLine.Command;

/** {@code sluice s3}: a group; its subcommand {@code dev} is added by {@link Main}. */
@Command(name = "s3", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "S3 tools: a local S3-compatible server for trying things out.")
final class S3Command {
}
