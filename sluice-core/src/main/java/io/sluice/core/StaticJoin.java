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
 * A stream-static equi-join on USING columns, one step of a streaming frame: each row of the stream is looked up
 * in a hash table of the static side's rows, keyed on the join columns (cast to the type both sides compare as).
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
    private volatile Map<Row, List<Row>> table;

    private StaticJoin(StreamFrame staticSide, Kind kind, boolean streamLeft, Compiler.Projection streamKeys,
                       Compiler.Projection staticKeys, int[] streamKeyColumns, int[] staticKeyColumns,
                       int[] streamOthers, int[] staticOthers, StructType schema) {
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
        if (using.isEmpty()) {
            throw new AnalysisException("A join needs at least one USING column (a cross join of a stream with a "
                    + "static frame is not supported by Sluice)", -1);
        }
        Kind kind = switch (type) {
            case "leftouter", "rightouter" -> Kind.OUTER;
            case "leftsemi" -> Kind.SEMI;
            case "leftanti" -> Kind.ANTI;
            default -> Kind.INNER;
        };
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
        StaticJoin join = new StaticJoin(fixed, kind, ls, sp, fp, sk, fk, so, fo, new StructType(out));
        join.reload();
        return join;
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

    private Row joined(Row stream, Row fixed) {
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
