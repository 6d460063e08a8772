package io.sluice.core.expr;

import io.sluice.api.SluiceClock;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.SchemaParseException;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.core.AnalysisException;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Resolves an {@link Expr} against an input schema: finds columns and fields by name (case-insensitively, an
 * exact match first, as Spark by default), checks and coerces types with Spark's non-ANSI rules, names the result
 * as Spark would, and compiles it to an {@link Eval} tree. Constant sub-expressions are evaluated once here.
 * Every problem is an {@link AnalysisException}.
 */
final class Analyzer {

    /**
     * A resolved expression. {@code nullType}: an untyped NULL (Spark's void), which takes the type its context
     * needs; {@code type} is then a placeholder (string). {@code sql} names it inside a larger expression,
     * {@code name} as an output column; {@code named} marks columns, fields and aliases, whose name a CAST keeps.
     */
    record Bound(Eval eval, DataType type, boolean nullType, boolean nullable, boolean foldable, String sql,
                 String name, boolean named, Origin origin) {

        Bound withName(String newName, boolean isNamed) {
            return new Bound(eval, type, nullType, nullable, foldable, sql, newName, isNamed, origin);
        }
    }

    static final List<String> FUNCTIONS = List.of("abs", "bigint", "binary", "boolean", "char_length",
            "character_length", "coalesce", "concat", "concat_ws", "current_date", "current_timestamp", "date",
            "decimal", "double", "float", "from_json", "if", "ifnull", "int", "length", "lower", "ltrim", "map",
            "now", "nullif", "nvl", "round", "rtrim", "smallint", "string", "struct", "substr", "substring", "timestamp",
            "tinyint", "to_date", "to_json", "to_timestamp", "trim", "upper");

    /**
     * Functions that Spark ships in a separate package and Sluice in a separate module, by the module that
     * contributes them: a call without that module on the class path fails with Spark's "not loaded" error
     * naming it, rather than "Cannot resolve function".
     */
    private static final Map<String, String[]> MODULE_FUNCTIONS = Map.of(
            "from_avro", new String[] {"Avro", "sluice-avro"}, "to_avro", new String[] {"Avro", "sluice-avro"});

    private final StructType input;
    private final SluiceClock clock;
    /** The session time zone (Spark's spark.sql.session.timeZone): every zone-dependent expression uses it. */
    private final ZoneId zone;
    /** Contributed functions by lower-case name (none of them a built-in one). */
    private final Map<String, SqlFunction> functions;
    /** The input columns read by what was resolved since the last {@link #takeUsed()} (column pruning). */
    private final java.util.BitSet used = new java.util.BitSet();

    Analyzer(StructType input, SluiceClock clock, ZoneId zone) {
        this(input, clock, zone, Map.of());
    }

    Analyzer(StructType input, SluiceClock clock, ZoneId zone, Map<String, SqlFunction> functions) {
        this.input = input;
        this.clock = clock;
        this.zone = zone;
        this.functions = functions;
    }

    StructType input() {
        return input;
    }

    /** The input columns the expressions resolved since the last call read (a struct column read whole). */
    java.util.BitSet takeUsed() {
        java.util.BitSet out = (java.util.BitSet) used.clone();
        used.clear();
        return out;
    }

    Bound resolve(Expr e) {
        if (e instanceof Expr.ColumnRef c) {
            return column(c);
        } else if (e instanceof Expr.Literal l) {
            return literal(l);
        } else if (e instanceof Expr.InputColumn c) {
            StructField f = input.field(c.index());
            used.set(c.index());
            return new Bound(new Eval.Input(c.index()), f.dataType(), false, f.nullable(), false, quote(f.name()),
                    f.name(), true, null);
        } else if (e instanceof Expr.Unary u) {
            return unary(u);
        } else if (e instanceof Expr.Binary b) {
            return binary(b);
        } else if (e instanceof Expr.IsNull n) {
            Bound c = resolve(n.child());
            String sql = "(" + c.sql + (n.negated() ? " IS NOT NULL)" : " IS NULL)");
            return make(new Eval.IsNull(c.eval, n.negated()), AtomicType.BOOLEAN_TYPE, false, sql, n.origin(), c);
        } else if (e instanceof Expr.In in) {
            return in(in);
        } else if (e instanceof Expr.Between b) {
            return between(b);
        } else if (e instanceof Expr.Like l) {
            return like(l);
        } else if (e instanceof Expr.Case c) {
            return caseWhen(c);
        } else if (e instanceof Expr.Cast c) {
            return cast(resolve(c.child()), c.type(), c.origin());
        } else if (e instanceof Expr.Call c) {
            return call(c);
        } else if (e instanceof Expr.Alias a) {
            return resolve(a.child()).withName(a.name(), true);
        } else if (e instanceof Expr.Field f) {
            return extract(resolve(f.child()), f.name(), f.origin());
        } else if (e instanceof Expr.Subscript s) {
            return subscript(s);
        } else if (e instanceof Expr.Star s) {
            throw Origin.error("Invalid usage of '*' in expression: a star is allowed only as a whole select item, "
                    + "as in select(\"*\") or select(\"data.*\"), or as a whole function argument, as in struct(*) or "
                    + "to_json(struct(*))", s.origin());
        }
        throw new IllegalStateException("Unknown expression " + e);
    }

    // -------------------------------------------------------------------------------------------------------------
    // Building blocks

    /** A computed, nullable result named by its SQL text; folded to a constant when every child is constant. */
    private Bound make(Eval eval, DataType type, boolean nullable, String sql, Origin origin, Bound... children) {
        boolean foldable = true;
        for (Bound c : children) {
            foldable &= c.foldable;
        }
        return fold(new Bound(eval, type, false, nullable, foldable, sql, sql, false, origin));
    }

    private static Bound fold(Bound b) {
        if (!b.foldable || b.eval instanceof Eval.Const) {
            return b;
        }
        Object v;
        try {
            v = b.eval.eval(null);
        } catch (RuntimeException e) {
            return b; // leave it to fail (or not) per row, as Spark does when constant folding fails
        }
        return new Bound(new Eval.Const(v), b.type, false, v == null, true, b.sql, b.name, b.named, b.origin);
    }

    private static Bound nullOf(DataType type, Bound like) {
        return new Bound(new Eval.Const(null), type, false, true, true, like.sql, like.name, like.named, like.origin);
    }

    /** The value converted to {@code to}: implicit (the names do not change). */
    private Bound coerce(Bound b, DataType to) {
        if (b.nullType) {
            return nullOf(to, b);
        }
        if (Types.same(b.type, to)) {
            return b;
        }
        Casts.Conv conv = Casts.converter(b.type, to, zone);
        if (conv == null) {
            throw new IllegalStateException("No implicit cast from " + b.type.sql() + " to " + to.sql());
        }
        return fold(new Bound(new Eval.Cast(b.eval, conv), to, false, true, b.foldable, b.sql, b.name, b.named,
                b.origin));
    }

    private static AnalysisException mismatch(String sql, Origin origin, String detail) {
        return Origin.error("Cannot resolve \"" + sql + "\" due to data type mismatch: " + detail, origin);
    }

    private static String q(Bound b) {
        return "\"" + b.sql + "\"";
    }

    private static String t(Bound b) {
        return Types.quoted(b.type);
    }

    // -------------------------------------------------------------------------------------------------------------
    // Columns and fields

    private Bound column(Expr.ColumnRef c) {
        List<String> parts = c.parts();
        int i = input.indexOf(parts.get(0));
        if (i < 0) {
            throw unresolved(parts, c.origin());
        }
        StructField f = input.field(i);
        used.set(i);
        Bound b = new Bound(new Eval.Input(i), f.dataType(), false, f.nullable(), false, quote(f.name()), f.name(),
                true, c.origin());
        for (int k = 1; k < parts.size(); k++) {
            b = extract(b, parts.get(k), c.origin());
        }
        return b;
    }

    AnalysisException unresolved(List<String> parts, Origin origin) {
        String name = parts.stream().map(p -> "`" + p + "`").collect(Collectors.joining("."));
        List<String> candidates = suggestions(parts.get(0), input.fieldNames());
        String headline = "A column or function parameter with name " + name + " cannot be resolved.";
        if (!candidates.isEmpty()) {
            headline += " Did you mean one of the following? ["
                    + candidates.stream().map(n -> "`" + n + "`").collect(Collectors.joining(", ")) + "].";
        }
        return Origin.error(headline, origin);
    }

    /** Every candidate, the most similar first (Levenshtein distance, ties in schema order), as Spark orders them. */
    static List<String> suggestions(String name, List<String> candidates) {
        String lower = name.toLowerCase(Locale.ROOT);
        List<String> sorted = new ArrayList<>(candidates);
        sorted.sort(Comparator.comparingInt(c -> levenshtein(lower, c.toLowerCase(Locale.ROOT))));
        return sorted;
    }

    private static int levenshtein(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] tmp = prev;
            prev = cur;
            cur = tmp;
        }
        return prev[b.length()];
    }

    /** {@code base.name}: a struct field, or a map value by a string key. */
    private Bound extract(Bound base, String name, Origin origin) {
        if (base.type instanceof StructType s) {
            int i = s.indexOf(name);
            if (i < 0) {
                throw Origin.error("No such struct field `" + name + "` in "
                        + s.fieldNames().stream().map(n -> "`" + n + "`").collect(Collectors.joining(", ")) + ".",
                        origin);
            }
            StructField f = s.field(i);
            return new Bound(new Eval.GetField(base.eval, i), f.dataType(), false, base.nullable || f.nullable(),
                    false, base.sql + "." + quote(f.name()), f.name(), true, origin);
        }
        if (base.type instanceof MapType m && Types.isString(m.keyType())) {
            return new Bound(new Eval.MapValue(base.eval, new Eval.Const(name)), m.valueType(), false, true, false,
                    base.sql + "." + quote(name), name, true, origin);
        }
        throw Origin.error("Can't extract a value from " + q(base) + ". Need a complex type [STRUCT, ARRAY, MAP] "
                + "but got " + t(base) + ".", origin);
    }

    private Bound subscript(Expr.Subscript s) {
        Bound base = resolve(s.child());
        Bound index = resolve(s.index());
        String sql = base.sql + "[" + index.sql + "]";
        if (base.type instanceof ArrayType a) {
            if (!index.nullType && !Types.isIntegral(index.type)) {
                throw mismatch(sql, s.origin(), "the array index " + q(index) + " must be an integer, but has the type "
                        + t(index) + ".");
            }
            Bound i = coerce(index, AtomicType.INT_TYPE);
            return make(new Eval.ArrayItem(base.eval, i.eval), a.elementType(), true, sql, s.origin(), base, i);
        }
        if (base.type instanceof MapType m) {
            DataType kt = index.nullType ? m.keyType() : Types.comparison(m.keyType(), index.type);
            if (kt == null || !Types.same(kt, m.keyType())) {
                throw mismatch(sql, s.origin(), "the map key " + q(index) + " has the type " + t(index)
                        + ", which does not match the map's key type " + Types.quoted(m.keyType()) + ".");
            }
            Bound k = coerce(index, m.keyType());
            return make(new Eval.MapValue(base.eval, k.eval), m.valueType(), true, sql, s.origin(), base, k);
        }
        if (base.type instanceof StructType && index.eval instanceof Eval.Const c && c.value instanceof String name) {
            return extract(base, name, s.origin());
        }
        throw Origin.error("Can't extract a value from " + q(base) + ". Need a complex type [STRUCT, ARRAY, MAP] "
                + "but got " + t(base) + ".", s.origin());
    }

    static String quote(String name) {
        return Expr.quoteIfNeeded(name);
    }

    // -------------------------------------------------------------------------------------------------------------
    // Literals and operators

    private Bound literal(Expr.Literal l) {
        if (l.type() == null) {
            return new Bound(new Eval.Const(null), AtomicType.STRING_TYPE, true, true, true, "NULL", "NULL", false,
                    l.origin());
        }
        Object value = l.value();
        String text = l.text();
        if (l.type() == AtomicType.TIMESTAMP_TYPE) {
            // A TIMESTAMP literal's text is read here, in the session zone (Expr.Literal), and every timestamp
            // literal is named in that zone, as Spark names it.
            if (value instanceof String s) {
                value = DateTimes.parseTimestamp(s, zone);
            }
            text = "TIMESTAMP '" + DateTimes.formatTimestamp((java.time.Instant) value, zone) + "'";
        }
        return new Bound(new Eval.Const(value), l.type(), false, false, true, text, text, false, l.origin());
    }

    private Bound unary(Expr.Unary u) {
        Bound c = resolve(u.child());
        if (u.op().equals("NOT")) {
            String sql = "(NOT " + c.sql + ")";
            if (!c.nullType && c.type != AtomicType.BOOLEAN_TYPE) {
                throw mismatch(sql, u.origin(), "the NOT operator needs a BOOLEAN operand, but " + q(c)
                        + " has the type " + t(c) + ".");
            }
            return make(new Eval.Not(coerce(c, AtomicType.BOOLEAN_TYPE).eval), AtomicType.BOOLEAN_TYPE, true, sql,
                    u.origin(), c);
        }
        String sql = "(- " + c.sql + ")";
        if (c.nullType) {
            return nullOf(AtomicType.DOUBLE_TYPE, c).withName(sql, false);
        }
        DataType type = Types.isString(c.type) ? AtomicType.DOUBLE_TYPE : c.type;
        if (!Types.isNumeric(type)) {
            throw mismatch(sql, u.origin(), "the unary - operator needs a numeric operand, but " + q(c)
                    + " has the type " + t(c) + ".");
        }
        Bound v = coerce(c, type);
        return make(new Eval.Negate(v.eval, type), type, true, sql, u.origin(), v);
    }

    private Bound binary(Expr.Binary b) {
        String op = b.op();
        Bound l = resolve(b.left());
        Bound r = resolve(b.right());
        switch (op) {
            case "AND", "OR":
                return logic(op, l, r, b.origin());
            case "+", "-", "*", "/", "%", "DIV":
                return arithmetic(op, l, r, b.origin());
            case "||":
                return concat("concat", List.of(l, r), b.origin());
            default:
                return comparison(op, l, r, b.origin());
        }
    }

    private Bound logic(String op, Bound l, Bound r, Origin origin) {
        String sql = "(" + l.sql + " " + op + " " + r.sql + ")";
        boolean badLeft = !l.nullType && l.type != AtomicType.BOOLEAN_TYPE;
        boolean badRight = !r.nullType && r.type != AtomicType.BOOLEAN_TYPE;
        if (badLeft || badRight) {
            String detail = "the " + op + " operator needs BOOLEAN operands, but ";
            if (badLeft && badRight) {
                detail += "its left operand " + q(l) + " has the type " + t(l) + " and its right operand " + q(r)
                        + " has the type " + t(r) + ".";
            } else if (badLeft) {
                detail += "its left operand " + q(l) + " has the type " + t(l) + ".";
            } else {
                detail += "its right operand " + q(r) + " has the type " + t(r) + ".";
            }
            throw mismatch(sql, origin, detail);
        }
        Bound lb = coerce(l, AtomicType.BOOLEAN_TYPE);
        Bound rb = coerce(r, AtomicType.BOOLEAN_TYPE);
        Eval e = op.equals("AND") ? new Eval.And(lb.eval, rb.eval) : new Eval.Or(lb.eval, rb.eval);
        return make(e, AtomicType.BOOLEAN_TYPE, true, sql, origin, lb, rb);
    }

    private Bound arithmetic(String op, Bound l, Bound r, Origin origin) {
        String sql = "(" + l.sql + " " + (op.equals("DIV") ? "div" : op) + " " + r.sql + ")";
        // Strings in arithmetic are read as double (Spark without ANSI); an untyped NULL takes the other side's type.
        DataType lt = l.nullType ? (r.nullType ? AtomicType.INT_TYPE : r.type) : l.type;
        DataType rt = r.nullType ? lt : r.type;
        if (Types.isString(lt)) {
            lt = AtomicType.DOUBLE_TYPE;
        }
        if (Types.isString(rt)) {
            rt = AtomicType.DOUBLE_TYPE;
        }
        if (!Types.isNumeric(lt) || !Types.isNumeric(rt)) {
            Bound bad = !Types.isNumeric(lt) ? l : r;
            throw mismatch(sql, origin, "the " + op + " operator needs numeric operands, but its "
                    + (bad == l ? "left" : "right") + " operand " + q(bad) + " has the type " + t(bad) + ".");
        }
        DataType common = Types.widerNumeric(lt, rt);
        int code = switch (op) {
            case "+" -> Eval.ADD;
            case "-" -> Eval.SUB;
            case "*" -> Eval.MUL;
            case "/" -> Eval.DIV;
            case "%" -> Eval.MOD;
            default -> Eval.IDIV;
        };
        if (common instanceof DecimalType) {
            DecimalType dl = lt instanceof DecimalType d ? d : decimalOperand(l, lt);
            DecimalType dr = rt instanceof DecimalType d ? d : decimalOperand(r, rt);
            Bound lb = coerce(l, dl);
            Bound rb = coerce(r, dr);
            DataType result = code == Eval.IDIV ? AtomicType.LONG_TYPE : decimalResult(code, dl, dr);
            DecimalType evalType = result instanceof DecimalType d ? d : dl;
            return make(new Eval.DecimalArith(lb.eval, rb.eval, code, evalType), result, true, sql, origin, lb, rb);
        }
        if (code == Eval.IDIV) {
            Bound lb = coerce(l, AtomicType.LONG_TYPE);
            Bound rb = coerce(r, AtomicType.LONG_TYPE);
            return make(new Eval.IntegralArith(lb.eval, rb.eval, code, AtomicType.LONG_TYPE), AtomicType.LONG_TYPE,
                    true, sql, origin, lb, rb);
        }
        if (code == Eval.DIV) {
            common = AtomicType.DOUBLE_TYPE; // Spark's / divides integrals and floats as double
        }
        Bound lb = coerce(l, common);
        Bound rb = coerce(r, common);
        Eval e = Types.isIntegral(common) ? new Eval.IntegralArith(lb.eval, rb.eval, code, common)
                : new Eval.FractionalArith(lb.eval, rb.eval, code, common == AtomicType.FLOAT_TYPE);
        return make(e, common, true, sql, origin, lb, rb);
    }

    /**
     * The decimal type an integral operand takes beside a decimal: its type's full width, or for a literal only
     * the digits it has (Spark's {@code literalPickMinimumPrecision}), so {@code price * 2} stays narrow.
     */
    private static DecimalType decimalOperand(Bound b, DataType integral) {
        if (b.eval instanceof Eval.Const c && c.value instanceof Number n && !b.nullType) {
            long v = n.longValue();
            int digits = v == 0 ? 1 : java.math.BigDecimal.valueOf(v).precision();
            return new DecimalType(digits, 0);
        }
        return Types.decimalFor(integral);
    }

    /** Spark's decimal result types (DecimalPrecision, precision loss allowed). */
    static DecimalType decimalResult(int op, DecimalType a, DecimalType b) {
        int p1 = a.precision();
        int s1 = a.scale();
        int p2 = b.precision();
        int s2 = b.scale();
        switch (op) {
            case Eval.ADD, Eval.SUB: {
                int scale = Math.max(s1, s2);
                return Types.adjust(Math.max(p1 - s1, p2 - s2) + scale + 1, scale);
            }
            case Eval.MUL:
                return Types.adjust(p1 + p2 + 1, s1 + s2);
            case Eval.DIV: {
                int scale = Math.max(6, s1 + p2 + 1);
                return Types.adjust(p1 - s1 + s2 + scale, scale);
            }
            default: {
                int scale = Math.max(s1, s2);
                return Types.adjust(Math.min(p1 - s1, p2 - s2) + scale, scale);
            }
        }
    }

    private Bound comparison(String op, Bound l, Bound r, Origin origin) {
        String sql = switch (op) {
            case "!=" -> "(NOT (" + l.sql + " = " + r.sql + "))";
            default -> "(" + l.sql + " " + op + " " + r.sql + ")";
        };
        int code = switch (op) {
            case "=" -> Eval.EQ;
            case "!=" -> Eval.NE;
            case "<" -> Eval.LT;
            case "<=" -> Eval.LE;
            case ">" -> Eval.GT;
            case ">=" -> Eval.GE;
            default -> Eval.EQ_NULL_SAFE;
        };
        DataType type = commonForComparison(op, l, r, sql, origin);
        Bound lb = coerce(l, type);
        Bound rb = coerce(r, type);
        return make(new Eval.Compare(lb.eval, rb.eval, Eval.comparator(type), code), AtomicType.BOOLEAN_TYPE,
                code != Eval.EQ_NULL_SAFE, sql, origin, lb, rb);
    }

    private DataType commonForComparison(String op, Bound l, Bound r, String sql, Origin origin) {
        DataType type;
        if (l.nullType) {
            type = r.type;
        } else if (r.nullType) {
            type = l.type;
        } else {
            type = Types.comparison(l.type, r.type);
        }
        if (type == null) {
            throw mismatch(sql, origin, "the left and right operands of the " + op + " operator have incompatible "
                    + "types (" + t(l) + " and " + t(r) + ").");
        }
        boolean ordering = !op.equals("=") && !op.equals("!=") && !op.equals("<=>");
        if (ordering && !Types.orderable(type)) {
            throw mismatch(sql, origin, "the " + op + " operator cannot order values of the type "
                    + Types.quoted(type) + ".");
        }
        return type;
    }

    private Bound in(Expr.In in) {
        Bound v = resolve(in.value());
        List<Bound> list = new ArrayList<>();
        for (Expr e : in.list()) {
            list.add(resolve(e));
        }
        String inner = "(" + v.sql + " IN (" + list.stream().map(Bound::sql).collect(Collectors.joining(", ")) + "))";
        String sql = in.negated() ? "(NOT " + inner + ")" : inner;
        List<Bound> all = new ArrayList<>(list);
        all.add(0, v);
        DataType type = common(all);
        if (type == null) {
            throw mismatch(sql, in.origin(), "Input to `in` should all be the same type, but it's ["
                    + all.stream().map(Analyzer::t).collect(Collectors.joining(", ")) + "].");
        }
        Bound vb = coerce(v, type);
        Eval[] items = new Eval[list.size()];
        Bound[] children = new Bound[list.size() + 1];
        children[0] = vb;
        for (int i = 0; i < items.length; i++) {
            Bound b = coerce(list.get(i), type);
            items[i] = b.eval;
            children[i + 1] = b;
        }
        return make(new Eval.In(vb.eval, items, Eval.comparator(type), in.negated()), AtomicType.BOOLEAN_TYPE, true,
                sql, in.origin(), children);
    }

    /** The wider type of all, ignoring untyped NULLs; string when all are NULL; null when there is none. */
    private static DataType common(List<Bound> all) {
        DataType type = null;
        for (Bound b : all) {
            if (b.nullType) {
                continue;
            }
            type = type == null ? b.type : Types.wider(type, b.type);
            if (type == null) {
                return null;
            }
        }
        return type == null ? AtomicType.STRING_TYPE : type;
    }

    private Bound between(Expr.Between b) {
        Bound v = resolve(b.value());
        Bound lo = resolve(b.low());
        Bound hi = resolve(b.high());
        String inner = "(" + v.sql + " BETWEEN " + lo.sql + " AND " + hi.sql + ")";
        String sql = b.negated() ? "(NOT " + inner + ")" : inner;
        DataType type = v.nullType ? null : v.type;
        for (Bound x : List.of(lo, hi)) {
            if (!x.nullType) {
                type = type == null ? x.type : Types.comparison(type, x.type);
                if (type == null) {
                    throw mismatch(sql, b.origin(), "the value " + q(v) + " of the type " + t(v)
                            + " cannot be compared with " + q(x) + " of the type " + t(x) + ".");
                }
            }
        }
        if (type == null) {
            type = AtomicType.STRING_TYPE;
        }
        if (!Types.orderable(type)) {
            throw mismatch(sql, b.origin(), "BETWEEN cannot order values of the type " + Types.quoted(type) + ".");
        }
        Bound vb = coerce(v, type);
        Bound lb = coerce(lo, type);
        Bound hb = coerce(hi, type);
        return make(new Eval.Between(vb.eval, lb.eval, hb.eval, Eval.comparator(type), b.negated()),
                AtomicType.BOOLEAN_TYPE, true, sql, b.origin(), vb, lb, hb);
    }

    private Bound like(Expr.Like l) {
        Bound v = resolve(l.value());
        Bound p = resolve(l.pattern());
        String inner = v.sql + " LIKE " + p.sql + (l.escape() == '\\' ? "" : " ESCAPE '" + l.escape() + "'");
        String sql = l.negated() ? "(NOT " + inner + ")" : inner;
        Bound vs = asString(v, 1, sql, l.origin());
        Bound ps = asString(p, 2, sql, l.origin());
        FunctionEvals.LikePattern fixed = null;
        if (ps.eval instanceof Eval.Const c) {
            if (c.value == null) {
                return nullOf(AtomicType.BOOLEAN_TYPE, vs).withName(sql, false);
            }
            try {
                fixed = FunctionEvals.LikePattern.compile((String) c.value, l.escape());
            } catch (IllegalArgumentException e) {
                throw Origin.error("Cannot resolve \"" + sql + "\": " + e.getMessage(), l.origin());
            }
        }
        return make(new FunctionEvals.Like(vs.eval, fixed, ps.eval, l.escape(), l.negated()), AtomicType.BOOLEAN_TYPE,
                true, sql, l.origin(), vs, ps);
    }

    /** An argument that must be a string: atomic values are cast to string implicitly, as Spark does. */
    private Bound asString(Bound b, int param, String sql, Origin origin) {
        if (b.nullType || Types.isString(b.type)) {
            return coerce(b, AtomicType.STRING_TYPE);
        }
        if (Types.isAtomic(b.type) && b.type != AtomicType.BINARY_TYPE) {
            return coerce(b, AtomicType.STRING_TYPE);
        }
        throw mismatch(sql, origin, "Parameter " + param + " requires the \"STRING\" type, however " + q(b)
                + " has the type " + t(b) + ".");
    }

    private Bound caseWhen(Expr.Case c) {
        Bound operand = c.operand() == null ? null : resolve(c.operand());
        List<Bound> conditions = new ArrayList<>();
        List<Bound> values = new ArrayList<>();
        for (int i = 0; i < c.whens().size(); i++) {
            Bound w = resolve(c.whens().get(i));
            conditions.add(operand == null ? w : comparison("=", operand, w, c.origin()));
            values.add(resolve(c.thens().get(i)));
        }
        Bound otherwise = c.otherwise() == null ? null : resolve(c.otherwise());
        StringBuilder sb = new StringBuilder("CASE");
        for (int i = 0; i < conditions.size(); i++) {
            sb.append(" WHEN ").append(conditions.get(i).sql).append(" THEN ").append(values.get(i).sql);
        }
        if (otherwise != null) {
            sb.append(" ELSE ").append(otherwise.sql);
        }
        String sql = sb.append(" END").toString();
        return buildCase(conditions, values, otherwise, sql, c.origin());
    }

    private Bound buildCase(List<Bound> conditions, List<Bound> values, Bound otherwise, String sql, Origin origin) {
        for (Bound cond : conditions) {
            if (!cond.nullType && cond.type != AtomicType.BOOLEAN_TYPE) {
                throw mismatch(sql, origin, "WHEN expressions in CaseWhen should all be boolean type, but " + q(cond)
                        + " has the type " + t(cond) + ".");
            }
        }
        List<Bound> branches = new ArrayList<>(values);
        if (otherwise != null) {
            branches.add(otherwise);
        }
        DataType type = common(branches);
        if (type == null) {
            throw mismatch(sql, origin, "THEN and ELSE expressions should all be same type or coercible to a common "
                    + "type, but they are [" + branches.stream().map(Analyzer::t).collect(Collectors.joining(", ")) + "].");
        }
        boolean allNull = branches.stream().allMatch(Bound::nullType);
        Eval[] conds = new Eval[conditions.size()];
        Eval[] vals = new Eval[values.size()];
        List<Bound> children = new ArrayList<>();
        for (int i = 0; i < conds.length; i++) {
            Bound cb = coerce(conditions.get(i), AtomicType.BOOLEAN_TYPE);
            Bound vb = coerce(values.get(i), type);
            conds[i] = cb.eval;
            vals[i] = vb.eval;
            children.add(cb);
            children.add(vb);
        }
        Eval other = null;
        if (otherwise != null) {
            Bound ob = coerce(otherwise, type);
            other = ob.eval;
            children.add(ob);
        }
        Bound r = make(new Eval.CaseWhen(conds, vals, other), type, true, sql, origin, children.toArray(new Bound[0]));
        return allNull ? new Bound(r.eval, r.type, true, true, r.foldable, r.sql, r.name, false, r.origin) : r;
    }

    // -------------------------------------------------------------------------------------------------------------
    // CAST

    Bound cast(Bound c, DataType to, Origin origin) {
        String sql = "CAST(" + c.sql + " AS " + to.sql() + ")";
        String name = c.named ? c.name : sql; // Spark names CAST(col AS t) after the column
        if (c.nullType) {
            return nullOf(to, c).withName(name, false);
        }
        Casts.Conv conv = Casts.converter(c.type, to, zone);
        if (conv == null) {
            throw mismatch(sql, origin, "cannot cast " + t(c) + " to " + Types.quoted(to) + ".");
        }
        Bound b = Types.same(c.type, to) ? c
                : fold(new Bound(new Eval.Cast(c.eval, conv), to, false, true, c.foldable, sql, name, false, origin));
        return new Bound(b.eval, to, false, b.nullable, b.foldable, sql, name, false, origin);
    }

    // -------------------------------------------------------------------------------------------------------------
    // Functions

    private Bound call(Expr.Call c) {
        String fn = c.name().toLowerCase(Locale.ROOT);
        SqlFunction contributed = FUNCTIONS.contains(fn) ? null : functions.get(fn);
        if (!FUNCTIONS.contains(fn) && contributed == null) {
            String[] module = MODULE_FUNCTIONS.get(fn);
            if (module != null) { // Spark's AVRO_NOT_LOADED_SQL_FUNCTIONS_UNUSABLE, then which module to add
                throw Origin.error("Cannot call the " + fn.toUpperCase(Locale.ROOT) + " SQL function because the "
                        + module[0] + " data source is not loaded. Add the module io.sluice:" + module[1]
                        + " to the class path (a dependency, or its jar in the CLI's --plugins folder) and retry your "
                        + "query.", c.origin());
            }
            List<String> known = new ArrayList<>(FUNCTIONS);
            known.addAll(functions.keySet());
            known.sort(null);
            throw Origin.error("Cannot resolve function `" + c.name() + "`: Sluice has no function of that name. "
                    + "Known functions: " + String.join(", ", known) + ".", c.origin());
        }
        List<Bound> args = new ArrayList<>();
        List<Boolean> aliased = new ArrayList<>();
        for (Expr a : c.args()) {
            // A star argument stands for the columns (or a struct's fields) it expands to, as in Spark.
            List<Bound> bound = a instanceof Expr.Star s ? expand(s) : List.of(resolve(a));
            args.addAll(bound);
            bound.forEach(b -> aliased.add(a instanceof Expr.Alias));
        }
        Origin o = c.origin();
        if (contributed != null) {
            return contributed(contributed, c.name(), args, o);
        }
        String sql = fn + "(" + args.stream().map(Bound::sql).collect(Collectors.joining(", ")) + ")";
        switch (fn) {
            case "struct":
                return struct(args, aliased, o);
            case "coalesce":
                arity(fn, args, 1, Integer.MAX_VALUE, o);
                return coalesce(args, sql, o);
            case "ifnull", "nvl":
                arity(fn, args, 2, 2, o);
                return coalesce(args, sql, o);
            case "nullif": {
                arity(fn, args, 2, 2, o);
                DataType type = commonForComparison("=", args.get(0), args.get(1), sql, o);
                Bound a = coerce(args.get(0), type);
                Bound b = coerce(args.get(1), type);
                return make(new Eval.NullIf(a.eval, b.eval, Eval.comparator(type)), type, true, sql, o, a, b);
            }
            case "if": {
                arity(fn, args, 3, 3, o);
                return buildCase(List.of(args.get(0)), List.of(args.get(1)), args.get(2), sql, o);
            }
            case "concat":
                return concat(fn, args, o);
            case "concat_ws": {
                arity(fn, args, 1, Integer.MAX_VALUE, o);
                List<Bound> strings = strings(args, sql, o);
                Eval[] rest = strings.subList(1, strings.size()).stream().map(Bound::eval).toArray(Eval[]::new);
                return make(new FunctionEvals.ConcatWs(strings.get(0).eval, rest), AtomicType.STRING_TYPE, true, sql, o,
                        strings.toArray(new Bound[0]));
            }
            case "lower", "upper", "trim", "ltrim", "rtrim": {
                arity(fn, args, 1, 1, o);
                Bound s = asString(args.get(0), 1, sql, o);
                int code = switch (fn) {
                    case "lower" -> FunctionEvals.LOWER;
                    case "upper" -> FunctionEvals.UPPER;
                    case "trim" -> FunctionEvals.TRIM;
                    case "ltrim" -> FunctionEvals.LTRIM;
                    default -> FunctionEvals.RTRIM;
                };
                return make(new FunctionEvals.StringFn(s.eval, code), AtomicType.STRING_TYPE, true, sql, o, s);
            }
            case "length", "char_length", "character_length": {
                arity(fn, args, 1, 1, o);
                Bound a = args.get(0);
                if (!a.nullType && a.type == AtomicType.BINARY_TYPE) {
                    return make(new FunctionEvals.StringFn(a.eval, FunctionEvals.BINARY_LENGTH), AtomicType.INT_TYPE,
                            true, sql, o, a);
                }
                Bound s = asString(a, 1, sql, o);
                return make(new FunctionEvals.StringFn(s.eval, FunctionEvals.LENGTH), AtomicType.INT_TYPE, true, sql,
                        o, s);
            }
            case "substring", "substr": {
                arity(fn, args, 2, 3, o);
                Bound s = asString(args.get(0), 1, sql, o);
                Bound pos = asInt(args.get(1), 2, sql, o);
                Bound len = args.size() == 3 ? asInt(args.get(2), 3, sql, o) : null;
                return len == null
                        ? make(new FunctionEvals.Substring(s.eval, pos.eval, null), AtomicType.STRING_TYPE, true, sql,
                        o, s, pos)
                        : make(new FunctionEvals.Substring(s.eval, pos.eval, len.eval), AtomicType.STRING_TYPE, true,
                        sql, o, s, pos, len);
            }
            case "abs": {
                arity(fn, args, 1, 1, o);
                Bound n = numeric(args.get(0), 1, sql, o);
                return make(new FunctionEvals.Abs(n.eval, n.type), n.type, true, sql, o, n);
            }
            case "round":
                arity(fn, args, 1, 2, o);
                return round(args, sql, o);
            case "current_timestamp", "now", "current_date": {
                arity(fn, args, 0, 0, o);
                boolean date = fn.equals("current_date");
                // Not foldable: read from the clock per row.
                return new Bound(new FunctionEvals.CurrentTimestamp(clock, date, zone),
                        date ? AtomicType.DATE_TYPE : AtomicType.TIMESTAMP_TYPE, false, false, false, sql, sql, false,
                        o);
            }
            case "to_timestamp", "to_date":
                arity(fn, args, 1, 2, o);
                return toDateTime(fn, args, sql, o);
            case "from_json":
                arity(fn, args, 2, 3, o);
                return fromJson(args, o);
            case "to_json":
                arity(fn, args, 1, 2, o);
                return toJson(args, o);
            case "map":
                return createMap(args, sql, o);
            default: {
                arity(fn, args, 1, 1, o);
                DataType to = switch (fn) {
                    case "decimal" -> new DecimalType(10, 0);
                    default -> DataType.fromDDL(fn);
                };
                return cast(args.get(0), to, o);
            }
        }
    }

    /**
     * A call of a contributed function: bound by the function itself on the resolved arguments; its
     * IllegalArgumentException is this call's analysis error, with the call's origin.
     */
    private Bound contributed(SqlFunction f, String name, List<Bound> args, Origin o) {
        List<SqlFunction.Argument> arguments = new ArrayList<>();
        for (Bound a : args) {
            Object value = a.eval instanceof Eval.Const k ? k.value : null;
            arguments.add(new SqlFunction.Argument(a.nullType ? null : a.type, a.nullable,
                    a.eval instanceof Eval.Const, value, a.sql));
        }
        SqlFunction.Call call = new SqlFunction.Call(name, arguments, zone);
        SqlFunction.Binding binding;
        try {
            binding = f.bind(call);
        } catch (IllegalArgumentException e) {
            if (e instanceof AnalysisException ae) {
                throw ae;
            }
            throw Origin.error(e.getMessage(), o);
        }
        if (binding == null) {
            throw new IllegalStateException("SqlFunction " + f.getClass().getName() + " bound " + call.sql()
                    + " to null");
        }
        Eval[] children = args.stream().map(Bound::eval).toArray(Eval[]::new);
        return make(new FunctionEvals.Contributed(children, binding.evaluator()), binding.resultType(),
                binding.nullable(), call.sql(), o, args.toArray(new Bound[0]));
    }

    private static void arity(String fn, List<Bound> args, int min, int max, Origin o) {
        int n = args.size();
        if (n >= min && n <= max) {
            return;
        }
        String expected = min == max ? min + " parameter" + (min == 1 ? "" : "s")
                : max == Integer.MAX_VALUE ? "at least " + min + " parameter" + (min == 1 ? "" : "s")
                : min + " to " + max + " parameters";
        throw Origin.error("The function `" + fn + "` requires " + expected + " but the actual number is " + n + ".",
                o);
    }

    private Bound coalesce(List<Bound> args, String sql, Origin o) {
        DataType type = common(args);
        if (type == null) {
            throw mismatch(sql, o, "Input to the function should all be the same type, but it's ["
                    + args.stream().map(Analyzer::t).collect(Collectors.joining(", ")) + "].");
        }
        Bound[] cast = args.stream().map(a -> coerce(a, type)).toArray(Bound[]::new);
        Bound r = make(new Eval.Coalesce(java.util.Arrays.stream(cast).map(Bound::eval).toArray(Eval[]::new)), type,
                true, sql, o, cast);
        boolean allNull = args.stream().allMatch(Bound::nullType);
        return allNull ? new Bound(r.eval, r.type, true, true, true, r.sql, r.name, false, o) : r;
    }

    private Bound concat(String fn, List<Bound> args, Origin o) {
        String sql = fn + "(" + args.stream().map(Bound::sql).collect(Collectors.joining(", ")) + ")";
        if (args.isEmpty()) {
            return make(new Eval.Const(""), AtomicType.STRING_TYPE, false, sql, o);
        }
        List<Bound> strings = strings(args, sql, o);
        return make(new FunctionEvals.Concat(strings.stream().map(Bound::eval).toArray(Eval[]::new)),
                AtomicType.STRING_TYPE, true, sql, o, strings.toArray(new Bound[0]));
    }

    private List<Bound> strings(List<Bound> args, String sql, Origin o) {
        List<Bound> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            out.add(asString(args.get(i), i + 1, sql, o));
        }
        return out;
    }

    private Bound asInt(Bound b, int param, String sql, Origin o) {
        if (b.nullType || Types.isIntegral(b.type) || Types.isString(b.type)) {
            return coerce(b, AtomicType.INT_TYPE);
        }
        throw mismatch(sql, o, "Parameter " + param + " requires the \"INT\" type, however " + q(b) + " has the type "
                + t(b) + ".");
    }

    private Bound numeric(Bound b, int param, String sql, Origin o) {
        if (b.nullType || Types.isString(b.type)) {
            return coerce(b, AtomicType.DOUBLE_TYPE);
        }
        if (Types.isNumeric(b.type)) {
            return b;
        }
        throw mismatch(sql, o, "Parameter " + param + " requires the \"NUMERIC\" type, however " + q(b)
                + " has the type " + t(b) + ".");
    }

    private Bound round(List<Bound> args, String sql, Origin o) {
        Bound n = numeric(args.get(0), 1, sql, o);
        int scale = 0;
        if (args.size() == 2) {
            Bound s = args.get(1);
            if (!(s.eval instanceof Eval.Const c) || !(c.value instanceof Integer || c.value instanceof Short
                    || c.value instanceof Byte)) {
                throw mismatch(sql, o, "Parameter 2 requires a constant \"INT\", however " + q(s) + " is "
                        + (s.foldable ? "of the type " + t(s) : "not a constant") + ".");
            }
            scale = ((Number) c.value).intValue();
        }
        DataType type = n.type;
        if (type instanceof DecimalType d) {
            int intDigits = d.precision() - d.scale() + 1;
            if (scale < 0) {
                type = new DecimalType(Math.min(Math.max(intDigits, -scale + 1), Types.MAX_PRECISION), 0);
            } else {
                scale = Math.min(d.scale(), scale);
                type = new DecimalType(Math.min(intDigits + scale, Types.MAX_PRECISION), scale);
            }
        }
        return make(new FunctionEvals.Round(n.eval, scale, type), type, true, sql, o, n);
    }

    private Bound toDateTime(String fn, List<Bound> args, String sql, Origin o) {
        boolean date = fn.equals("to_date");
        DataType target = date ? AtomicType.DATE_TYPE : AtomicType.TIMESTAMP_TYPE;
        Bound x = args.get(0);
        if (args.size() == 1) {
            if (!x.nullType && !Types.isString(x.type) && x.type != AtomicType.DATE_TYPE
                    && x.type != AtomicType.TIMESTAMP_TYPE && !(Types.isNumeric(x.type) && !date)) {
                throw mismatch(sql, o, "Parameter 1 requires the \"STRING\", \"DATE\" or \"TIMESTAMP\" type, however "
                        + q(x) + " has the type " + t(x) + ".");
            }
            Bound r = cast(x, target, o);
            return new Bound(r.eval, target, false, true, r.foldable, sql, sql, false, o);
        }
        Bound s = asString(x, 1, sql, o);
        Bound f = args.get(1);
        if (f.nullType) {
            return nullOf(target, s).withName(sql, false);
        }
        if (!(f.eval instanceof Eval.Const c) || !(c.value instanceof String pattern)) {
            throw mismatch(sql, o, "the format " + q(f) + " must be a constant STRING.");
        }
        DateTimeFormatter formatter;
        try {
            formatter = DateTimes.pattern(pattern);
        } catch (IllegalArgumentException e) {
            throw Origin.error("Cannot resolve \"" + sql + "\": the datetime pattern '" + pattern + "' is invalid: "
                    + e.getMessage(), o);
        }
        return make(new FunctionEvals.ParseWithPattern(s.eval, formatter, date, zone), target, true, sql, o, s);
    }

    private Bound fromJson(List<Bound> args, Origin o) {
        Bound json = args.get(0);
        String sql = "from_json(" + json.sql + ")";
        Bound s = asString(json, 1, sql, o);
        Bound schemaArg = args.get(1);
        if (!(schemaArg.eval instanceof Eval.Const c) || !(c.value instanceof String ddl)) {
            throw Origin.error("The input schema " + q(schemaArg) + " is not a valid schema string. The input "
                    + "expression must be string literal and not null.", o);
        }
        DataType schema;
        try {
            schema = DataType.fromDDL(ddl);
        } catch (SchemaParseException e) {
            throw Origin.error("Cannot parse the schema of from_json: " + e.getMessage(), o);
        }
        if (!(schema instanceof StructType || schema instanceof ArrayType || schema instanceof MapType)) {
            throw mismatch(sql, o, "Input schema " + Types.quoted(schema) + " must be a struct, an array or a map.");
        }
        checkMapKeys(schema, sql, o);
        Json.ReadOptions options;
        try {
            options = Json.ReadOptions.of(options(args, 2, sql, o), zone);
        } catch (IllegalArgumentException e) {
            throw Origin.error(e.getMessage(), o);
        }
        DataType type = Types.asNullable(schema);
        return make(new Json.FromJson(s.eval, type, options), type, true, sql, o, s);
    }

    private static void checkMapKeys(DataType t, String sql, Origin o) {
        if (t instanceof MapType m) {
            if (!Types.isString(m.keyType())) {
                throw mismatch(sql, o, "Input schema " + Types.quoted(t) + " can only contain STRING as a key type "
                        + "for a MAP.");
            }
            checkMapKeys(m.valueType(), sql, o);
        } else if (t instanceof ArrayType a) {
            checkMapKeys(a.elementType(), sql, o);
        } else if (t instanceof StructType s) {
            for (StructField f : s.fields()) {
                checkMapKeys(f.dataType(), sql, o);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> options(List<Bound> args, int index, String sql, Origin o) {
        if (args.size() <= index) {
            return Map.of();
        }
        Bound opt = args.get(index);
        if (opt.eval instanceof Eval.Const c && c.value instanceof Map<?, ?> m && opt.type instanceof MapType mt
                && Types.isString(mt.keyType()) && Types.isString(mt.valueType())) {
            return (Map<String, String>) m;
        }
        throw mismatch(sql, o, "the options must be a constant MAP<STRING, STRING> such as map('mode', 'FAILFAST'), "
                + "but " + q(opt) + " has the type " + t(opt) + ".");
    }

    private Bound toJson(List<Bound> args, Origin o) {
        Bound v = args.get(0);
        String sql = "to_json(" + v.sql + ")";
        if (v.nullType) {
            return nullOf(AtomicType.STRING_TYPE, v).withName(sql, false);
        }
        if (!(v.type instanceof StructType || v.type instanceof ArrayType || v.type instanceof MapType)) {
            throw mismatch(sql, o, "Parameter 1 requires the \"STRUCT\", \"ARRAY\" or \"MAP\" type, however " + q(v)
                    + " has the type " + t(v) + ".");
        }
        Json.WriteOptions options;
        try {
            options = Json.WriteOptions.of(options(args, 1, sql, o), zone);
        } catch (IllegalArgumentException e) {
            throw Origin.error(e.getMessage(), o);
        }
        return make(new Json.ToJson(v.eval, v.type, options), AtomicType.STRING_TYPE, true, sql, o, v);
    }

    /**
     * The columns {@code *} stands for, or the fields of the struct {@code a.b.*} names, each named as the column or
     * field: what a select list and a function's arguments expand a star to.
     */
    List<Bound> expand(Expr.Star star) {
        List<Bound> out = new ArrayList<>();
        if (star.qualifier().isEmpty()) {
            for (int i = 0; i < input.size(); i++) {
                out.add(resolve(new Expr.InputColumn(i, input.field(i).name())));
            }
            return out;
        }
        List<String> q = star.qualifier();
        if (input.indexOf(q.get(0)) < 0) {
            String name = String.join(".", q.stream().map(Analyzer::quote).toList());
            throw Origin.error("Cannot resolve `" + name + ".*` given input columns: ["
                    + String.join(", ", input.fieldNames().stream().map(n -> "`" + n + "`").toList()) + "].",
                    star.origin());
        }
        Bound base = resolve(new Expr.ColumnRef(q, star.origin()));
        if (!(base.type instanceof StructType s)) {
            throw Origin.error("Can only star expand struct data types. Attribute: `" + base.sql
                    + "` has the type " + Types.quoted(base.type) + ".", star.origin());
        }
        for (int i = 0; i < s.size(); i++) {
            out.add(extract(base, s.field(i).name(), star.origin()));
        }
        return out;
    }

    /**
     * Spark's {@code struct(...)}: a struct of the arguments, each field named after its argument when that is a
     * column, a field or an alias ({@code struct(a, b AS c)}: fields {@code a}, {@code c}), else {@code colN}
     * (1-based), as Spark's CreateStruct. Never null itself; a field is nullable when its argument is.
     */
    private Bound struct(List<Bound> args, List<Boolean> aliased, Origin o) {
        List<StructField> fields = new ArrayList<>();
        List<String> items = new ArrayList<>();
        Eval[] evals = new Eval[args.size()];
        for (int i = 0; i < args.size(); i++) {
            Bound a = args.get(i);
            String name = a.named ? a.name : "col" + (i + 1);
            // An untyped NULL field: Spark's void type, which Sluice does not have, becomes a string field.
            fields.add(new StructField(name, a.nullType ? AtomicType.STRING_TYPE : a.type, a.nullable));
            items.add(aliased.get(i) ? a.sql + " AS " + quote(a.name) : a.sql);
            evals[i] = a.eval;
        }
        StructType type = new StructType(fields);
        String sql = "struct(" + String.join(", ", items) + ")";
        return make(new FunctionEvals.CreateStruct(evals, type), type, false, sql, o, args.toArray(new Bound[0]));
    }

    private Bound createMap(List<Bound> args, String sql, Origin o) {
        if (args.size() % 2 != 0) {
            throw Origin.error("The function `map` requires an even number of parameters (key, value, ...) but the "
                    + "actual number is " + args.size() + ".", o);
        }
        List<Bound> keys = new ArrayList<>();
        List<Bound> values = new ArrayList<>();
        for (int i = 0; i < args.size(); i += 2) {
            keys.add(args.get(i));
            values.add(args.get(i + 1));
        }
        DataType kt = common(keys);
        DataType vt = common(values);
        if (kt == null || vt == null) {
            throw mismatch(sql, o, "the " + (kt == null ? "keys" : "values") + " of map should all be the same type, "
                    + "but they are [" + (kt == null ? keys : values).stream().map(Analyzer::t)
                    .collect(Collectors.joining(", ")) + "].");
        }
        List<Bound> children = new ArrayList<>();
        Eval[] ks = new Eval[keys.size()];
        Eval[] vs = new Eval[values.size()];
        for (int i = 0; i < ks.length; i++) {
            Bound k = coerce(keys.get(i), kt);
            Bound v = coerce(values.get(i), vt);
            ks[i] = k.eval;
            vs[i] = v.eval;
            children.add(k);
            children.add(v);
        }
        return make(new FunctionEvals.CreateMap(ks, vs), MapType.of(kt, vt), true, sql, o,
                children.toArray(new Bound[0]));
    }

}
