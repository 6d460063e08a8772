package io.sluice.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Prints failures the command line's way: {@code sluice: <message>} on one line of stderr, the stack trace too
 * with {@code --verbose}, secret option values masked. A usage error (a bad flag or flag value) exits
 * {@value #USAGE}, any other failure {@value #FAILURE}.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {
    static final int FAILURE = 1;
    static final int USAGE = 2;

    private volatile Redactor redactor = Redactor.none();

    /** From now on, mask these secrets too (set once a pipeline's options are known). */
    void redactor(Redactor redactor) {
        this.redactor = redactor;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        err.println("sluice: " + redactor.text(oneLine(ex)));
        if (verbose(parseResult)) {
            StringWriter trace = new StringWriter();
            ex.printStackTrace(new PrintWriter(trace));
            err.print(redactor.text(trace.toString()));
        }
        err.flush();
        return FAILURE;
    }

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("sluice: " + redactor.text(oneLine(ex)));
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return USAGE;
    }

    /** The message on one line; the exception's class when it has none. */
    static String oneLine(Throwable t) {
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            return t.getClass().getSimpleName();
        }
        return m.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** True when {@code --verbose} was given to the command or any of its subcommands. */
    static boolean verbose(ParseResult result) {
        for (ParseResult r = result; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }
}
