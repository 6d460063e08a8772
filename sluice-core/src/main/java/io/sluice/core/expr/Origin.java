package io.sluice.core.expr;

import io.sluice.core.AnalysisException;
import io.sluice.core.ParseException;

/**
 * Where an expression node came from: the SQL text it was parsed from and its 0-based start offset. Nodes built
 * with the Column API have no origin (null).
 */
public record Origin(String text, int start) {

    /** "position 12 (column 13)", or with the line for input of several lines. */
    String where() {
        int lineStart = lineStart();
        if (lineStart == 0 && text.indexOf('\n') < 0) {
            return "position " + start + " (column " + (start + 1) + ")";
        }
        int line = 1 + (int) text.substring(0, lineStart).chars().filter(c -> c == '\n').count();
        return "position " + start + " (line " + line + ", column " + (start - lineStart + 1) + ")";
    }

    private int lineStart() {
        return text.lastIndexOf('\n', start - 1) + 1;
    }

    /** The line holding the position and a caret under it (tabs copied so the caret stays aligned). */
    String caret() {
        int lineStart = lineStart();
        int lineEnd = text.indexOf('\n', start);
        String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd);
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        StringBuilder caret = new StringBuilder();
        for (int i = lineStart; i < start; i++) {
            caret.append(text.charAt(i) == '\t' ? '\t' : ' ');
        }
        return line + "\n" + caret.append('^');
    }

    static ParseException syntax(String text, int offset, String detail) {
        Origin o = new Origin(text, offset);
        return new ParseException("Syntax error at " + o.where() + ": " + detail + "\n" + o.caret(), offset);
    }

    /** An analysis error: the headline, then the text and caret when the origin is known. */
    static AnalysisException error(String headline, Origin origin) {
        if (origin == null) {
            return new AnalysisException(headline, -1);
        }
        return new AnalysisException(headline + "\n" + origin.caret(), origin.start);
    }
}
