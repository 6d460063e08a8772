package io.sluice.cli;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewords the engine's advice to a Java API user ({@code call schema("...")}, {@code spark.read.load(..)},
 * {@code option("host", ...)}, {@code call format("...")}) as the command line's: the flag, and the pipeline file
 * key. The engine's messages stay Spark's for library users; each phrase reworded here is pinned by a test running
 * the command that gets it, so a change of the engine's wording shows there.
 */
final class CliAdvice {

    /** {@code replacement} in {@link Matcher#replaceAll(String)}'s syntax: {@code $1} is the first group. */
    private record Rule(Pattern phrase, String replacement) {
        String apply(String message) {
            return phrase.matcher(message).replaceAll(replacement);
        }
    }

    private static final List<Rule> RULES = List.of(
            // The file source (Spark's message, then Sluice's own advice in parentheses). A static read of the
            // folder has no command-line form; the two ways out do.
            new Rule(Pattern.compile("\\. If some files already exist in the directory, then depending on the file "
                    + "format you may be able to create a static DataFrame on that directory with "
                    + "'spark\\.read\\.load\\(directory\\)' and infer schema from it\\. \\(Sluice: call "
                    + "schema\\(\"([^\"]*)\"\\), or set option inferSchema=true (.*)\\.\\)$"),
                    ": give --schema \"$1\" (or source.schema in the pipeline file), or --source-option "
                    + "inferSchema=true (source.options.inferSchema in the pipeline file) $2"),
            // Every other source without a fixed schema (SourceProvider.resolveSchema).
            new Rule(Pattern.compile("call schema\\(\"([^\"]*)\"\\)"),
                    "give --schema \"$1\" (or source.schema in the pipeline file)"),
            // A source option the message names as a Java call (socket host and port, the memory source's name).
            new Rule(Pattern.compile("option\\(\"([^\"]+)\", \\.\\.\\.\\)"),
                    "--source-option $1=... (source.options.$1 in the pipeline file)"),
            // A blank --source or --sink (Providers).
            new Rule(Pattern.compile("No (source|sink) format given: call format\\(\"<name>\"\\)"),
                    "No $1 format given: give --$1 FORMAT (or $1.format in the pipeline file)"));

    private CliAdvice() {
    }

    /** The message with every known Java API advice reworded for the command line. */
    static String apply(String message) {
        String out = message;
        for (Rule rule : RULES) {
            out = rule.apply(out);
        }
        return out;
    }
}
