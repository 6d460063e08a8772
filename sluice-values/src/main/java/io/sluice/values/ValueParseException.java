package io.sluice.values;

/**
 * A value that cannot be converted to its column's type (Spark's reading rules); the message says why. Carries no stack trace: in PERMISSIVE mode bad values
 * are data, not bugs, and may be frequent.
 */
public final class ValueParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failure with Spark's message. */
    public ValueParseException(String message) {
        super(message, null, false, false);
    }

    /** A failure with Spark's message and its cause. */
    public ValueParseException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
