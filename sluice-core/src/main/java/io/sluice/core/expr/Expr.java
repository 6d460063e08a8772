package io.sluice.core.expr;

import io.sluice.api.types.DataType;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * An unresolved expression: what the SQL parser and the Column API build, before it is resolved against a
 * schema. Immutable. Internal to Sluice: user code builds expressions with {@link io.sluice.core.Column} and
 * {@link io.sluice.core.Functions}, and nothing here is a supported API.
 */
public sealed interface Expr {

    /** Where the node was parsed from, or null for nodes built with the Column API. */
    Origin origin();

    /** A column, or a nested field path {@code a.b.c}: {@code parts} has at least one name. */
    record ColumnRef(List<String> parts, Origin origin) implements Expr {
        public ColumnRef {
            parts = List.copyOf(parts);
        }
    }

    /**
     * The input column at {@code index}, whatever its name: what {@code withColumn} and {@code drop} keep, so
     * that duplicate or dotted names cannot be confused.
     */
    record InputColumn(int index, String name) implements Expr {
        @Override
        public Origin origin() {
            return null;
        }
    }

    /** {@code *} (empty qualifier) or {@code a.b.*}. */
    record Star(List<String> qualifier, Origin origin) implements Expr {
        public Star {
            qualifier = List.copyOf(qualifier);
        }
    }

    /**
     * A constant. {@code type} is null for an untyped {@code NULL}. {@code text} is how the literal is named in
     * output column names (Spark's pretty form: strings without quotes, numbers without suffixes). A timestamp
     * literal's value is an {@code Instant}, or for SQL's {@code TIMESTAMP '...'} its text: a timestamp without a zone
     * is in the session time zone, which the parser does not know, so the analyzer reads it (and names every
     * timestamp literal in that zone).
     */
    record Literal(Object value, DataType type, String text, Origin origin) implements Expr {
    }

    /** Unary {@code -} or {@code NOT}. */
    record Unary(String op, Expr child, Origin origin) implements Expr {
    }

    /**
     * A binary operator, normalized: {@code + - * / % DIV || = <=> != < <= > >= AND OR} ({@code ==} is read as
     * {@code =}, {@code <>} as {@code !=}).
     */
    record Binary(String op, Expr left, Expr right, Origin origin) implements Expr {
    }

    record IsNull(Expr child, boolean negated, Origin origin) implements Expr {
    }

    record In(Expr value, List<Expr> list, boolean negated, Origin origin) implements Expr {
        public In {
            list = List.copyOf(list);
        }
    }

    record Between(Expr value, Expr low, Expr high, boolean negated, Origin origin) implements Expr {
    }

    record Like(Expr value, Expr pattern, char escape, boolean negated, Origin origin) implements Expr {
    }

    /** {@code CASE [operand] WHEN w THEN t ... [ELSE e] END}; {@code operand} and {@code otherwise} may be null. */
    record Case(Expr operand, List<Expr> whens, List<Expr> thens, Expr otherwise, Origin origin) implements Expr {
        public Case {
            whens = List.copyOf(whens);
            thens = List.copyOf(thens);
        }
    }

    record Cast(Expr child, DataType type, Origin origin) implements Expr {
    }

    /** A function call; {@code name} as written. */
    record Call(String name, List<Expr> args, Origin origin) implements Expr {
        public Call {
            args = List.copyOf(args);
        }
    }

    record Alias(Expr child, String name, Origin origin) implements Expr {
        public Alias {
            Objects.requireNonNull(name, "alias");
        }
    }

    /** {@code child.name}: a field of a struct value. */
    record Field(Expr child, String name, Origin origin) implements Expr {
    }

    /** {@code child[index]}: an array element (0-based) or a map value. */
    record Subscript(Expr child, Expr index, Origin origin) implements Expr {
    }

    /** Spark-like text of an unresolved expression, for {@code Column.toString()}. */
    static String toText(Expr e) {
        if (e instanceof ColumnRef c) {
            return c.parts().stream().map(Expr::quoteIfNeeded).collect(Collectors.joining("."));
        } else if (e instanceof InputColumn c) {
            return quoteIfNeeded(c.name());
        } else if (e instanceof Star s) {
            return s.qualifier().isEmpty() ? "*"
                    : s.qualifier().stream().map(Expr::quoteIfNeeded).collect(Collectors.joining(".")) + ".*";
        } else if (e instanceof Literal l) {
            return l.value() instanceof String str && l.type() != DataType.timestampType() ? "'" + str.replace("\\", "\\\\").replace("'", "\\'") + "'" : l.text();
        } else if (e instanceof Unary u) {
            return "(" + (u.op().equals("NOT") ? "NOT " : "- ") + toText(u.child()) + ")";
        } else if (e instanceof Binary b) {
            return "(" + toText(b.left()) + " " + b.op() + " " + toText(b.right()) + ")";
        } else if (e instanceof IsNull n) {
            return "(" + toText(n.child()) + (n.negated() ? " IS NOT NULL)" : " IS NULL)");
        } else if (e instanceof In in) {
            return "(" + toText(in.value()) + (in.negated() ? " NOT IN (" : " IN (")
                    + in.list().stream().map(Expr::toText).collect(Collectors.joining(", ")) + "))";
        } else if (e instanceof Between b) {
            return "(" + toText(b.value()) + (b.negated() ? " NOT BETWEEN " : " BETWEEN ") + toText(b.low()) + " AND "
                    + toText(b.high()) + ")";
        } else if (e instanceof Like l) {
            return toText(l.value()) + (l.negated() ? " NOT LIKE " : " LIKE ") + toText(l.pattern());
        } else if (e instanceof Case c) {
            StringBuilder sb = new StringBuilder("CASE");
            if (c.operand() != null) {
                sb.append(' ').append(toText(c.operand()));
            }
            for (int i = 0; i < c.whens().size(); i++) {
                sb.append(" WHEN ").append(toText(c.whens().get(i))).append(" THEN ").append(toText(c.thens().get(i)));
            }
            if (c.otherwise() != null) {
                sb.append(" ELSE ").append(toText(c.otherwise()));
            }
            return sb.append(" END").toString();
        } else if (e instanceof Cast c) {
            return "CAST(" + toText(c.child()) + " AS " + c.type().sql() + ")";
        } else if (e instanceof Call c) {
            return c.name() + "(" + c.args().stream().map(Expr::toText).collect(Collectors.joining(", ")) + ")";
        } else if (e instanceof Alias a) {
            return toText(a.child()) + " AS " + quoteIfNeeded(a.name());
        } else if (e instanceof Field f) {
            return toText(f.child()) + "." + quoteIfNeeded(f.name());
        } else if (e instanceof Subscript s) {
            return toText(s.child()) + "[" + toText(s.index()) + "]";
        }
        throw new IllegalStateException("Unknown expression " + e);
    }

    static String quoteIfNeeded(String name) {
        if (!name.isEmpty() && name.chars().allMatch(c -> c == '_' || Character.isLetterOrDigit(c))) {
            return name;
        }
        return "`" + name.replace("`", "``") + "`";
    }
}
