package io.sluice.files.format;

/**
 * A struct, array or map of which some parts could not be converted: {@link #partial} holds what could (bad parts
 * null), as Spark's JacksonParser keeps partial results. No stack trace.
 */
final class PartialValueException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Object partial;
    final Throwable reason;

    PartialValueException(Object partial, Throwable reason) {
        super(reason == null ? null : reason.getMessage(), null, false, false);
        this.partial = partial;
        this.reason = reason;
    }
}
