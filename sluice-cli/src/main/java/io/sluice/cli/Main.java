package io.sluice.cli;

import picocli.CommandLine;

/**
 * The {@code sluice} command: {@code sluice run}, {@code sluice checkpoint show}; {@code sluice --help} lists them.
 * Exit codes: 0 success, 1 a failure (stderr holds {@code sluice: <message>}), 2 a usage error, 130 stopped by
 * Ctrl-C. See docs/cli.md.
 */
public final class Main {

    private Main() {
    }

    /** Runs the command and exits the JVM with its exit code. */
    public static void main(String[] args) {
        configureLogging(args);
        System.exit(commandLine(Env.system()).execute(args));
    }

    /** The command line wired to an environment; {@code execute(args)} runs it and returns the exit code. */
    static CommandLine commandLine(Env env) {
        ErrorReporter reporter = new ErrorReporter();
        CommandLine cmd = new CommandLine(new SluiceCommand());
        cmd.addSubcommand("run", new RunCommand(env, reporter));
        cmd.addSubcommand("demo", new DemoCommand(env));
        cmd.addSubcommand("checkpoint", new CommandLine(new CheckpointCommand())
                .addSubcommand("show", new CheckpointShowCommand()));
        cmd.addSubcommand("kafka", new CommandLine(new KafkaCommand())
                .addSubcommand("dev", new KafkaDevCommand(env))
                .addSubcommand("topics", new KafkaTopicsCommand())
                .addSubcommand("reconcile", new KafkaReconcileCommand()));
        cmd.setExecutionExceptionHandler(reporter);
        cmd.setParameterExceptionHandler(reporter);
        return cmd;
    }

    /**
     * The engine logs through slf4j-simple to stderr; at INFO it would bury the live view, so the default is WARN
     * (INFO with {@code --verbose}), and lines are short ({@code WARN MicroBatchExecution - ...}). Must run
     * before the first logger is created. A -D setting wins.
     */
    private static void configureLogging(String[] args) {
        boolean verbose = false;
        for (String a : args) {
            verbose |= a.equals("--verbose") || a.equals("-v");
        }
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "warn");
        setDefault("org.slf4j.simpleLogger.showThreadName", "false");
        setDefault("org.slf4j.simpleLogger.showShortLogName", "true");
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
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
