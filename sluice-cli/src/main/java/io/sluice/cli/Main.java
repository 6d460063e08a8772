package io.sluice.cli;

import io.sluice.core.StreamingQueryException;
import picocli.CommandLine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@code sluice} command: {@code sluice run}, {@code sluice checkpoint show}; {@code sluice --help} lists them.
 * Exit codes: 0 success, 1 a failure (stderr holds {@code sluice: <message>}), 2 a usage error, 130 stopped by
 * Ctrl-C. See docs/cli.md.
 */
public final class Main {
    private static final String SIMPLE_LOGGER = "org.slf4j.simpleLogger.";

    private Main() {
    }

    /** Runs the command and exits the JVM with its exit code. */
    public static void main(String[] args) {
        configureLogging(args);
        System.exit(commandLine(Env.system(), args).execute(args));
    }

    /** The command line wired to an environment, with every subcommand; {@code execute(args)} runs it. */
    static CommandLine commandLine(Env env) {
        return commandLine(env, new String[0]);
    }

    /**
     * The command line for {@code args}: with only the subcommand they name when they name one (picocli reads a
     * command's annotations, by reflection, as it is added: all of them cost a tenth of a second at each start), else
     * with every subcommand (for {@code sluice --help}, or to suggest the right name for a misspelt one).
     */
    static CommandLine commandLine(Env env, String[] args) {
        ErrorReporter reporter = new ErrorReporter();
        Map<String, Supplier<Object>> subcommands = new LinkedHashMap<>();
        subcommands.put("run", () -> new RunCommand(env, reporter));
        subcommands.put("demo", () -> new DemoCommand(env));
        subcommands.put("checkpoint", () -> new CommandLine(new CheckpointCommand())
                .addSubcommand("show", new CheckpointShowCommand()));
        subcommands.put("sink", () -> new CommandLine(new SinkCommand())
                .addSubcommand("check", new SinkCheckCommand()));
        subcommands.put("kafka", () -> new CommandLine(new KafkaCommand())
                .addSubcommand("dev", new KafkaDevCommand(env))
                .addSubcommand("topics", new KafkaTopicsCommand())
                .addSubcommand("reconcile", new KafkaReconcileCommand()));
        subcommands.put("s3", () -> new CommandLine(new S3Command()).addSubcommand("dev", new S3DevCommand(env)));
        CommandLine cmd = new CommandLine(new SluiceCommand());
        String named = subcommandName(args);
        subcommands.forEach((name, command) -> {
            if (named == null || !subcommands.containsKey(named) || name.equals(named)) {
                cmd.addSubcommand(name, command.get());
            }
        });
        cmd.setExecutionExceptionHandler(reporter);
        cmd.setParameterExceptionHandler(reporter);
        return cmd;
    }

    /** The first argument that is not an option (the top command's options take no value); null if none. */
    private static String subcommandName(String[] args) {
        for (String a : args) {
            if (!a.startsWith("-")) {
                return a;
            }
        }
        return null;
    }

    /**
     * The command's SLF4J binding is slf4j-simple, on stderr, configured here before the first logger is created
     * (a {@code -D} setting wins): see {@link #loggingDefaults}.
     */
    private static void configureLogging(String[] args) {
        boolean verbose = false;
        for (String a : args) {
            verbose |= a.equals("--verbose") || a.equals("-v");
        }
        loggingDefaults(verbose).forEach((key, value) -> {
            if (System.getProperty(key) == null) {
                System.setProperty(key, value);
            }
        });
    }

    /**
     * slf4j-simple's settings: every logger at WARN, so INFO lines do not bury the live view, and Kafka's clients
     * and broker stay at WARN even with {@code --verbose}, which raises only Sluice's own ({@code io.sluice}) to
     * INFO; lines are short ({@code WARN MicroBatchExecution - ...}). A query's failure is never logged: the
     * {@link ErrorReporter} prints it, once, on one line (its trace with {@code --verbose}, secrets masked). Kafka's
     * {@code NetworkClient} warns about every failed connection attempt, about once a second while brokers are
     * unreachable; Sluice reports unreachable brokers itself in one line, so those warnings show with {@code --verbose}
     * only.
     */
    private static final String KAFKA_NETWORK_CLIENT = "org.apache.kafka.clients.NetworkClient";

    static Map<String, String> loggingDefaults(boolean verbose) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(SIMPLE_LOGGER + "defaultLogLevel", "warn");
        if (verbose) {
            p.put(SIMPLE_LOGGER + "log.io.sluice", "info");
        } else {
            p.put(SIMPLE_LOGGER + "log." + KAFKA_NETWORK_CLIENT, "error");
        }
        p.put(SIMPLE_LOGGER + "log." + StreamingQueryException.FAILURE_LOGGER, "off");
        p.put(SIMPLE_LOGGER + "showThreadName", "false");
        p.put(SIMPLE_LOGGER + "showShortLogName", "true");
        return p;
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[]{"sluice " + (v != null ? v : "(development build)")};
        }
    }
}
