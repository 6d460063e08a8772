package io.sluice.spark;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Spark's external rows (java8API on: Instant, LocalDate) back to Sluice rows, for exact comparisons. */
final class SparkRows {
    private SparkRows() {
    }

    static List<Row> toSluice(List<org.apache.spark.sql.Row> rows, StructType schema) {
        List<Row> out = new ArrayList<>(rows.size());
        for (org.apache.spark.sql.Row r : rows) {
            out.add(toSluice(r, schema));
        }
        return out;
    }

    static Row toSluice(org.apache.spark.sql.Row row, StructType schema) {
        Object[] values = new Object[schema.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = value(row.get(i), schema.field(i).dataType());
        }
        return Row.of(values);
    }

    private static Object value(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        if (type instanceof ArrayType a) {
            List<Object> out = new ArrayList<>();
            for (Object e : CollectionConverters.asJava((scala.collection.Seq<?>) v)) {
                out.add(value(e, a.elementType()));
            }
            return out;
        }
        if (type instanceof MapType m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            CollectionConverters.asJava((scala.collection.Map<?, ?>) v)
                    .forEach((k, x) -> out.put(value(k, m.keyType()), value(x, m.valueType())));
            return out;
        }
        if (type instanceof StructType s) {
            return toSluice((org.apache.spark.sql.Row) v, s);
        }
        return v;
    }
}
