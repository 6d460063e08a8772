package io.sluice.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One transformation step of a pipeline, written {@code where:<SQL condition>} (keep the rows for which it is true)
 * or {@code select:<expr>, <expr>...} (SQL expressions, each optionally {@code AS name}). The same text is accepted
 * by {@code --transform} and in a pipeline file's {@code transforms} list.
 *
 * @param kind        where or select
 * @param expressions for where: the condition alone; for select: the expressions, split at top-level commas
 */
record Transform(Kind kind, List<String> expressions) {

    enum Kind { WHERE, SELECT }

    static final String ACCEPTED = "start it with 'where:' (a SQL condition) or 'select:' (SQL expressions "
            + "separated by commas), e.g. 'where:amount > 10' or 'select:id, amount * 2 AS doubled'";

    Transform {
        expressions = List.copyOf(expressions);
    }

    static Transform where(String condition) throws SpecException {
        String c = condition == null ? "" : condition.strip();
        if (c.isEmpty()) {
            throw new SpecException("the condition after 'where:' is empty");
        }
        return new Transform(Kind.WHERE, List.of(c));
    }

    static Transform select(List<String> expressions) throws SpecException {
        List<String> exprs = new ArrayList<>();
        for (String e : expressions) {
            String s = e == null ? "" : e.strip();
            if (s.isEmpty()) {
                throw new SpecException("an expression after 'select:' is empty");
            }
            exprs.add(s);
        }
        if (exprs.isEmpty()) {
            throw new SpecException("the expressions after 'select:' are empty");
        }
        return new Transform(Kind.SELECT, exprs);
    }

    /** Parses {@code where:...} or {@code select:...}; the prefix is case-insensitive. */
    static Transform parse(String text) throws SpecException {
        String t = text.stripLeading();
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.startsWith("where:")) {
            return where(t.substring("where:".length()));
        }
        if (lower.startsWith("select:")) {
            String body = t.substring("select:".length());
            if (body.isBlank()) {
                throw new SpecException("the expressions after 'select:' are empty");
            }
            return select(splitExpressions(body));
        }
        throw new SpecException(ACCEPTED);
    }

    /** The condition of a where step. */
    String condition() {
        return expressions.get(0);
    }

    /**
     * Splits at commas that are outside parentheses, brackets and quotes ({@code '...'}, {@code "..."},
     * {@code `...`}, with backslash escapes), so {@code concat(a, ',') AS s, b} is two expressions.
     */
    static List<String> splitExpressions(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int depth = 0;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                current.append(c);
                if (c == '\\' && quote != '`' && i + 1 < text.length()) {
                    current.append(text.charAt(++i));
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            switch (c) {
                case '\'', '"', '`' -> quote = c;
                case '(', '[' -> depth++;
                case ')', ']' -> depth = Math.max(0, depth - 1);
                default -> {
                }
            }
            if (c == ',' && depth == 0) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }

    @Override
    public String toString() {
        return kind == Kind.WHERE ? "where:" + condition() : "select:" + String.join(", ", expressions);
    }
}
