package io.sluice.core.expr;

import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.SchemaParseException;
import io.sluice.core.ParseException;
import io.sluice.core.expr.Lexer.Kind;
import io.sluice.core.expr.Lexer.Token;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Parses Spark SQL expression text into an unresolved {@link Expr}: a hand-written recursive-descent parser over
 * a token list, with Spark's precedence (lowest first):
 *
 * <pre>
 *   namedExpression := '*' | name ('.' name)* '.' '*' | expression [ [AS] alias ]
 *   expression  := orExpr
 *   orExpr      := andExpr ( OR andExpr )*
 *   andExpr     := notExpr ( AND notExpr )*
 *   notExpr     := ( NOT | '!' ) notExpr | valueExpr [ predicate ]
 *   predicate   := [NOT] BETWEEN valueExpr AND valueExpr | [NOT] IN '(' expression (',' expression)* ')'
 *                | [NOT] LIKE valueExpr [ESCAPE 'c'] | IS [NOT] NULL | IS [NOT] DISTINCT FROM valueExpr
 *   valueExpr   := additive ( ( '=' | '==' | '!=' | '&lt;&gt;' | '&lt;' | '&lt;=' | '&gt;' | '&gt;=' | '&lt;=&gt;' ) additive )*
 *   additive    := multiplicative ( ( '+' | '-' | '||' ) multiplicative )*
 *   multiplicative := unary ( ( '*' | '/' | '%' | DIV ) unary )*
 *   unary       := ( '-' | '+' ) unary | postfix
 *   postfix     := primary ( '.' name | '[' expression ']' )*
 *   primary     := literal | CASE ... END | CAST '(' expression AS type ')' | name '(' [ argument (',' argument)* ] ')'
 *                | CURRENT_TIMESTAMP | CURRENT_DATE | name | '(' expression ')'
 *   argument    := '*' | name ('.' name)* '.' '*' | expression      (struct: namedExpression)
 * </pre>
 *
 * Keywords are case-insensitive. Every error is a {@link ParseException} naming the position and the token.
 */
public final class SqlParser {
    /** Words that end an expression, so they cannot be a bare alias or a column name. */
    private static final Set<String> RESERVED = Set.of("AND", "OR", "NOT", "IS", "IN", "BETWEEN", "LIKE", "ESCAPE",
            "AS", "FROM", "CASE", "WHEN", "THEN", "ELSE", "END", "CAST", "DIV", "NULL", "TRUE", "FALSE", "DISTINCT");

    /** Where a star may stand, for the parser's and the analyzer's errors. */
    static final String STAR_USAGE = "invalid usage of '*': a star is allowed only as a whole select item, as in "
            + "selectExpr(\"*\") or selectExpr(\"data.*\"), or as a whole function argument, as in struct(*) or "
            + "to_json(struct(*))";

    private final String input;
    private final List<Token> tokens;
    private int pos;

    private SqlParser(String input) {
        this.input = input;
        this.tokens = Lexer.tokenize(input);
    }

    /** One expression, as {@code where(String)} and {@code expr(String)} take it: no alias, no star. */
    public static Expr parseExpression(String sql) {
        Objects.requireNonNull(sql, "sql");
        SqlParser p = new SqlParser(sql);
        Expr e = p.expression();
        p.expectEnd("an operator or end of input");
        return e;
    }

    /** One select item, as {@code selectExpr} takes it: an expression with an optional alias, or a star. */
    public static Expr parseNamedExpression(String sql) {
        Objects.requireNonNull(sql, "sql");
        SqlParser p = new SqlParser(sql);
        Expr e = p.namedExpression();
        p.expectEnd(e instanceof Expr.Alias || e instanceof Expr.Star ? "end of input"
                : "an operator, an alias or end of input");
        return e;
    }

    /**
     * A SELECT statement over one table: {@code SELECT items FROM table [WHERE condition] [GROUP BY expressions]}.
     *
     * @param items   the select list (as {@link #parseNamedExpression} gives each)
     * @param table   the name after FROM, as written
     * @param where   the condition, or null
     * @param groupBy the grouping expressions; empty without GROUP BY
     */
    public record Select(List<Expr> items, String table, Expr where, List<Expr> groupBy) {
    }

    /** Parses a {@link Select}; keywords are case-insensitive. */
    public static Select parseSelect(String sql) {
        Objects.requireNonNull(sql, "sql");
        SqlParser p = new SqlParser(sql);
        if (!p.peek().isKeyword("SELECT")) {
            throw p.expected(p.peek(), "SELECT");
        }
        p.pos++;
        List<Expr> items = new java.util.ArrayList<>();
        do {
            items.add(p.namedExpression());
        } while (p.accept(","));
        if (!p.peek().isKeyword("FROM")) {
            throw p.expected(p.peek(), "',' or FROM");
        }
        p.pos++;
        Token table = p.peek();
        if (table.kind() != Kind.WORD && table.kind() != Kind.QUOTED) {
            throw p.expected(table, "a table name after FROM");
        }
        p.pos++;
        Expr where = null;
        if (p.peek().isKeyword("WHERE")) {
            p.pos++;
            where = p.expression();
        }
        List<Expr> groupBy = new java.util.ArrayList<>();
        if (p.peek().isKeyword("GROUP")) {
            p.pos++;
            if (!p.peek().isKeyword("BY")) {
                throw p.expected(p.peek(), "BY after GROUP");
            }
            p.pos++;
            do {
                groupBy.add(p.expression());
            } while (p.accept(","));
        }
        p.expectEnd(groupBy.isEmpty() ? "WHERE, GROUP BY or end of input" : "',' or end of input");
        return new Select(items, nameOf(table), where, groupBy);
    }

    /**
     * A column name as {@code col(String)} and {@code select(String...)} take it: {@code a}, {@code a.b},
     * {@code `a.b`}, {@code *} or {@code a.*}. A name that is not of that form is taken whole, as one column
     * name, as Spark does for names it cannot split.
     */
    public static Expr parseColumnName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.equals("*")) {
            return new Expr.Star(List.of(), null);
        }
        List<String> parts = splitName(name);
        if (parts == null) {
            return new Expr.ColumnRef(List.of(name), null);
        }
        if (parts.size() > 1 && parts.get(parts.size() - 1).equals("*") && !name.endsWith("`")) {
            return new Expr.Star(parts.subList(0, parts.size() - 1), null);
        }
        return new Expr.ColumnRef(parts, null);
    }

    /** Splits {@code a.`b.c`.d} on dots outside backquotes; null when the backquotes do not pair up. */
    private static List<String> splitName(String name) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (quoted) {
                if (c == '`') {
                    if (i + 1 < name.length() && name.charAt(i + 1) == '`') {
                        cur.append('`');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cur.append(c);
                }
            } else if (c == '`') {
                quoted = true;
            } else if (c == '.') {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        if (quoted) {
            return null;
        }
        parts.add(cur.toString());
        return parts;
    }

    // -------------------------------------------------------------------------------------------------------------

    private Expr namedExpression() {
        Expr star = star();
        if (star != null) {
            return star;
        }
        Expr e = expression();
        if (peek().isKeyword("AS")) {
            pos++;
            Token alias = peek();
            if (alias.kind() != Kind.WORD && alias.kind() != Kind.QUOTED) {
                throw expected(alias, "an alias after AS");
            }
            pos++;
            return new Expr.Alias(e, nameOf(alias), e.origin());
        }
        Token alias = peek();
        if (alias.kind() == Kind.QUOTED || (alias.kind() == Kind.WORD && !isReserved(alias))) {
            pos++;
            return new Expr.Alias(e, nameOf(alias), e.origin());
        }
        return e;
    }

    /** {@code *} or {@code name ('.' name)* '.' '*'} at the current token, consumed; null (nothing consumed) otherwise. */
    private Expr star() {
        Token t = peek();
        if (t.isSymbol("*")) {
            pos++;
            return new Expr.Star(List.of(), origin(t));
        }
        if (isName(t)) {
            int save = pos;
            List<String> parts = new ArrayList<>();
            parts.add(nameOf(next()));
            while (peek().isSymbol(".")) {
                pos++;
                Token after = peek();
                if (after.isSymbol("*")) {
                    pos++;
                    return new Expr.Star(parts, origin(t));
                }
                if (!isName(after)) {
                    break;
                }
                parts.add(nameOf(next()));
            }
            pos = save;
        }
        return null;
    }

    /**
     * One argument of a function call. A star ({@code *}, {@code data.*}) is expanded by the analyzer to the
     * columns or fields it stands for, as Spark does; {@code struct} also takes aliases ({@code struct(a, b AS c)}),
     * as Spark's grammar has a rule of its own for it.
     */
    private Expr argument(boolean named) {
        Token t = peek();
        Expr star = star();
        if (star == null) {
            return named ? namedExpression() : expression();
        }
        if (!peek().isSymbol(",") && !peek().isSymbol(")")) {
            throw syntax(t, STAR_USAGE); // e.g. concat(* || 'x'): a star cannot be part of a larger expression
        }
        return star;
    }

    private Expr expression() {
        return or();
    }

    private Expr or() {
        Expr left = and();
        while (peek().isKeyword("OR")) {
            next();
            left = new Expr.Binary("OR", left, and(), left.origin());
        }
        return left;
    }

    private Expr and() {
        Expr left = not();
        while (peek().isKeyword("AND")) {
            next();
            left = new Expr.Binary("AND", left, not(), left.origin());
        }
        return left;
    }

    private Expr not() {
        Token t = peek();
        if (t.isKeyword("NOT") || t.isSymbol("!")) {
            pos++;
            return new Expr.Unary("NOT", not(), origin(t));
        }
        Expr value = comparison();
        return predicate(value);
    }

    private Expr predicate(Expr value) {
        Token t = peek();
        boolean negated = false;
        if (t.isKeyword("NOT")) {
            Token after = tokens.get(pos + 1);
            if (after.isKeyword("BETWEEN") || after.isKeyword("IN") || after.isKeyword("LIKE")) {
                pos++;
                negated = true;
                t = peek();
            } else {
                return value;
            }
        }
        if (t.isKeyword("BETWEEN")) {
            pos++;
            Expr low = comparison();
            if (!peek().isKeyword("AND")) {
                throw expected(peek(), "AND in BETWEEN ... AND ...");
            }
            pos++;
            Expr high = comparison();
            return new Expr.Between(value, low, high, negated, value.origin());
        }
        if (t.isKeyword("IN")) {
            pos++;
            Token open = peek();
            if (!open.isSymbol("(")) {
                throw expected(open, "'(' after IN");
            }
            pos++;
            List<Expr> list = new ArrayList<>();
            do {
                list.add(expression());
            } while (accept(","));
            close(open);
            return new Expr.In(value, list, negated, value.origin());
        }
        if (t.isKeyword("LIKE")) {
            pos++;
            Expr pattern = comparison();
            char escape = '\\';
            if (peek().isKeyword("ESCAPE")) {
                pos++;
                Token e = peek();
                if (e.kind() != Kind.STRING || e.value().length() != 1) {
                    throw expected(e, "a one-character string after ESCAPE");
                }
                pos++;
                escape = e.value().charAt(0);
            }
            return new Expr.Like(value, pattern, escape, negated, value.origin());
        }
        if (t.isKeyword("IS")) {
            pos++;
            boolean not = false;
            if (peek().isKeyword("NOT")) {
                pos++;
                not = true;
            }
            if (peek().isKeyword("NULL")) {
                pos++;
                return new Expr.IsNull(value, not, value.origin());
            }
            if (peek().isKeyword("DISTINCT")) {
                pos++;
                if (!peek().isKeyword("FROM")) {
                    throw expected(peek(), "FROM after IS " + (not ? "NOT " : "") + "DISTINCT");
                }
                pos++;
                Expr right = comparison();
                Expr same = new Expr.Binary("<=>", value, right, value.origin());
                return not ? same : new Expr.Unary("NOT", same, value.origin());
            }
            throw expected(peek(), not ? "NULL or DISTINCT FROM after IS NOT" : "NULL, NOT NULL or DISTINCT FROM after IS");
        }
        return value;
    }

    private Expr comparison() {
        Expr left = additive();
        while (true) {
            Token t = peek();
            String op = switch (t.kind() == Kind.SYMBOL ? t.text() : "") {
                case "=", "==" -> "=";
                case "!=", "<>" -> "!=";
                case "<", "<=", ">", ">=", "<=>" -> t.text();
                default -> null;
            };
            if (op == null) {
                return left;
            }
            pos++;
            left = new Expr.Binary(op, left, additive(), left.origin());
        }
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (true) {
            Token t = peek();
            if (t.isSymbol("+") || t.isSymbol("-") || t.isSymbol("||")) {
                pos++;
                left = new Expr.Binary(t.text(), left, multiplicative(), left.origin());
            } else {
                return left;
            }
        }
    }

    private Expr multiplicative() {
        Expr left = unary();
        while (true) {
            Token t = peek();
            if (t.isSymbol("*") || t.isSymbol("/") || t.isSymbol("%")) {
                pos++;
                left = new Expr.Binary(t.text(), left, unary(), left.origin());
            } else if (t.isKeyword("DIV")) {
                pos++;
                left = new Expr.Binary("DIV", left, unary(), left.origin());
            } else {
                return left;
            }
        }
    }

    private Expr unary() {
        Token t = peek();
        if (t.isSymbol("-")) {
            pos++;
            Token n = peek();
            if (n.kind() == Kind.NUMBER && !isPostfix(tokens.get(pos + 1))) {
                pos++;
                return number(n, true, origin(t));
            }
            return new Expr.Unary("-", unary(), origin(t));
        }
        if (t.isSymbol("+")) {
            pos++;
            return unary();
        }
        return postfix(primary());
    }

    private static boolean isPostfix(Token t) {
        return t.isSymbol(".") || t.isSymbol("[");
    }

    private Expr postfix(Expr e) {
        while (true) {
            Token t = peek();
            if (t.isSymbol(".")) {
                pos++;
                Token name = peek();
                // After a dot any word names a field, keywords too, as in Spark: window.end, a.from.
                if (!isName(name) && name.kind() != Kind.WORD) {
                    throw expected(name, "a field name after '.'");
                }
                pos++;
                if (e instanceof Expr.ColumnRef c) {
                    List<String> parts = new ArrayList<>(c.parts());
                    parts.add(nameOf(name));
                    e = new Expr.ColumnRef(parts, c.origin());
                } else {
                    e = new Expr.Field(e, nameOf(name), e.origin());
                }
            } else if (t.isSymbol("[")) {
                pos++;
                Expr index = expression();
                close(t);
                e = new Expr.Subscript(e, index, e.origin());
            } else {
                return e;
            }
        }
    }

    private Expr primary() {
        Token t = peek();
        switch (t.kind()) {
            case NUMBER:
                pos++;
                return number(t, false, origin(t));
            case STRING: {
                pos++;
                StringBuilder s = new StringBuilder(t.value());
                while (peek().kind() == Kind.STRING) { // adjacent literals concatenate, as in Spark
                    s.append(next().value());
                }
                String v = s.toString();
                return new Expr.Literal(v, DataType.stringType(), v, origin(t));
            }
            case QUOTED:
                pos++;
                return new Expr.ColumnRef(List.of(t.value()), origin(t));
            case WORD:
                return word(t);
            case SYMBOL:
                if (t.isSymbol("(")) {
                    pos++;
                    Expr inner = expression();
                    close(t);
                    return inner;
                }
                if (t.isSymbol("*")) {
                    throw syntax(t, STAR_USAGE);
                }
                throw expected(t, "an expression");
            default:
                throw expected(t, "an expression");
        }
    }

    private Expr word(Token t) {
        String upper = t.text().toUpperCase(Locale.ROOT);
        Token after = tokens.get(pos + 1);
        switch (upper) {
            case "NULL":
                pos++;
                return new Expr.Literal(null, null, "NULL", origin(t));
            case "TRUE":
            case "FALSE":
                pos++;
                return new Expr.Literal(upper.equals("TRUE"), DataType.booleanType(), upper.toLowerCase(Locale.ROOT),
                        origin(t));
            case "CASE":
                return caseWhen();
            case "CAST":
                if (after.isSymbol("(")) {
                    return cast();
                }
                break;
            case "DATE":
            case "TIMESTAMP":
                if (after.kind() == Kind.STRING) {
                    pos += 2;
                    return typedLiteral(t, after);
                }
                break;
            case "CURRENT_TIMESTAMP":
            case "CURRENT_DATE":
                if (!after.isSymbol("(")) {
                    pos++;
                    return new Expr.Call(t.text().toLowerCase(Locale.ROOT), List.of(), origin(t));
                }
                break;
            default:
                break;
        }
        if (after.isSymbol("(")) {
            pos += 2;
            List<Expr> args = new ArrayList<>();
            boolean named = upper.equals("STRUCT");
            // f(DISTINCT a, b) is kept as f(distinct(a, b)): the form the Column API's distinct aggregates take,
            // so a streaming aggregation refuses it with Spark's message instead of failing to parse.
            Token distinct = peek().isKeyword("DISTINCT") ? next() : null;
            if (!peek().isSymbol(")")) {
                do {
                    args.add(argument(named));
                } while (accept(","));
            } else if (distinct != null) {
                throw expected(peek(), "an expression after DISTINCT");
            }
            close(after);
            if (distinct != null) {
                args = List.of(new Expr.Call("distinct", args, origin(distinct)));
            }
            return new Expr.Call(t.text(), args, origin(t));
        }
        if (RESERVED.contains(upper)) {
            throw expected(t, "an expression");
        }
        pos++;
        return new Expr.ColumnRef(List.of(t.text()), origin(t));
    }

    private Expr typedLiteral(Token kind, Token text) {
        String s = text.value();
        Origin o = origin(kind);
        if (kind.isKeyword("DATE")) {
            var d = DateTimes.parseDate(s);
            if (d == null) {
                throw syntax(text, "cannot parse the DATE literal '" + s + "': expected yyyy, yyyy-[m]m or yyyy-[m]m-[d]d");
            }
            return new Expr.Literal(d, DataType.dateType(), "DATE '" + d + "'", o);
        }
        // Whether the text is a timestamp does not depend on the zone; its instant does, so the analyzer reads it
        // in the session time zone (Expr.Literal).
        if (DateTimes.parseTimestamp(s, ZoneOffset.UTC) == null) {
            throw syntax(text, "cannot parse the TIMESTAMP literal '" + s
                    + "': expected yyyy-[m]m-[d]d[( |T)[h]h:[m]m[:[s]s[.fraction]][zone]]");
        }
        return new Expr.Literal(s, DataType.timestampType(), "TIMESTAMP '" + s + "'", o);
    }

    private Expr caseWhen() {
        Token start = next();
        Expr operand = null;
        if (!peek().isKeyword("WHEN")) {
            operand = expression();
        }
        List<Expr> whens = new ArrayList<>();
        List<Expr> thens = new ArrayList<>();
        if (!peek().isKeyword("WHEN")) {
            throw expected(peek(), "WHEN");
        }
        while (peek().isKeyword("WHEN")) {
            pos++;
            whens.add(expression());
            if (!peek().isKeyword("THEN")) {
                throw expected(peek(), "THEN");
            }
            pos++;
            thens.add(expression());
        }
        Expr otherwise = null;
        if (peek().isKeyword("ELSE")) {
            pos++;
            otherwise = expression();
        }
        if (!peek().isKeyword("END")) {
            throw expected(peek(), otherwise == null ? "WHEN, ELSE or END" : "END");
        }
        pos++;
        return new Expr.Case(operand, whens, thens, otherwise, origin(start));
    }

    private Expr cast() {
        Token start = next();
        Token open = next();
        Expr child = expression();
        if (!peek().isKeyword("AS")) {
            throw expected(peek(), "AS in CAST(... AS type)");
        }
        pos++;
        // The type runs to the ')' that closes CAST's '(' and is read by the DDL parser.
        Token typeStart = peek();
        int depth = 0;
        while (true) {
            Token t = peek();
            if (t.kind() == Kind.EOF) {
                throw expected(t, "')' to close the '(' at " + new Origin(input, open.start()).where());
            }
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                if (depth == 0) {
                    break;
                }
                depth--;
            }
            pos++;
        }
        Token close = peek();
        if (close == typeStart) {
            throw expected(close, "a data type");
        }
        String typeText = input.substring(typeStart.start(), close.start());
        DataType type;
        try {
            type = DataType.fromDDL(typeText);
        } catch (SchemaParseException e) {
            String headline = e.getMessage().lines().findFirst().orElse("")
                    .replaceAll(" at position \\d+ \\((line \\d+, )?column \\d+\\)", "");
            throw Origin.syntax(input, typeStart.start() + e.position(), "invalid type in CAST: " + headline);
        }
        pos++;
        return new Expr.Cast(child, type, origin(start));
    }

    // -------------------------------------------------------------------------------------------------------------
    // Literals

    private Expr number(Token t, boolean negative, Origin o) {
        try {
            return numberLiteral(t.text(), negative, o);
        } catch (NumberFormatException | ArithmeticException e) {
            throw syntax(t, "the numeric literal " + (negative ? "-" : "") + t.text() + " is outside the range of its type");
        }
    }

    static Expr.Literal numberLiteral(String text, boolean negative, Origin o) {
        String upper = text.toUpperCase(Locale.ROOT);
        String sign = negative ? "-" : "";
        if (upper.endsWith("BD")) {
            BigDecimal d = new BigDecimal(sign + text.substring(0, text.length() - 2));
            return decimal(d, o);
        }
        char suffix = upper.charAt(upper.length() - 1);
        String body = sign + text.substring(0, text.length() - 1);
        boolean integral = upper.indexOf('.') < 0 && upper.indexOf('E') < 0;
        switch (suffix) {
            case 'L':
                requireIntegral(integral, text);
                return lit(Long.parseLong(body), DataType.longType(), o);
            case 'S':
                requireIntegral(integral, text);
                return lit(Short.parseShort(body), DataType.shortType(), o);
            case 'Y':
                requireIntegral(integral, text);
                return lit(Byte.parseByte(body), DataType.byteType(), o);
            case 'D':
                return lit(Double.parseDouble(body), DataType.doubleType(), o);
            case 'F':
                return lit(Float.parseFloat(body), DataType.floatType(), o);
            default:
                break;
        }
        String full = sign + text;
        if (upper.indexOf('E') >= 0) {
            double d = Double.parseDouble(full);
            if (Double.isInfinite(d)) {
                throw new NumberFormatException(text);
            }
            return lit(d, DataType.doubleType(), o);
        }
        if (!integral) {
            return decimal(new BigDecimal(full), o);
        }
        BigInteger v = new BigInteger(full);
        if (v.bitLength() < 32) {
            return lit(v.intValue(), DataType.intType(), o);
        }
        if (v.bitLength() < 64) {
            return lit(v.longValue(), DataType.longType(), o);
        }
        return decimal(new BigDecimal(v), o);
    }

    private static void requireIntegral(boolean integral, String text) {
        if (!integral) {
            throw new NumberFormatException(text);
        }
    }

    private static Expr.Literal lit(Object v, DataType type, Origin o) {
        return new Expr.Literal(v, type, v.toString(), o);
    }

    private static Expr.Literal decimal(BigDecimal d, Origin o) {
        int precision = Math.max(d.precision(), d.scale());
        if (precision > DecimalType.MAX_PRECISION || d.scale() < 0) {
            throw new ArithmeticException("decimal out of range");
        }
        return new Expr.Literal(d, new DecimalType(precision, d.scale()), d.toPlainString(), o);
    }

    // -------------------------------------------------------------------------------------------------------------
    // Tokens and errors

    private static boolean isName(Token t) {
        return t.kind() == Kind.QUOTED || (t.kind() == Kind.WORD && !isReserved(t));
    }

    private static boolean isReserved(Token t) {
        return t.kind() == Kind.WORD && RESERVED.contains(t.text().toUpperCase(Locale.ROOT));
    }

    private static String nameOf(Token t) {
        return t.kind() == Kind.QUOTED ? t.value() : t.text();
    }

    private Origin origin(Token t) {
        return new Origin(input, t.start());
    }

    private void expectEnd(String what) {
        if (peek().kind() != Kind.EOF) {
            throw expected(peek(), what);
        }
    }

    private void close(Token open) {
        String closer = open.isSymbol("[") ? "]" : ")";
        if (!accept(closer)) {
            throw expected(peek(), "'" + closer + "' to close the '" + open.text() + "' at "
                    + new Origin(input, open.start()).where());
        }
    }

    private boolean accept(String symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    private Token next() {
        Token t = peek();
        pos++;
        return t;
    }

    private Token peek() {
        Token t = tokens.get(pos);
        if (t.kind() == Kind.BAD) {
            throw syntax(t, t.value());
        }
        return t;
    }

    private ParseException expected(Token found, String what) {
        return syntax(found, "expected " + what + " but found " + describe(found));
    }

    private ParseException syntax(Token at, String detail) {
        return Origin.syntax(input, at.start(), detail);
    }

    private static String describe(Token t) {
        if (t.kind() == Kind.EOF) {
            return "end of input";
        }
        String text = t.text().length() > 40 ? t.text().substring(0, 37) + "..." : t.text();
        return "'" + text + "'";
    }
}
