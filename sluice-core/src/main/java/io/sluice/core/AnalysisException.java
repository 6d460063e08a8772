package io.sluice.core;

/**
 * A transformation cannot be applied to its frame: an unknown column or function, a type mismatch, a misplaced
 * {@code *}. Thrown by the transformation method itself ({@code select}, {@code where}, {@code withColumn}...),
 * before any query starts; {@link ParseException}, its subclass, is for SQL text that does not parse.
 *
 * <p>The message's first line says what is wrong in Spark's words where Spark has them. When the problem lies in
 * SQL text (an argument of {@code selectExpr}, {@code where(String)}, {@code Functions.expr}), the message goes on
 * with the line of text holding the problem and a caret under it, and {@link #position()} is that 0-based offset.
 */
public sealed class AnalysisException extends IllegalArgumentException permits ParseException {
    private static final long serialVersionUID = 1L;
    private final int position;

    public AnalysisException(String message, int position) {
        super(message);
        this.position = position;
    }

    /** 0-based offset of the problem in the SQL text it came from, or -1 when it came from a built Column. */
    public int position() {
        return position;
    }
}
