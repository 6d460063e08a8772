package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The top command: holds the options every subcommand shares. Its subcommands are added by {@link Main}. */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        synopsisSubcommandLabel = "COMMAND",
        description = "Runs Spark Structured Streaming style pipelines in one JVM, and inspects their checkpoints.",
        footer = {"", "Exit codes: 0 success, 1 failure, 2 usage error, 130 stopped by Ctrl-C.",
                "See docs/cli.md for every flag and pipeline file key."})
final class SluiceCommand {

    @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
            description = "On failure, print the stack trace too; log at INFO.")
    boolean verbose;
}
