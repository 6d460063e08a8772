package io.sluice.core;

/**
 * SQL expression text does not parse. The message reads {@code Syntax error at position 7 (column 8): expected an
 * expression but found ')'}, then the input line and a caret under the position, in the style of
 * {@link io.sluice.api.types.SchemaParseException}. {@link #position()} is the 0-based offset.
 */
public final class ParseException extends AnalysisException {
    private static final long serialVersionUID = 1L;

    public ParseException(String message, int position) {
        super(message, position);
    }
}
