package io.sluice.api.types;

/**
 * A DDL string could not be parsed. The message names the 1-based position and the token found there, and
 * repeats the input with a caret under the position.
 */
public final class SchemaParseException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int position;

    public SchemaParseException(String message, int position) {
        super(message);
        this.position = position;
    }

    /** 0-based offset into the input where the error was found. */
    public int position() {
        return position;
    }
}
