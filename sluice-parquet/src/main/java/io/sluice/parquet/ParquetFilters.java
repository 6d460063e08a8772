package io.sluice.parquet;

import io.sluice.api.source.ColumnFilter;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructType;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A read's filters ({@link ColumnFilter}s on top-level columns) as a parquet-java {@link FilterPredicate} for one
 * file, so that its row groups whose statistics, dictionaries or bloom filters prove that no row matches are not
 * read. Built against the file's own schema: a column is found as the reader finds it (exact name, else ignoring
 * case), and a filter goes to parquet-java only when the file's column holds the filter's values exactly in an
 * order parquet-java's statistics keep for it. Everything else is left out (the rows are filtered again above):
 * floats and doubles (NaN and -0.0 in statistics), INT96 and nanosecond timestamps, timestamps without UTC
 * adjustment, unsigned integers, binary, strings not annotated as such, decimals of another scale, values that do
 * not fit the file's type (an INT32 column read as bigint compared with a larger number), nested fields, names
 * with a dot (parquet-java would read it as a path).
 */
final class ParquetFilters {
    private ParquetFilters() {
    }

    /** What one file's filters come to. */
    record FilePredicate(boolean matchesNothing, FilterPredicate predicate) {
        static final FilePredicate NONE = new FilePredicate(false, null);
        static final FilePredicate NOTHING = new FilePredicate(true, null);
    }

    /**
     * The predicate for a file of schema {@code file} read into {@code schema}: {@link FilePredicate#NOTHING}
     * when a filter can hold for no row of the file (a comparison on a column the file lacks, all nulls),
     * {@link FilePredicate#NONE} when no filter can be given to parquet-java.
     */
    static FilePredicate of(GroupType file, StructType schema, List<ColumnFilter> filters) {
        List<FilterPredicate> parts = new ArrayList<>();
        for (ColumnFilter f : filters) {
            if (!add(file, schema, f, parts)) {
                return FilePredicate.NOTHING;
            }
        }
        if (parts.isEmpty()) {
            return FilePredicate.NONE;
        }
        FilterPredicate p = parts.get(0);
        for (int i = 1; i < parts.size(); i++) {
            p = FilterApi.and(p, parts.get(i));
        }
        return new FilePredicate(false, p);
    }

    /** Adds the predicate of {@code f}, if any; false when {@code f} holds for no row of the file. */
    private static boolean add(GroupType file, StructType schema, ColumnFilter f, List<FilterPredicate> out) {
        if (f instanceof ColumnFilter.And a) {
            return add(file, schema, a.left(), out) && add(file, schema, a.right(), out);
        }
        String column = f.columns().iterator().next();
        int si = schema.indexOf(column);
        if (si < 0) {
            return true;
        }
        int fi = ParquetReading.find(file, column);
        if (fi < 0) {
            // The file lacks the column, which reads as null in every row: only IS NULL holds.
            return f instanceof ColumnFilter.IsNull;
        }
        Type t = file.getType(fi);
        if (!t.isPrimitive() || t.isRepetition(Type.Repetition.REPEATED) || t.getName().contains(".")) {
            return true;
        }
        PrimitiveType p = t.asPrimitiveType();
        if (f instanceof ColumnFilter.IsNull || f instanceof ColumnFilter.IsNotNull) {
            Operators.Column<?> c = anyColumn(p);
            if (c != null) {
                out.add(f instanceof ColumnFilter.IsNull ? eq(c, null) : notEq(c, null));
            }
            return true;
        }
        Operand op = operand(p, schema.field(si).dataType());
        if (op == null) {
            return true;
        }
        if (f instanceof ColumnFilter.In in) {
            Set<Comparable<?>> values = new HashSet<>();
            for (Object v : in.values()) {
                Comparable<?> x = op.value(v);
                if (x == null) {
                    return true; // a value the file's type cannot hold: leave the filter out
                }
                values.add(x);
            }
            if (values.isEmpty()) {
                return false; // IN () holds for no row
            }
            out.add(in(op.column, values));
            return true;
        }
        ColumnFilter.Compare c = (ColumnFilter.Compare) f;
        Comparable<?> v = op.value(c.value());
        if (v == null) {
            return true;
        }
        if (!(op.column instanceof Operators.SupportsLtGt) && c.op() != ColumnFilter.Op.EQUAL_TO) {
            return true; // booleans: equality only
        }
        out.add(switch (c.op()) {
            case EQUAL_TO -> eq(op.column, v);
            case GREATER_THAN -> compare(op.column, v, 1);
            case GREATER_THAN_OR_EQUAL -> compare(op.column, v, 2);
            case LESS_THAN -> compare(op.column, v, 3);
            case LESS_THAN_OR_EQUAL -> compare(op.column, v, 4);
        });
        return true;
    }

    /** A column of the file and how a filter's value becomes the column's Parquet value (null: it cannot). */
    private record Operand(Operators.Column<?> column, java.util.function.Function<Object, Comparable<?>> convert) {
        Comparable<?> value(Object v) {
            try {
                return convert.apply(v);
            } catch (ArithmeticException | ClassCastException e) {
                return null;
            }
        }
    }

    /** A column for null checks, of whatever primitive type (INT96 has no filter column). */
    private static Operators.Column<?> anyColumn(PrimitiveType p) {
        String n = p.getName();
        return switch (p.getPrimitiveTypeName()) {
            case INT32 -> FilterApi.intColumn(n);
            case INT64 -> FilterApi.longColumn(n);
            case FLOAT -> FilterApi.floatColumn(n);
            case DOUBLE -> FilterApi.doubleColumn(n);
            case BOOLEAN -> FilterApi.booleanColumn(n);
            case BINARY, FIXED_LEN_BYTE_ARRAY -> FilterApi.binaryColumn(n);
            case INT96 -> null;
        };
    }

    private static boolean signedInt(LogicalTypeAnnotation a) {
        return a == null || a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned();
    }

    private static Operand operand(PrimitiveType p, DataType type) {
        String n = p.getName();
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        PrimitiveType.PrimitiveTypeName pt = p.getPrimitiveTypeName();
        if (type == AtomicType.BYTE_TYPE || type == AtomicType.SHORT_TYPE || type == AtomicType.INT_TYPE
                || type == AtomicType.LONG_TYPE) {
            if (pt == PrimitiveType.PrimitiveTypeName.INT32 && signedInt(a)) {
                return new Operand(FilterApi.intColumn(n), v -> Math.toIntExact(integral(v)));
            }
            if (pt == PrimitiveType.PrimitiveTypeName.INT64 && signedInt(a)) {
                return new Operand(FilterApi.longColumn(n), v -> integral(v));
            }
            return null;
        }
        if (type == AtomicType.STRING_TYPE) {
            return pt == PrimitiveType.PrimitiveTypeName.BINARY
                    && a instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                    ? new Operand(FilterApi.binaryColumn(n), v -> Binary.fromString((String) v)) : null;
        }
        if (type == AtomicType.BOOLEAN_TYPE) {
            return pt == PrimitiveType.PrimitiveTypeName.BOOLEAN
                    ? new Operand(FilterApi.booleanColumn(n), v -> (Boolean) v) : null;
        }
        if (type == AtomicType.DATE_TYPE) {
            boolean date = pt == PrimitiveType.PrimitiveTypeName.INT32
                    && a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation;
            return date ? new Operand(FilterApi.intColumn(n), v -> Math.toIntExact(((LocalDate) v).toEpochDay()))
                    : null;
        }
        if (type == AtomicType.TIMESTAMP_TYPE) {
            if (pt != PrimitiveType.PrimitiveTypeName.INT64
                    || !(a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts)
                    || !ts.isAdjustedToUTC()) {
                return null;
            }
            return switch (ts.getUnit()) {
                case MICROS -> new Operand(FilterApi.longColumn(n), v -> micros((Instant) v));
                case MILLIS -> new Operand(FilterApi.longColumn(n), v -> millis((Instant) v));
                case NANOS -> null;
            };
        }
        if (type instanceof DecimalType d) {
            if (!(a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation fd) || fd.getScale() != d.scale()) {
                return null;
            }
            return switch (pt) {
                case INT32 -> new Operand(FilterApi.intColumn(n), v -> unscaled(v, d.scale()).intValueExact());
                case INT64 -> new Operand(FilterApi.longColumn(n), v -> unscaled(v, d.scale()).longValueExact());
                case FIXED_LEN_BYTE_ARRAY -> new Operand(FilterApi.binaryColumn(n),
                        v -> fixed(unscaled(v, d.scale()), p.getTypeLength()));
                default -> null; // BINARY decimals: left out
            };
        }
        return null;
    }

    /** A whole number's value; a filter's value of another kind is not used. */
    private static long integral(Object v) {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        throw new ClassCastException("not a whole number: " + v.getClass().getName());
    }

    private static long micros(Instant i) {
        if (i.getNano() % 1000 != 0) {
            throw new ArithmeticException("not whole microseconds");
        }
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
    }

    private static long millis(Instant i) {
        if (i.getNano() % 1_000_000 != 0) {
            throw new ArithmeticException("not whole milliseconds");
        }
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1000L), i.getNano() / 1_000_000);
    }

    private static BigInteger unscaled(Object v, int scale) {
        return ((BigDecimal) v).setScale(scale, RoundingMode.UNNECESSARY).unscaledValue();
    }

    /** Big-endian two's complement in exactly {@code length} bytes, sign-extended, as Parquet stores it. */
    private static Binary fixed(BigInteger unscaled, int length) {
        byte[] b = unscaled.toByteArray();
        if (b.length > length) {
            throw new ArithmeticException("does not fit");
        }
        byte[] out = new byte[length];
        byte pad = (byte) (unscaled.signum() < 0 ? 0xFF : 0);
        java.util.Arrays.fill(out, 0, length - b.length, pad);
        System.arraycopy(b, 0, out, length - b.length, b.length);
        return Binary.fromConstantByteArray(out);
    }

    // parquet-java's FilterApi is typed by column (an intersection type no cast reaches): one case per column
    // class; the operands above pair each column with values of its type.

    private static FilterPredicate eq(Operators.Column<?> c, Comparable<?> v) {
        if (c instanceof Operators.IntColumn x) {
            return FilterApi.eq(x, (Integer) v);
        } else if (c instanceof Operators.LongColumn x) {
            return FilterApi.eq(x, (Long) v);
        } else if (c instanceof Operators.BinaryColumn x) {
            return FilterApi.eq(x, (Binary) v);
        } else if (c instanceof Operators.BooleanColumn x) {
            return FilterApi.eq(x, (Boolean) v);
        } else if (c instanceof Operators.FloatColumn x) {
            return FilterApi.eq(x, (Float) v);
        }
        return FilterApi.eq((Operators.DoubleColumn) c, (Double) v);
    }

    private static FilterPredicate notEq(Operators.Column<?> c, Comparable<?> v) {
        if (c instanceof Operators.IntColumn x) {
            return FilterApi.notEq(x, (Integer) v);
        } else if (c instanceof Operators.LongColumn x) {
            return FilterApi.notEq(x, (Long) v);
        } else if (c instanceof Operators.BinaryColumn x) {
            return FilterApi.notEq(x, (Binary) v);
        } else if (c instanceof Operators.BooleanColumn x) {
            return FilterApi.notEq(x, (Boolean) v);
        } else if (c instanceof Operators.FloatColumn x) {
            return FilterApi.notEq(x, (Float) v);
        }
        return FilterApi.notEq((Operators.DoubleColumn) c, (Double) v);
    }

    @SuppressWarnings("unchecked")
    private static FilterPredicate in(Operators.Column<?> c, Set<Comparable<?>> values) {
        Set<?> raw = values;
        if (c instanceof Operators.IntColumn x) {
            return FilterApi.in(x, (Set<Integer>) raw);
        } else if (c instanceof Operators.LongColumn x) {
            return FilterApi.in(x, (Set<Long>) raw);
        } else if (c instanceof Operators.BinaryColumn x) {
            return FilterApi.in(x, (Set<Binary>) raw);
        }
        return FilterApi.in((Operators.BooleanColumn) c, (Set<Boolean>) raw);
    }

    /** {@code op}: 1 {@code >}, 2 {@code >=}, 3 {@code <}, 4 {@code <=}. */
    private static FilterPredicate compare(Operators.Column<?> c, Comparable<?> v, int op) {
        if (c instanceof Operators.IntColumn x) {
            Integer k = (Integer) v;
            return op == 1 ? FilterApi.gt(x, k) : op == 2 ? FilterApi.gtEq(x, k) : op == 3 ? FilterApi.lt(x, k)
                    : FilterApi.ltEq(x, k);
        } else if (c instanceof Operators.LongColumn x) {
            Long k = (Long) v;
            return op == 1 ? FilterApi.gt(x, k) : op == 2 ? FilterApi.gtEq(x, k) : op == 3 ? FilterApi.lt(x, k)
                    : FilterApi.ltEq(x, k);
        }
        Operators.BinaryColumn x = (Operators.BinaryColumn) c;
        Binary k = (Binary) v;
        return op == 1 ? FilterApi.gt(x, k) : op == 2 ? FilterApi.gtEq(x, k) : op == 3 ? FilterApi.lt(x, k)
                : FilterApi.ltEq(x, k);
    }
}
