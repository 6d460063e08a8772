package io.sluice.api;

/**
 * An option is missing or has a value that is not accepted. Thrown before a query starts. The message names the
 * option, the value given (if any) and what is accepted.
 */
public class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String option;
    private final String value;

    /**
     * @param option   the option's name as documented
     * @param value    the value given, or null when the option was missing
     * @param accepted what would have been accepted, e.g. "must be positive"
     */
    public InvalidOptionException(String option, String value, String accepted) {
        this(option, value, value == null
                ? "Option '" + option + "' is missing: " + accepted
                : "Invalid value '" + value + "' for option '" + option + "': " + accepted, true);
    }

    /** With a message of the caller's own wording (for Spark's exact messages). */
    public InvalidOptionException(String option, String value, String message, boolean fullMessage) {
        super(message);
        this.option = option;
        this.value = value;
    }

    public String option() {
        return option;
    }

    /** The offending value, or null when the option was missing. */
    public String value() {
        return value;
    }
}
