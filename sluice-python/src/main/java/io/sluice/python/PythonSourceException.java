package io.sluice.python;

/**
 * A Python data source failed: its code raised, its worker died, or it returned something the engine cannot take.
 * The message names the source and the call, and ends with the Python error and the last lines of its traceback
 * (file and line); {@link #traceback()} has the whole traceback when Python raised.
 */
public final class PythonSourceException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String traceback;

    PythonSourceException(String message, String traceback) {
        super(message);
        this.traceback = traceback;
    }

    PythonSourceException(String message, Throwable cause) {
        super(message, cause);
        this.traceback = null;
    }

    /** The Python traceback as Python printed it, or null when the failure was not a Python exception. */
    public String traceback() {
        return traceback;
    }
}
