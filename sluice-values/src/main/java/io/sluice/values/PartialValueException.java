package io.sluice.values;

/**
 * A struct, array or map of which some parts could not be converted: {@link #partial} holds what could (bad parts
 * null), as Spark's JacksonParser keeps partial results. No stack trace.
 */
public final class PartialValueException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** What could be read: a {@code Row}, {@code List} or {@code Map} with the bad parts null. */
    public final transient Object partial;
    /** The first part that could not be read. */
    public final Throwable reason;

    /** A partial result and why it is one. */
    public PartialValueException(Object partial, Throwable reason) {
        super(reason == null ? null : reason.getMessage(), null, false, false);
        this.partial = partial;
        this.reason = reason;
    }
}
