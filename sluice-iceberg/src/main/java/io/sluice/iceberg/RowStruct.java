package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Sluice row seen as a StructLike of a table's struct, in Iceberg's internal forms, for iceberg-parquet's
 * InternalWriter and for {@link org.apache.iceberg.PartitionKey}: a timestamp as epoch microseconds (long), a date
 * as its epoch day (int), binary as a ByteBuffer, byte and short as int, a nested struct as another view (other
 * values, decimals among them, as the row holds them). The
 * table's fields are matched to the row's columns by name; a table field the stream lacks is null. Values are
 * converted as the writer asks for them: no record is built per row. {@link #wrap} points the view at the next row,
 * so one view serves a whole partition writer.
 */
final class RowStruct implements StructLike {
    private final Plan plan;
    private Row row;

    private RowStruct(Plan plan) {
        this.plan = plan;
    }

    /** A view of rows of {@code rowType} as records of {@code struct}. */
    static RowStruct of(StructType rowType, Types.StructType struct) {
        return new RowStruct(Plan.of(rowType, struct));
    }

    RowStruct wrap(Row r) {
        this.row = r;
        return this;
    }

    @Override
    public int size() {
        return plan.columns.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
        int col = plan.columns[pos];
        if (col < 0) {
            return null;
        }
        Object v = row.get(col);
        return javaClass.cast(v == null ? null : plan.converters[pos].convert(v));
    }

    @Override
    public <T> void set(int pos, T value) {
        throw new UnsupportedOperationException("A view of a Sluice row is read-only");
    }

    /** How a value of one Sluice type becomes Iceberg's internal form of the table's type. */
    @FunctionalInterface
    private interface Converter {
        Object convert(Object v);
    }

    /** For each of the struct's fields, the row's column (or -1) and its value's converter; made once per schema. */
    private record Plan(int[] columns, Converter[] converters) {
        static Plan of(StructType rowType, Types.StructType struct) {
            List<Types.NestedField> fields = struct.fields();
            int[] columns = new int[fields.size()];
            Converter[] converters = new Converter[fields.size()];
            for (int i = 0; i < columns.length; i++) {
                Types.NestedField f = fields.get(i);
                columns[i] = -1;
                for (int c = 0; c < rowType.size(); c++) {
                    if (rowType.field(c).name().equals(f.name())) {
                        StructField source = rowType.field(c);
                        columns[i] = c;
                        converters[i] = converter(source.dataType(), f.type());
                        break;
                    }
                }
            }
            return new Plan(columns, converters);
        }
    }

    private static Converter converter(DataType type, Type target) {
        if (type instanceof StructType s) {
            Plan nested = Plan.of(s, target.asStructType());
            return v -> new RowStruct(nested).wrap((Row) v);
        }
        if (type instanceof ArrayType a) {
            Converter element = converter(a.elementType(), target.asListType().elementType());
            return v -> {
                List<?> in = (List<?>) v;
                List<Object> out = new ArrayList<>(in.size());
                for (Object e : in) {
                    out.add(e == null ? null : element.convert(e));
                }
                return out;
            };
        }
        if (type instanceof MapType m) {
            Converter key = converter(m.keyType(), target.asMapType().keyType());
            Converter value = converter(m.valueType(), target.asMapType().valueType());
            return v -> {
                Map<Object, Object> out = new LinkedHashMap<>();
                ((Map<?, ?>) v).forEach((k, e) -> out.put(key.convert(k), e == null ? null : value.convert(e)));
                return out;
            };
        }
        if (type == AtomicType.TIMESTAMP_TYPE) {
            return v -> IcebergSchemas.microsOf((Instant) v);
        }
        if (type == AtomicType.DATE_TYPE) {
            return v -> Math.toIntExact(((LocalDate) v).toEpochDay());
        }
        if (type == AtomicType.BINARY_TYPE) {
            return v -> ByteBuffer.wrap((byte[]) v);
        }
        if (type == AtomicType.BYTE_TYPE || type == AtomicType.SHORT_TYPE) {
            return v -> ((Number) v).intValue();
        }
        return v -> v;
    }
}
