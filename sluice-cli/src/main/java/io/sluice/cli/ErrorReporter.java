package io.sluice.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Prints failures the command line's way: {@code sluice: <message>} on one line of stderr, and nothing else; with
 * {@code --verbose} the stack trace follows. Secret option values are masked in both. The line is made readable
 * ({@link #readable}): advice worded for the Java API is reworded for the command line ({@link CliAdvice}), a
 * part repeated right after itself is shown once, and a long part (an HTML page a server answered, say) is cut. A
 * usage error (a bad flag or flag value) exits {@value #USAGE}, any other failure {@value #FAILURE}.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {
    static final int FAILURE = 1;
    static final int USAGE = 2;
    /** The longest part of a message shown: the parts are what ": " separates (a cause, a quoted reply). */
    static final int PART_LIMIT = 300;
    /** The longest message shown, whatever its parts. */
    static final int LINE_LIMIT = 1000;
    /** Shorter runs of parts may repeat by chance ("line 1: ... line 1"); only longer repeats are dropped. */
    private static final int MIN_REPEAT = 20;
    private static final String SEPARATOR = ": ";
    /** A part that is only an exception's class name, as {@code Throwable.toString()} puts before the message. */
    private static final Pattern CLASS_NAME = Pattern.compile("(?:[a-z_][\\w$]*\\.)+[A-Z][\\w$]*");

    private volatile Redactor redactor = Redactor.none();

    /** From now on, mask these secrets too (set once a pipeline's options are known). */
    void redactor(Redactor redactor) {
        this.redactor = redactor;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        err.println("sluice: " + readable(CliAdvice.apply(redactor.text(oneLine(ex)))));
        if (verbose(parseResult)) {
            StringWriter trace = new StringWriter();
            ex.printStackTrace(new PrintWriter(trace));
            err.print(redactor.text(trace.toString()));
        }
        err.flush();
        return FAILURE;
    }

    /** {@code sluice: <message> (possible solutions: ...); see 'sluice run --help'}: one line, like a failure. */
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        StringBuilder line = new StringBuilder("sluice: ").append(readable(redactor.text(oneLine(ex))));
        if (ex instanceof UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
            line.append(" (possible solutions: ").append(String.join(", ", u.getSuggestions())).append(')');
        }
        line.append("; see '").append(cmd.getCommandSpec().qualifiedName()).append(" --help'");
        err.println(line);
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

    /**
     * The one-line message, readable: split into parts at ": ", a run of parts that repeats the run right before it
     * (optionally after an exception's class name, as {@code "x: " + e} does after {@code e}'s own message) is
     * dropped; a part longer than {@value #PART_LIMIT} characters, and the whole beyond {@value #LINE_LIMIT}, is cut
     * and ends with {@code ... (N more characters; --verbose for all)}.
     */
    static String readable(String message) {
        List<String> parts = withoutRepeats(Arrays.asList(message.split(SEPARATOR, -1)));
        StringBuilder out = new StringBuilder();
        for (String part : parts) {
            if (!out.isEmpty()) {
                out.append(SEPARATOR);
            }
            out.append(cut(part, PART_LIMIT));
        }
        return cut(out.toString(), LINE_LIMIT);
    }

    private static String cut(String text, int limit) {
        if (text.length() <= limit) {
            return text;
        }
        int end = limit;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--; // never half a character
        }
        return text.substring(0, end) + "... (" + (text.length() - end) + " more characters; --verbose for all)";
    }

    private static List<String> withoutRepeats(List<String> parts) {
        List<String> out = new ArrayList<>();
        int shown = 0;
        int i = 0;
        // Beyond the line's limit everything is cut anyway: no need to look for repeats there.
        while (i < parts.size() && shown <= LINE_LIMIT) {
            int skip = repeatAt(out, parts, i);
            if (skip > 0) {
                i += skip;
            } else {
                shown += parts.get(i).length() + SEPARATOR.length();
                out.add(parts.get(i++));
            }
        }
        out.addAll(parts.subList(i, parts.size()));
        return out;
    }

    /**
     * How many parts from {@code parts[i]} on repeat the last parts already kept (after an optional class name
     * part), longest repeat first; 0 if none does.
     */
    private static int repeatAt(List<String> kept, List<String> parts, int i) {
        int start = i < parts.size() && CLASS_NAME.matcher(parts.get(i)).matches() ? i + 1 : i;
        for (int n = Math.min(kept.size(), parts.size() - start); n > 0; n--) {
            if (!kept.get(kept.size() - n).equals(parts.get(start))) {
                continue;
            }
            List<String> previous = kept.subList(kept.size() - n, kept.size());
            if (previous.equals(parts.subList(start, start + n))
                    && String.join(SEPARATOR, previous).length() >= MIN_REPEAT) {
                return start - i + n;
            }
        }
        return 0;
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
