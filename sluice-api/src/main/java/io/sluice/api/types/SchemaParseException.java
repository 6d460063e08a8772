package io.sluice.api.types;

/**
 * A DDL string could not be parsed. The message names the 0-based position (with the 1-based column) and the
 * token found there, and repeats the input (the line holding the position, for input of several lines) with a
 * caret under the position.
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
