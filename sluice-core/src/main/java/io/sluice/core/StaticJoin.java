package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.core.expr.Compiler;
import io.sluice.core.expr.Expr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A stream-static equi-join on USING columns or on a condition's equalities ({@link #onCondition}), one step of a
 * streaming frame: each row of the stream is looked up in a hash table of the static side's rows, keyed on the join
 * columns (cast to the type both sides compare as).
 * A key holding a null never matches, as in SQL; a key the static side holds n times gives n rows. The table is
 * read when the join is made ({@link StreamFrame#join}) and again only on {@link #reload()}
 * ({@link StreamFrame#reloadStaticSides()}): Spark re-reads the static side every batch instead.
 *
 * <p>Output columns as Spark's USING join: the join columns first (the left side's for inner and left joins, the
 * right side's for a right outer join), then the other columns of the left side, then those of the right side;
 * the columns of the side an outer join may leave without a match become nullable. Semi and anti joins give the
 * stream row itself. Thread-safe: the table is replaced whole, so a row sees the old table or the new one.
 */
final class StaticJoin implements RowOperator {
    enum Kind { INNER, OUTER, SEMI, ANTI }

    private final StreamFrame staticSide;
    private final Kind kind;
    /** True when the stream is the left side of the join (always so for outer, semi and anti joins but right outer). */
    private final boolean streamLeft;
    private final Compiler.Projection streamKeys;
    private final Compiler.Projection staticKeys;
    private final int[] streamKeyColumns;
    private final int[] staticKeyColumns;
    private final int[] streamOthers;
    private final int[] staticOthers;
    private final StructType schema;
    /**
     * For a join on a condition ({@code a.id = b.key AND ...}) rather than USING columns: the joined row is every
     * left column then every right column, of this schema; {@code residual} (or null) is what the condition holds
     * beyond its equalities, tested on that row as part of the match.
     */
    private final StructType conditionRow;
    private final Compiler.Condition residual;
    private volatile Map<Row, List<Row>> table;

    private StaticJoin(StreamFrame staticSide, Kind kind, boolean streamLeft, Compiler.Projection streamKeys,
                       Compiler.Projection staticKeys, int[] streamKeyColumns, int[] staticKeyColumns,
                       int[] streamOthers, int[] staticOthers, StructType schema, StructType conditionRow,
                       Compiler.Condition residual) {
        this.conditionRow = conditionRow;
        this.residual = residual;
        this.staticSide = staticSide;
        this.kind = kind;
        this.streamLeft = streamLeft;
        this.streamKeys = streamKeys;
        this.staticKeys = staticKeys;
        this.streamKeyColumns = streamKeyColumns;
        this.staticKeyColumns = staticKeyColumns;
        this.streamOthers = streamOthers;
        this.staticOthers = staticOthers;
        this.schema = schema;
    }

    /** The join type's Spark name, for checks: inner, leftouter, rightouter, fullouter, leftsemi, leftanti, cross. */
    static String normalize(String joinType) {
        String t = joinType.toLowerCase(Locale.ROOT).replace("_", "");
        return switch (t) {
            case "inner" -> "inner";
            case "cross" -> "cross";
            case "outer", "full", "fullouter" -> "fullouter";
            case "left", "leftouter" -> "leftouter";
            case "right", "rightouter" -> "rightouter";
            case "semi", "leftsemi" -> "leftsemi";
            case "anti", "leftanti" -> "leftanti";
            default -> throw new IllegalArgumentException("Unsupported join type '" + joinType + "'. Supported join "
                    + "types include: 'inner', 'outer', 'full', 'fullouter', 'full_outer', 'left', 'leftouter', "
                    + "'left_outer', 'right', 'rightouter', 'right_outer', 'leftsemi', 'left_semi', 'semi', "
                    + "'leftanti', 'left_anti', 'anti', 'cross'.");
        };
    }

    /**
     * Checks the combination as Spark's UnsupportedOperationChecker does and builds the join; {@code type} as
     * {@link #normalize} gives it.
     */
    static StaticJoin of(StreamFrame left, StreamFrame right, List<String> using, String type) {
        Kind kind = check(left, right, type);
        if (using.isEmpty()) {
            throw new AnalysisException("A join needs at least one USING column (a cross join of a stream with a "
                    + "static frame is not supported by Sluice)", -1);
        }
        return usingJoin(left, right, using, kind);
    }

    /** Spark's UnsupportedOperationChecker rules for a stream-static join, and the kind of join. */
    private static Kind check(StreamFrame left, StreamFrame right, String type) {
        boolean ls = left.isStreaming();
        boolean rs = right.isStreaming();
        if (ls && rs) {
            throw new AnalysisException("Joins between two streaming DataFrames/Datasets are not supported by "
                    + "Sluice: only stream-static joins (one side from read())", -1);
        }
        if (!ls && !rs) {
            throw new AnalysisException("Joins between two frames from read() are not supported by Sluice: join a "
                    + "stream from readStream() with a frame from read()", -1);
        }
        String refused = null;
        switch (type) {
            case "fullouter" -> refused = ls
                    ? "FullOuter joins with streaming DataFrames/Datasets on the left and a static DataFrame/Dataset "
                    + "on the right is not supported"
                    : "FullOuter joins with streaming DataFrames/Datasets on the right and a static DataFrame/Dataset "
                    + "on the left is not supported";
            case "leftouter" -> refused = rs ? "LeftOuter join with a streaming DataFrame/Dataset on the right and a "
                    + "static DataFrame/Dataset on the left is not supported" : null;
            case "leftsemi" -> refused = rs ? "LeftSemi join with a streaming DataFrame/Dataset on the right and a "
                    + "static DataFrame/Dataset on the left is not supported" : null;
            case "leftanti" -> refused = rs ? "LeftAnti joins with a streaming DataFrame/Dataset on the right are not "
                    + "supported" : null;
            case "rightouter" -> refused = ls ? "RightOuter join with a streaming DataFrame/Dataset on the left and a "
                    + "static DataFrame/DataSet on the right not supported" : null;
            default -> {
            }
        }
        if (refused != null) {
            throw new AnalysisException(refused, -1);
        }
        return switch (type) {
            case "leftouter", "rightouter" -> Kind.OUTER;
            case "leftsemi" -> Kind.SEMI;
            case "leftanti" -> Kind.ANTI;
            default -> Kind.INNER;
        };
    }

    private static StaticJoin usingJoin(StreamFrame left, StreamFrame right, List<String> using, Kind kind) {
        boolean ls = left.isStreaming();
        StreamFrame stream = ls ? left : right;
        StreamFrame fixed = ls ? right : left;
        StructType ss = stream.schema();
        StructType fs = fixed.schema();
        int n = using.size();
        int[] sk = new int[n];
        int[] fk = new int[n];
        List<Expr> sExprs = new ArrayList<>();
        List<Expr> fExprs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String c = using.get(i);
            sk[i] = resolve(ss, c, ls ? "left" : "right");
            fk[i] = resolve(fs, c, ls ? "right" : "left");
            DataType st = ss.field(sk[i]).dataType();
            DataType ft = fs.field(fk[i]).dataType();
            DataType common = Compiler.comparisonType(st, ft);
            if (common == null) {
                throw new AnalysisException("[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] Cannot resolve \"(" + c + " = "
                        + c + ")\" due to data type mismatch: the left and right operands of the binary operator "
                        + "have incompatible types (\"" + (ls ? st : ft).sql() + "\" and \"" + (ls ? ft : st).sql()
                        + "\").", -1);
            }
            sExprs.add(key(sk[i], ss.field(sk[i]), common));
            fExprs.add(key(fk[i], fs.field(fk[i]), common));
        }
        Sluice sluice = stream.sluice();
        Compiler.Projection sp = Compiler.projection(ss, sExprs, sluice.clock(), sluice.sessionTimeZone());
        Compiler.Projection fp = Compiler.projection(fs, fExprs, sluice.clock(), sluice.sessionTimeZone());
        int[] so = others(ss, sk);
        int[] fo = others(fs, fk);
        List<StructField> out = new ArrayList<>();
        if (kind == Kind.SEMI || kind == Kind.ANTI) {
            out.addAll(ss.fields());
        } else {
            // Keys from the left, except in a right outer join; the side that may be missing goes nullable.
            boolean keysFromStream = ls || kind == Kind.OUTER;
            for (int i = 0; i < n; i++) {
                out.add(keysFromStream ? ss.field(sk[i]) : fs.field(fk[i]));
            }
            List<StructField> streamCols = fields(ss, so, false);
            List<StructField> fixedCols = fields(fs, fo, kind == Kind.OUTER);
            out.addAll(ls ? streamCols : fixedCols);
            out.addAll(ls ? fixedCols : streamCols);
        }
        StaticJoin join = new StaticJoin(fixed, kind, ls, sp, fp, sk, fk, so, fo, new StructType(out), null, null);
        join.reload();
        return join;
    }

    /**
     * A join on a condition, as Spark's {@code join(right, condition, joinType)}: the condition's equalities
     * between an expression of the stream's columns and one of the static side's are the hash keys (at least one is
     * needed); the rest of it is tested on each matching pair. Columns are named plainly when one side only has
     * them, or qualified by the frames' aliases ({@link StreamFrame#as}): {@code a.id = b.key}. Output: every
     * column of the left side, then every column of the right side (semi and anti joins: the stream's).
     */
    static StaticJoin onCondition(StreamFrame left, StreamFrame right, Expr condition, String type) {
        Kind kind = check(left, right, type);
        boolean ls = left.isStreaming();
        StructType lsch = left.schema();
        StructType rsch = right.schema();
        List<StructField> all = new ArrayList<>(lsch.fields());
        all.addAll(rsch.fields());
        StructType combined = new StructType(all);
        Expr bound = AggregateExprs.map(condition, e -> e instanceof Expr.ColumnRef c
                ? qualified(c, left.alias(), lsch, right.alias(), rsch) : null);
        // The equalities between one side and the other are the keys; everything else is residual.
        List<Expr> conjuncts = new ArrayList<>();
        splitAnd(bound, conjuncts);
        List<Expr> leftKeys = new ArrayList<>();
        List<Expr> rightKeys = new ArrayList<>();
        List<Expr> rest = new ArrayList<>();
        int width = lsch.size();
        for (Expr c : conjuncts) {
            if (c instanceof Expr.Binary b && b.op().equals("=")) {
                int l = sides(b.left(), width);
                int r = sides(b.right(), width);
                if (l == 1 && r == 2) {
                    leftKeys.add(b.left());
                    rightKeys.add(local(b.right(), width));
                    continue;
                } else if (l == 2 && r == 1) {
                    leftKeys.add(b.right());
                    rightKeys.add(local(b.left(), width));
                    continue;
                }
            }
            rest.add(c);
        }
        if (leftKeys.isEmpty()) {
            throw new AnalysisException("A stream-static join needs at least one equality between a column of each "
                    + "side in its condition (" + Expr.toText(condition) + "): Sluice looks the stream's rows up by "
                    + "it; a cross or non-equi join is not supported by Sluice", -1);
        }
        Sluice sluice = (ls ? left : right).sluice();
        Compiler.Projection lp = Compiler.projection(lsch, leftKeys, sluice.clock(), sluice.sessionTimeZone(),
                sluice.providers().functions());
        Compiler.Projection rp = Compiler.projection(rsch, rightKeys, sluice.clock(), sluice.sessionTimeZone(),
                sluice.providers().functions());
        List<Expr> lk = new ArrayList<>();
        List<Expr> rk = new ArrayList<>();
        for (int i = 0; i < leftKeys.size(); i++) {
            DataType lt = lp.schema().field(i).dataType();
            DataType rt = rp.schema().field(i).dataType();
            DataType common = Compiler.comparisonType(lt, rt);
            if (common == null) {
                throw new AnalysisException("[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] Cannot resolve \"("
                        + lp.schema().field(i).name() + " = " + rp.schema().field(i).name() + ")\" due to data type "
                        + "mismatch: the left and right operands of the binary operator have incompatible types (\""
                        + lt.sql() + "\" and \"" + rt.sql() + "\").", -1);
            }
            lk.add(lt.equals(common) ? leftKeys.get(i) : new Expr.Cast(leftKeys.get(i), common, null));
            rk.add(rt.equals(common) ? rightKeys.get(i) : new Expr.Cast(rightKeys.get(i), common, null));
        }
        lp = Compiler.projection(lsch, lk, sluice.clock(), sluice.sessionTimeZone(), sluice.providers().functions());
        rp = Compiler.projection(rsch, rk, sluice.clock(), sluice.sessionTimeZone(), sluice.providers().functions());
        Compiler.Condition residual = null;
        if (!rest.isEmpty()) {
            Expr r = rest.get(0);
            for (int i = 1; i < rest.size(); i++) {
                r = new Expr.Binary("AND", r, rest.get(i), null);
            }
            residual = Compiler.condition(combined, r, sluice.clock(), sluice.sessionTimeZone(),
                    sluice.providers().functions());
        }
        StructType out;
        if (kind == Kind.SEMI || kind == Kind.ANTI) {
            out = (ls ? left : right).schema();
        } else {
            List<StructField> fields = new ArrayList<>();
            fields.addAll(fields(lsch, range(lsch.size()), kind == Kind.OUTER && !ls));
            fields.addAll(fields(rsch, range(rsch.size()), kind == Kind.OUTER && ls));
            out = new StructType(fields);
        }
        StreamFrame stream = ls ? left : right;
        StreamFrame fixed = ls ? right : left;
        StaticJoin join = new StaticJoin(fixed, kind, ls, ls ? lp : rp, ls ? rp : lp, new int[0], new int[0],
                range(stream.schema().size()), range(fixed.schema().size()), out, combined, residual);
        join.reload();
        return join;
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    private static void splitAnd(Expr e, List<Expr> out) {
        if (e instanceof Expr.Binary b && b.op().equals("AND")) {
            splitAnd(b.left(), out);
            splitAnd(b.right(), out);
        } else {
            out.add(e);
        }
    }

    /** Which sides the expression reads: 0 none, 1 left, 2 right, 3 both. */
    private static int sides(Expr e, int leftWidth) {
        int[] s = {0};
        AggregateExprs.map(e, x -> {
            if (x instanceof Expr.InputColumn c) {
                s[0] |= c.index() < leftWidth ? 1 : 2;
                return x;
            }
            return null;
        });
        return s[0];
    }

    /** A right-side expression over the right side's own columns. */
    private static Expr local(Expr e, int leftWidth) {
        return AggregateExprs.map(e, x -> x instanceof Expr.InputColumn c
                ? new Expr.InputColumn(c.index() - leftWidth, c.name()) : null);
    }

    /**
     * A column of the join condition as a column of the left-then-right row: {@code alias.name} names a side, a
     * bare name the one side that has it; further parts are fields of a struct.
     */
    private static Expr qualified(Expr.ColumnRef c, String leftAlias, StructType left, String rightAlias,
                                  StructType right) {
        List<String> parts = c.parts();
        int side = 0;
        int at = 0;
        if (parts.size() >= 2 && leftAlias != null && parts.get(0).equalsIgnoreCase(leftAlias)) {
            side = 1;
            at = 1;
        } else if (parts.size() >= 2 && rightAlias != null && parts.get(0).equalsIgnoreCase(rightAlias)) {
            side = 2;
            at = 1;
        }
        String name = parts.get(at);
        int li = side == 2 ? -1 : left.indexOf(name);
        int ri = side == 1 ? -1 : right.indexOf(name);
        if (li >= 0 && ri >= 0) {
            throw new AnalysisException("[AMBIGUOUS_REFERENCE] Reference `" + name + "` is ambiguous, could be: ["
                    + qualify(leftAlias, name) + ", " + qualify(rightAlias, name) + "].", -1);
        }
        if (li < 0 && ri < 0) {
            List<String> candidates = new ArrayList<>();
            for (String f : left.fieldNames()) {
                candidates.add(qualify(leftAlias, f));
            }
            for (String f : right.fieldNames()) {
                candidates.add(qualify(rightAlias, f));
            }
            throw new AnalysisException("[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function "
                    + "parameter with name " + String.join(".", parts.stream().map(p -> "`" + p + "`").toList())
                    + " cannot be resolved. Did you mean one of the following? [" + String.join(", ", candidates)
                    + "].", -1);
        }
        Expr e = li >= 0 ? new Expr.InputColumn(li, left.field(li).name())
                : new Expr.InputColumn(left.size() + ri, right.field(ri).name());
        for (int i = at + 1; i < parts.size(); i++) {
            e = new Expr.Field(e, parts.get(i), c.origin());
        }
        return e;
    }

    private static String qualify(String alias, String name) {
        return (alias == null ? "" : "`" + alias + "`.") + "`" + name + "`";
    }

    private static int resolve(StructType schema, String column, String side) {
        int i = schema.indexOf(column);
        if (i < 0) {
            throw new AnalysisException("[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column `" + column + "` cannot be "
                    + "resolved on the " + side + " side of the join. The " + side + "-side columns: ["
                    + String.join(", ", schema.fieldNames().stream().map(f -> "`" + f + "`").toList()) + "].", -1);
        }
        return i;
    }

    private static Expr key(int index, StructField field, DataType common) {
        Expr in = new Expr.InputColumn(index, field.name());
        return field.dataType().equals(common) ? in : new Expr.Cast(in, common, null);
    }

    private static int[] others(StructType schema, int[] keys) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            boolean key = false;
            for (int k : keys) {
                key |= k == i;
            }
            if (!key) {
                out.add(i);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static List<StructField> fields(StructType schema, int[] columns, boolean nullable) {
        List<StructField> out = new ArrayList<>();
        for (int c : columns) {
            StructField f = schema.field(c);
            out.add(nullable ? new StructField(f.name(), f.dataType(), true) : f);
        }
        return out;
    }

    /** The schema of the joined rows. */
    StructType schema() {
        return schema;
    }

    /** Reads the static side again (now, on the calling thread) and swaps the new table in. */
    void reload() {
        List<Row> rows;
        try {
            rows = staticSide.collectAsList();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Reading the static side of a join failed: " + e.getMessage(), e);
        }
        Map<Row, List<Row>> t = new HashMap<>();
        for (Row r : rows) {
            Row k = staticKeys.apply(r);
            if (!hasNull(k)) {
                t.computeIfAbsent(k, x -> new ArrayList<>(1)).add(r);
            }
        }
        table = t;
    }

    /** The number of rows of the static side the table holds (rows with a null key are left out). */
    int tableRows() {
        return table.values().stream().mapToInt(List::size).sum();
    }

    private static boolean hasNull(Row key) {
        for (int i = 0; i < key.size(); i++) {
            if (key.isNullAt(i)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Row apply(Row row) {
        throw new UnsupportedOperationException("A join can give several rows per row: use forEach");
    }

    @Override
    public boolean fansOut() {
        return true;
    }

    @Override
    public void forEach(Row row, RowConsumer out) throws Exception {
        Row k = streamKeys.apply(row);
        List<Row> matches = hasNull(k) ? null : table.get(k);
        if (matches != null && residual != null) {
            List<Row> kept = new ArrayList<>(matches.size());
            for (Row m : matches) {
                if (residual.test(pair(row, m).attach(conditionRow))) {
                    kept.add(m);
                }
            }
            matches = kept.isEmpty() ? null : kept;
        }
        switch (kind) {
            case SEMI -> {
                if (matches != null) {
                    out.accept(row.attach(schema));
                }
            }
            case ANTI -> {
                if (matches == null) {
                    out.accept(row.attach(schema));
                }
            }
            default -> {
                if (matches != null) {
                    for (Row m : matches) {
                        out.accept(joined(row, m));
                    }
                } else if (kind == Kind.OUTER) {
                    out.accept(joined(row, null));
                }
            }
        }
    }

    /** Every left column then every right column ({@code fixed} null: the static side's are null). */
    private Row pair(Row stream, Row fixed) {
        Object[] v = new Object[streamOthers.length + staticOthers.length];
        if (streamLeft) {
            copy(fixed, staticOthers, v, copy(stream, streamOthers, v, 0));
        } else {
            copy(stream, streamOthers, v, copy(fixed, staticOthers, v, 0));
        }
        return Row.wrap(v);
    }

    private Row joined(Row stream, Row fixed) {
        if (conditionRow != null) {
            return pair(stream, fixed).attach(schema);
        }
        Object[] v = new Object[schema.size()];
        int i = 0;
        // Inner join with the stream on the right: the keys are the left (static) side's, as Spark's USING.
        boolean keysFromStream = streamLeft || kind == Kind.OUTER || fixed == null;
        for (int k = 0; k < streamKeyColumns.length; k++) {
            v[i++] = keysFromStream ? stream.get(streamKeyColumns[k]) : fixed.get(staticKeyColumns[k]);
        }
        if (streamLeft) {
            i = copy(stream, streamOthers, v, i);
            copy(fixed, staticOthers, v, i);
        } else {
            i = copy(fixed, staticOthers, v, i);
            copy(stream, streamOthers, v, i);
        }
        return Row.wrap(v).attach(schema);
    }

    private static int copy(Row from, int[] columns, Object[] to, int at) {
        for (int c : columns) {
            to[at++] = from == null ? null : from.get(c);
        }
        return at;
    }
}
