package io.sluice.cli;

/**
 * A setting that cannot be used, found while checking a pipeline before it starts. The message is a clause that
 * the caller places after where the setting came from (a flag, or a line of the pipeline file).
 */
final class SpecException extends Exception {
    private static final long serialVersionUID = 1L;

    SpecException(String problem) {
        super(problem, null, false, false);
    }
}
