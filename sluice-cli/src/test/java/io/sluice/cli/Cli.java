package io.sluice.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the command line in this JVM, as {@code sluice ARGS} would, capturing stdout and stderr. */
final class Cli {
    /** Not a terminal, 80 columns, no shutdown hook. */
    static final Env PLAIN = new Env(false, 80, onShutdown -> () -> {
    });

    private Cli() {
    }

    record Result(int exitCode, String out, String err) {
    }

    static Result run(String... args) {
        return run(PLAIN, args);
    }

    static Result run(Env env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine(env, args);
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Result(code, out.toString(), err.toString());
    }
}
