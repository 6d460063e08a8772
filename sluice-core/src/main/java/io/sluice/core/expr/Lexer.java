package io.sluice.core.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL expression text into tokens, as Spark's lexer does for the parts of its grammar Sluice supports.
 * Problems (an unclosed string) become a BAD token, so an earlier syntax error is still reported first.
 */
final class Lexer {
    private Lexer() {
    }

    enum Kind {
        /** A word: letters, digits and underscores, not a number. Keywords are words too. */
        WORD,
        /** A {@code `backquoted`} name; {@code value} is the name. */
        QUOTED,
        /** A numeric literal with its suffix, as written. */
        NUMBER,
        /** A string literal; {@code value} is its content with escapes applied. */
        STRING,
        /** An operator or punctuation: {@code ( ) , . * + - / % = == != <> < <= > >= <=> || [ ] !} and others. */
        SYMBOL,
        BAD,
        EOF
    }

    record Token(Kind kind, String text, String value, int start, int end) {
        boolean isSymbol(String s) {
            return kind == Kind.SYMBOL && text.equals(s);
        }

        boolean isKeyword(String k) {
            return kind == Kind.WORD && text.equalsIgnoreCase(k);
        }
    }

    private static final String[] OPERATORS = {"<=>", "==", "!=", "<>", "<=", ">=", "||"};

    static List<Token> tokenize(String in) {
        List<Token> tokens = new ArrayList<>();
        int n = in.length();
        int i = 0;
        while (true) {
            i = skipSpaceAndComments(in, i, tokens);
            if (!tokens.isEmpty() && tokens.get(tokens.size() - 1).kind == Kind.BAD) {
                return tokens;
            }
            if (i >= n) {
                tokens.add(new Token(Kind.EOF, "", "", n, n));
                return tokens;
            }
            char c = in.charAt(i);
            int start = i;
            if (c == '`') {
                StringBuilder name = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        tokens.add(new Token(Kind.BAD, in.substring(start), "unclosed backquote: a name that starts"
                                + " with ` must end with ` (write `` for a backquote inside the name)", start, n));
                        return tokens;
                    }
                    char d = in.charAt(i++);
                    if (d == '`') {
                        if (i < n && in.charAt(i) == '`') {
                            name.append('`');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        name.append(d);
                    }
                }
                tokens.add(new Token(Kind.QUOTED, in.substring(start, i), name.toString(), start, i));
            } else if (c == '\'' || c == '"' || ((c == 'r' || c == 'R') && i + 1 < n
                    && (in.charAt(i + 1) == '\'' || in.charAt(i + 1) == '"'))) {
                boolean raw = c == 'r' || c == 'R';
                if (raw) {
                    i++;
                }
                char quote = in.charAt(i++);
                StringBuilder value = new StringBuilder();
                boolean closed = false;
                while (i < n) {
                    char d = in.charAt(i);
                    if (d == quote) {
                        if (i + 1 < n && in.charAt(i + 1) == quote) {
                            value.append(quote); // '' inside '...' is one quote, as Spark reads it
                            i += 2;
                            continue;
                        }
                        i++;
                        closed = true;
                        break;
                    }
                    if (d == '\\' && !raw && i + 1 < n) {
                        i = unescape(in, i, value);
                        continue;
                    }
                    value.append(d);
                    i++;
                }
                if (!closed) {
                    tokens.add(new Token(Kind.BAD, in.substring(start), "unclosed string: a string that starts with "
                            + quote + " must end with " + quote, start, n));
                    return tokens;
                }
                tokens.add(new Token(Kind.STRING, in.substring(start, i), value.toString(), start, i));
            } else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(in.charAt(i + 1)))) {
                int end = numberEnd(in, i);
                if (end < 0 || (end < n && isWordChar(in.charAt(end)))) {
                    // Not a number after all: Spark reads 1a or 12_b as an identifier.
                    int w = i;
                    while (w < n && isWordChar(in.charAt(w))) {
                        w++;
                    }
                    if (c == '.' || w == i) {
                        tokens.add(new Token(Kind.SYMBOL, ".", ".", i, i + 1));
                        i++;
                        continue;
                    }
                    tokens.add(new Token(Kind.WORD, in.substring(i, w), in.substring(i, w), i, w));
                    i = w;
                } else {
                    tokens.add(new Token(Kind.NUMBER, in.substring(i, end), in.substring(i, end), i, end));
                    i = end;
                }
            } else if (isWordChar(c)) {
                while (i < n && isWordChar(in.charAt(i))) {
                    i++;
                }
                String text = in.substring(start, i);
                tokens.add(new Token(Kind.WORD, text, text, start, i));
            } else {
                String op = String.valueOf(c);
                for (String candidate : OPERATORS) {
                    if (in.startsWith(candidate, i)) {
                        op = candidate;
                        break;
                    }
                }
                i += op.length();
                tokens.add(new Token(Kind.SYMBOL, op, op, start, i));
            }
        }
    }

    /**
     * The end of a numeric literal starting at {@code i}: digits, an optional fraction, an optional exponent and
     * an optional suffix (L, S, Y, D, F, BD). -1 when an exponent marker has no digits.
     */
    private static int numberEnd(String in, int i) {
        int n = in.length();
        while (i < n && isDigit(in.charAt(i))) {
            i++;
        }
        if (i < n && in.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(in.charAt(i))) {
                i++;
            }
        }
        if (i < n && (in.charAt(i) == 'e' || in.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (in.charAt(j) == '+' || in.charAt(j) == '-')) {
                j++;
            }
            if (j < n && isDigit(in.charAt(j))) {
                i = j;
                while (i < n && isDigit(in.charAt(i))) {
                    i++;
                }
            } else {
                return -1;
            }
        }
        if (i + 1 < n && (in.charAt(i) == 'b' || in.charAt(i) == 'B') && (in.charAt(i + 1) == 'd' || in.charAt(i + 1) == 'D')) {
            return i + 2;
        }
        if (i < n && "lLsSyYdDfF".indexOf(in.charAt(i)) >= 0) {
            return i + 1;
        }
        return i;
    }

    /** Spark's backslash escapes; an unknown escape stands for the character itself. Returns the next index. */
    private static int unescape(String in, int i, StringBuilder out) {
        char e = in.charAt(i + 1);
        switch (e) {
            case '0' -> out.append('\0');
            case 'b' -> out.append('\b');
            case 'n' -> out.append('\n');
            case 'r' -> out.append('\r');
            case 't' -> out.append('\t');
            case 'Z' -> out.append('\u001A');
            // Kept with the backslash so that LIKE still sees an escaped wildcard, as in Spark.
            case '%' -> out.append("\\%");
            case '_' -> out.append("\\_");
            case 'u' -> {
                if (i + 6 <= in.length() && isHex(in, i + 2, 4)) {
                    out.append((char) Integer.parseInt(in.substring(i + 2, i + 6), 16));
                    return i + 6;
                }
                out.append('u');
            }
            default -> out.append(e);
        }
        return i + 2;
    }

    private static boolean isHex(String in, int from, int count) {
        for (int k = from; k < from + count; k++) {
            if (Character.digit(in.charAt(k), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isWordChar(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    private static int skipSpaceAndComments(String in, int i, List<Token> tokens) {
        int n = in.length();
        while (i < n) {
            char c = in.charAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                i++;
            } else if (in.startsWith("--", i)) {
                while (i < n && in.charAt(i) != '\n') {
                    i++;
                }
            } else if (in.startsWith("/*", i)) {
                int start = i;
                int depth = 0;
                do {
                    if (in.startsWith("/*", i)) {
                        depth++;
                        i += 2;
                    } else if (in.startsWith("*/", i)) {
                        depth--;
                        i += 2;
                    } else {
                        i++;
                    }
                } while (depth > 0 && i < n);
                if (depth > 0) {
                    tokens.add(new Token(Kind.BAD, in.substring(start), "unclosed comment: /* must end with */", start, n));
                    return n;
                }
            } else {
                break;
            }
        }
        return i;
    }
}
