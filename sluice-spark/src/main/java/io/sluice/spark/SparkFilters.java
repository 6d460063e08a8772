package io.sluice.spark;

import io.sluice.api.source.ColumnFilter;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructType;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Spark's pushed {@code sources.Filter}s as Sluice {@link ColumnFilter}s: comparisons, IN, IS [NOT] NULL and AND
 * on top-level columns of atomic types (not binary), with the literal as the column's Sluice value. Anything else
 * (OR, NOT, string predicates, nested or binary columns, a literal of another type) is not translated and stays
 * with Spark.
 */
final class SparkFilters {
    private SparkFilters() {
    }

    static Optional<ColumnFilter> toSluice(Filter f, StructType schema) {
        if (f instanceof And a) {
            Optional<ColumnFilter> l = toSluice(a.left(), schema);
            Optional<ColumnFilter> r = toSluice(a.right(), schema);
            return l.isPresent() && r.isPresent() ? Optional.of(new ColumnFilter.And(l.get(), r.get()))
                    : Optional.empty();
        }
        if (f instanceof IsNull n) {
            return type(n.attribute(), schema).map(t -> new ColumnFilter.IsNull(n.attribute()));
        }
        if (f instanceof IsNotNull n) {
            return type(n.attribute(), schema).map(t -> new ColumnFilter.IsNotNull(n.attribute()));
        }
        if (f instanceof In in) {
            Optional<DataType> t = type(in.attribute(), schema);
            if (t.isEmpty()) {
                return Optional.empty();
            }
            List<Object> values = new ArrayList<>();
            for (Object v : in.values()) {
                Optional<Object> s = value(v, t.get());
                if (s.isEmpty()) {
                    return Optional.empty();
                }
                values.add(s.get());
            }
            return Optional.of(new ColumnFilter.In(in.attribute(), values));
        }
        if (f instanceof EqualTo e) {
            return compare(e.attribute(), ColumnFilter.Op.EQUAL_TO, e.value(), schema);
        }
        if (f instanceof GreaterThan e) {
            return compare(e.attribute(), ColumnFilter.Op.GREATER_THAN, e.value(), schema);
        }
        if (f instanceof GreaterThanOrEqual e) {
            return compare(e.attribute(), ColumnFilter.Op.GREATER_THAN_OR_EQUAL, e.value(), schema);
        }
        if (f instanceof LessThan e) {
            return compare(e.attribute(), ColumnFilter.Op.LESS_THAN, e.value(), schema);
        }
        if (f instanceof LessThanOrEqual e) {
            return compare(e.attribute(), ColumnFilter.Op.LESS_THAN_OR_EQUAL, e.value(), schema);
        }
        return Optional.empty();
    }

    private static Optional<ColumnFilter> compare(String column, ColumnFilter.Op op, Object value,
                                                  StructType schema) {
        return type(column, schema).flatMap(t -> value(value, t)).map(v -> new ColumnFilter.Compare(column, op, v));
    }

    /** The type of a top-level column of that exact name, when filters on it can be handed over. */
    private static Optional<DataType> type(String column, StructType schema) {
        for (var field : schema.fields()) {
            if (field.name().equals(column)) {
                DataType t = field.dataType();
                boolean atomic = t instanceof AtomicType a && a != AtomicType.BINARY_TYPE;
                return atomic || t instanceof DecimalType ? Optional.of(t) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Spark's external value (java8API on or off) as the column's Sluice value, if it is of that type. */
    private static Optional<Object> value(Object v, DataType type) {
        if (v == null) {
            return Optional.empty();
        }
        if (type instanceof DecimalType) {
            return v instanceof BigDecimal ? Optional.of(v) : Optional.empty();
        }
        Class<?> expected = switch ((AtomicType) type) {
            case BOOLEAN_TYPE -> Boolean.class;
            case BYTE_TYPE -> Byte.class;
            case SHORT_TYPE -> Short.class;
            case INT_TYPE -> Integer.class;
            case LONG_TYPE -> Long.class;
            case FLOAT_TYPE -> Float.class;
            case DOUBLE_TYPE -> Double.class;
            case STRING_TYPE -> String.class;
            case DATE_TYPE -> LocalDate.class;
            case TIMESTAMP_TYPE -> Instant.class;
            case BINARY_TYPE -> byte[].class;
        };
        if (v instanceof java.sql.Timestamp t) {
            v = t.toInstant();
        } else if (v instanceof java.sql.Date d) {
            v = d.toLocalDate();
        }
        return expected.isInstance(v) ? Optional.of(v) : Optional.empty();
    }
}
