package io.sluice.core;

import io.sluice.api.types.DataType;
import io.sluice.core.expr.Expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An expression over the columns of a {@link StreamFrame}, the twin of Spark's {@code Column}: built with
 * {@link Functions} ({@code col("amount").gt(100)}, {@code expr("amount * 2")}) and used in
 * {@link StreamFrame#select(Column...)}, {@link StreamFrame#where(Column)} and {@link StreamFrame#withColumn}.
 *
 * <p>Immutable; every method returns a new column. A column is not tied to a frame: names are resolved, and
 * types checked, when it is used in a transformation, which throws {@link AnalysisException} for anything that
 * does not resolve. Arguments typed {@code Object} take another {@code Column} or a literal value (as
 * {@link Functions#lit(Object)}).
 */
public final class Column {
    private final Expr expr;

    Column(Expr expr) {
        this.expr = Objects.requireNonNull(expr, "expr");
    }

    Expr expr() {
        return expr;
    }

    static Expr exprOf(Object value) {
        return value instanceof Column c ? c.expr : Functions.lit(value).expr;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Naming and types

    /** The column under another name in the output. */
    public Column as(String alias) {
        return new Column(new Expr.Alias(expr, alias, null));
    }

    /** Same as {@link #as(String)}. */
    public Column alias(String alias) {
        return as(alias);
    }

    /** Same as {@link #as(String)}. */
    public Column name(String alias) {
        return as(alias);
    }

    /**
     * The value converted to a type given in DDL ({@code "string"}, {@code "bigint"}, {@code "decimal(10,2)"}),
     * with Spark's non-ANSI rules: a value that does not convert becomes null.
     *
     * @throws io.sluice.api.types.SchemaParseException when the type does not parse
     */
    public Column cast(String ddlType) {
        return cast(DataType.fromDDL(ddlType));
    }

    public Column cast(DataType type) {
        return new Column(new Expr.Cast(expr, Objects.requireNonNull(type, "type"), null));
    }

    /** A field of a struct column (also a value of a map column by its string key). */
    public Column getField(String fieldName) {
        return new Column(new Expr.Field(expr, fieldName, null));
    }

    /** An element of an array column (0-based; out of range is null) or a value of a map column by key. */
    public Column getItem(Object key) {
        return new Column(new Expr.Subscript(expr, exprOf(key), null));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Arithmetic

    public Column plus(Object other) {
        return binary("+", other);
    }

    public Column minus(Object other) {
        return binary("-", other);
    }

    public Column multiply(Object other) {
        return binary("*", other);
    }

    /** Division as Spark's {@code /}: integral operands divide as double; by zero is null. */
    public Column divide(Object other) {
        return binary("/", other);
    }

    /** Remainder, Spark's {@code %}; by zero is null. */
    public Column mod(Object other) {
        return binary("%", other);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Comparison and logic (SQL three-valued: a comparison with NULL is NULL)

    public Column equalTo(Object other) {
        return binary("=", other);
    }

    public Column notEqual(Object other) {
        return binary("!=", other);
    }

    /** Null-safe equality, Spark's {@code <=>}: two NULLs are equal, never NULL. */
    public Column eqNullSafe(Object other) {
        return binary("<=>", other);
    }

    public Column gt(Object other) {
        return binary(">", other);
    }

    public Column geq(Object other) {
        return binary(">=", other);
    }

    public Column lt(Object other) {
        return binary("<", other);
    }

    public Column leq(Object other) {
        return binary("<=", other);
    }

    public Column and(Column other) {
        return binary("AND", other);
    }

    public Column or(Column other) {
        return binary("OR", other);
    }

    public Column not() {
        return new Column(new Expr.Unary("NOT", expr, null));
    }

    public Column isNull() {
        return new Column(new Expr.IsNull(expr, false, null));
    }

    public Column isNotNull() {
        return new Column(new Expr.IsNull(expr, true, null));
    }

    /** {@code IN (values...)}: true on a match, NULL when no match but a NULL among the values, else false. */
    public Column isin(Object... values) {
        List<Expr> list = new ArrayList<>();
        for (Object v : values) {
            list.add(exprOf(v));
        }
        return new Column(new Expr.In(expr, list, false, null));
    }

    /** {@code BETWEEN lower AND upper}, both ends included. */
    public Column between(Object lower, Object upper) {
        return new Column(new Expr.Between(expr, exprOf(lower), exprOf(upper), false, null));
    }

    /** SQL {@code LIKE}: {@code %} matches any sequence, {@code _} one character, {@code \} escapes. */
    public Column like(String pattern) {
        return new Column(new Expr.Like(expr, Functions.lit(pattern).expr, '\\', false, null));
    }

    private Column binary(String op, Object other) {
        return new Column(new Expr.Binary(op, expr, exprOf(other), null));
    }

    /** The expression in SQL-like text, e.g. {@code (amount > 100)}. */
    @Override
    public String toString() {
        return Expr.toText(expr);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Column c && c.expr.equals(expr);
    }

    @Override
    public int hashCode() {
        return expr.hashCode();
    }
}
