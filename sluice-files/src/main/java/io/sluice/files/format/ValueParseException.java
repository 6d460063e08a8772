package io.sluice.files.format;

/**
 * A value that cannot be converted to its column's type. Carries no stack trace: in PERMISSIVE mode bad values
 * are data, not bugs, and may be frequent.
 */
final class ValueParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ValueParseException(String message) {
        super(message, null, false, false);
    }

    ValueParseException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
