package io.sluice.avro;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts Avro's generic values (as {@link org.apache.avro.generic.GenericDatumReader} makes them: records,
 * collections, maps with {@code Utf8} keys, {@code Utf8}, {@code ByteBuffer}, {@code GenericFixed}, boxes) of one
 * Avro schema into Sluice's values of one Sluice type, as Spark's {@code AvroDeserializer} converts them to Catalyst
 * values. The conversion is compiled once per schema pair into a tree of {@link Conv}s, so a value costs no type
 * dispatch on the schema. A compiled tree keeps no state: it is thread-safe. Values it returns own their storage
 * (strings and bytes are copied out of Avro's reused buffers), so the Avro datum may be reused after.
 */
final class AvroToSluice {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    /** One compiled conversion of a non-null Avro value. */
    interface Conv {
        Object convert(Object avro);
    }

    private final boolean positional;

    private AvroToSluice(boolean positional) {
        this.positional = positional;
    }

    /**
     * The conversion of {@code avroType}'s values to {@code sluiceType}'s, which returns null for null.
     *
     * @throws IncompatibleSchemaException with Spark's messages, wrapped in Spark's top-level message
     */
    static Conv compile(Schema avroType, DataType sluiceType, boolean positional) {
        AvroToSluice c = new AvroToSluice(positional);
        try {
            if (sluiceType instanceof StructType st) {
                Schema record = avroType;
                if (record.getType() == Schema.Type.UNION) {
                    List<Schema> nonNull = AvroSchemas.nonNullBranches(record);
                    record = nonNull.size() == 1 ? nonNull.get(0) : record;
                }
                Conv rec = c.record(record, st, List.of(), List.of());
                return v -> v == null ? null : rec.convert(v);
            }
            Conv conv = c.writer(avroType, sluiceType, List.of(), List.of());
            return v -> v == null ? null : conv.convert(v);
        } catch (IncompatibleSchemaException e) {
            throw new IncompatibleSchemaException("Cannot convert Avro type " + avroType + " to SQL type "
                    + sluiceType.sql() + ".", e);
        }
    }

    /** Spark's {@code AvroUtils.toFieldStr}. */
    static String fieldStr(List<String> path) {
        return path.isEmpty() ? "top-level record" : "field '" + String.join(".", path) + "'";
    }

    private static List<String> plus(List<String> path, String name) {
        List<String> p = new ArrayList<>(path.size() + 1);
        p.addAll(path);
        p.add(name);
        return List.copyOf(p);
    }

    private Conv writer(Schema avro, DataType sql, List<String> avroPath, List<String> sqlPath) {
        String prefix = "Cannot convert Avro " + fieldStr(avroPath) + " to SQL " + fieldStr(sqlPath) + " because ";
        LogicalType lt = avro.getLogicalType();
        Schema.Type t = avro.getType();
        if (t == Schema.Type.UNION) {
            return union(avro, sql, avroPath, sqlPath, prefix);
        }
        if (sql instanceof AtomicType a) {
            switch (a) {
                case BOOLEAN_TYPE:
                    if (t == Schema.Type.BOOLEAN) {
                        return v -> v;
                    }
                    break;
                case INT_TYPE:
                    if (t == Schema.Type.INT) {
                        return v -> v;
                    }
                    break;
                case LONG_TYPE:
                    if (t == Schema.Type.INT) {
                        return v -> (long) (Integer) v;
                    }
                    if (t == Schema.Type.LONG) {
                        return v -> v;
                    }
                    break;
                case DOUBLE_TYPE:
                    if (t == Schema.Type.INT) {
                        return v -> (double) (Integer) v;
                    }
                    if (t == Schema.Type.FLOAT) {
                        return v -> (double) (Float) v;
                    }
                    if (t == Schema.Type.DOUBLE) {
                        return v -> v;
                    }
                    break;
                case FLOAT_TYPE:
                    if (t == Schema.Type.FLOAT) {
                        return v -> v;
                    }
                    break;
                case DATE_TYPE:
                    if (t == Schema.Type.INT) {
                        return v -> LocalDate.ofEpochDay((Integer) v);
                    }
                    if (t == Schema.Type.LONG) {
                        // spark-avro before Avro 1.8 wrote dates as longs of milliseconds; Spark still reads them.
                        return v -> LocalDate.ofEpochDay((int) ((Long) v / MILLIS_PER_DAY));
                    }
                    break;
                case TIMESTAMP_TYPE:
                    if (t == Schema.Type.LONG) {
                        // A long without a logical type is milliseconds, as Spark reads it. Sluice has no
                        // timestamp_ntz: local-timestamp-* are read as UTC date-times (Spark: timestamp_ntz).
                        if (lt == null || lt instanceof LogicalTypes.TimestampMillis
                                || lt instanceof LogicalTypes.LocalTimestampMillis) {
                            return v -> Instant.ofEpochMilli((Long) v);
                        }
                        if (lt instanceof LogicalTypes.TimestampMicros || lt instanceof LogicalTypes.LocalTimestampMicros) {
                            return v -> micros((Long) v);
                        }
                        throw new IncompatibleSchemaException(prefix + "Avro logical type " + lt
                                + " cannot be converted to SQL type TIMESTAMP.");
                    }
                    break;
                case STRING_TYPE:
                    if (t == Schema.Type.STRING || t == Schema.Type.ENUM) {
                        return Object::toString;
                    }
                    break;
                case BINARY_TYPE:
                    if (t == Schema.Type.FIXED) {
                        return v -> ((GenericFixed) v).bytes().clone();
                    }
                    if (t == Schema.Type.BYTES) {
                        return AvroToSluice::bytes;
                    }
                    break;
                default:
                    break;
            }
        }
        if (sql instanceof DecimalType d && (t == Schema.Type.FIXED || t == Schema.Type.BYTES)
                && lt instanceof LogicalTypes.Decimal ad) {
            if (ad.getPrecision() - ad.getScale() > d.precision() - d.scale()) {
                throw new IncompatibleSchemaException("[AVRO_INCOMPATIBLE_READ_TYPE] Cannot convert Avro "
                        + fieldStr(avroPath) + " to SQL " + fieldStr(sqlPath) + " because the original encoded data "
                        + "type is decimal(" + ad.getPrecision() + "," + ad.getScale() + "), however you're trying to "
                        + "read the field as decimal(" + d.precision() + "," + d.scale() + "), which would lead to an "
                        + "incorrect answer.\nTo allow reading this field, enable the SQL configuration: "
                        + "\"spark.sql.legacy.avro.allowIncompatibleSchema\". SQLSTATE: 22KD3");
            }
            int scale = ad.getScale();
            int target = d.scale();
            if (t == Schema.Type.FIXED) {
                return v -> new BigDecimal(new BigInteger(((GenericFixed) v).bytes()), scale)
                        .setScale(target, RoundingMode.HALF_UP);
            }
            return v -> new BigDecimal(new BigInteger(bytes(v)), scale).setScale(target, RoundingMode.HALF_UP);
        } else if (sql instanceof StructType st && t == Schema.Type.RECORD) {
            return record(avro, st, avroPath, sqlPath);
        } else if (sql instanceof ArrayType at && t == Schema.Type.ARRAY) {
            List<String> elementPath = plus(avroPath, "element");
            Conv element = writer(avro.getElementType(), at.elementType(), elementPath, plus(sqlPath, "element"));
            boolean containsNull = at.containsNull();
            String nullMessage = "Array value at path " + fieldStr(elementPath) + " is not allowed to be null";
            return v -> {
                Collection<?> c = (Collection<?>) v;
                List<Object> out = new ArrayList<>(c.size());
                for (Object e : c) {
                    if (e == null) {
                        if (!containsNull) {
                            throw new IllegalStateException(nullMessage);
                        }
                        out.add(null);
                    } else {
                        out.add(element.convert(e));
                    }
                }
                return out;
            };
        } else if (sql instanceof MapType mt && t == Schema.Type.MAP && mt.keyType() == AtomicType.STRING_TYPE) {
            List<String> valuePath = plus(avroPath, "value");
            Conv value = writer(avro.getValueType(), mt.valueType(), valuePath, plus(sqlPath, "value"));
            boolean containsNull = mt.valueContainsNull();
            String nullMessage = "Map value at path " + fieldStr(valuePath) + " is not allowed to be null";
            return v -> {
                Map<?, ?> m = (Map<?, ?>) v;
                // Avro's iteration order, as Spark's: the map is Avro's HashMap of Utf8 keys.
                Map<String, Object> out = new LinkedHashMap<>(m.size() * 4 / 3 + 1);
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    Object x = e.getValue();
                    if (x == null && !containsNull) {
                        throw new IllegalStateException(nullMessage);
                    }
                    out.put(e.getKey().toString(), x == null ? null : value.convert(x));
                }
                return out;
            };
        }
        throw new IncompatibleSchemaException(prefix + "schema is incompatible (avroType = " + avro + ", sqlType = "
                + sql.sql() + ")");
    }

    private Conv union(Schema avro, DataType sql, List<String> avroPath, List<String> sqlPath, String prefix) {
        List<Schema> nonNull = AvroSchemas.nonNullBranches(avro);
        if (nonNull.isEmpty()) {
            return v -> null;
        }
        if (nonNull.size() == 1) {
            return writer(nonNull.get(0), sql, avroPath, sqlPath);
        }
        if (nonNull.size() == 2) {
            Set<Schema.Type> types = Set.of(nonNull.get(0).getType(), nonNull.get(1).getType());
            if (types.equals(Set.of(Schema.Type.INT, Schema.Type.LONG)) && sql == AtomicType.LONG_TYPE) {
                return v -> ((Number) v).longValue();
            }
            if (types.equals(Set.of(Schema.Type.FLOAT, Schema.Type.DOUBLE)) && sql == AtomicType.DOUBLE_TYPE) {
                return v -> ((Number) v).doubleValue();
            }
        }
        if (sql instanceof StructType st && st.size() == nonNull.size()) {
            Schema nonNullUnion = Schema.createUnion(nonNull);
            Conv[] members = new Conv[nonNull.size()];
            for (int i = 0; i < members.length; i++) {
                StructField f = st.field(i);
                members[i] = writer(nonNull.get(i), f.dataType(), avroPath, plus(sqlPath, f.name()));
            }
            int width = members.length;
            return v -> {
                int i = GenericData.get().resolveUnion(nonNullUnion, v);
                Object[] values = new Object[width];
                values[i] = members[i].convert(v);
                return Row.wrap(values);
            };
        }
        throw new IncompatibleSchemaException(prefix + "schema is incompatible (avroType = " + avro + ", sqlType = "
                + sql.sql() + ")");
    }

    /** Spark's {@code getRecordWriter} with {@code AvroSchemaHelper}: fields matched by name (or position). */
    private Conv record(Schema avro, StructType st, List<String> avroPath, List<String> sqlPath) {
        if (avro.getType() != Schema.Type.RECORD) {
            throw new IncompatibleSchemaException("Attempting to treat " + avro.getName() + " as a RECORD, but it was: "
                    + avro.getType());
        }
        int width = st.size();
        int[] positions = new int[width];
        Conv[] convs = new Conv[width];
        for (int i = 0; i < width; i++) {
            StructField f = st.field(i);
            Schema.Field af = avroField(avro, f.name(), i, avroPath);
            if (af == null) {
                if (!f.nullable()) {
                    throw new IncompatibleSchemaException(positional
                            ? "Cannot find field at position " + i + " of " + fieldStr(avroPath)
                            + " from Avro schema (using positional matching)"
                            : "Cannot find " + fieldStr(plus(sqlPath, f.name())) + " in Avro schema");
                }
                positions[i] = -1;
                continue;
            }
            positions[i] = af.pos();
            convs[i] = writer(af.schema(), f.dataType(), plus(avroPath, af.name()), plus(sqlPath, f.name()));
        }
        return v -> {
            IndexedRecord r = (IndexedRecord) v;
            Object[] values = new Object[width];
            for (int i = 0; i < width; i++) {
                int p = positions[i];
                if (p >= 0) {
                    Object x = r.get(p);
                    values[i] = x == null ? null : convs[i].convert(x);
                }
            }
            return Row.wrap(values);
        };
    }

    /** Spark's {@code AvroSchemaHelper.getAvroField}; Spark's default resolver is case-insensitive. */
    private Schema.Field avroField(Schema record, String name, int position, List<String> avroPath) {
        List<Schema.Field> fields = record.getFields();
        if (positional) {
            return position < fields.size() ? fields.get(position) : null;
        }
        List<Schema.Field> matches = new ArrayList<>(1);
        for (Schema.Field f : fields) {
            if (f.name().equalsIgnoreCase(name)) {
                matches.add(f);
            }
        }
        if (matches.size() > 1) {
            List<String> names = matches.stream().map(Schema.Field::name).toList();
            throw new IncompatibleSchemaException("Searching for '" + name + "' in Avro schema at "
                    + fieldStr(avroPath) + " gave " + matches.size() + " matches. Candidates: ["
                    + String.join(", ", names) + "]");
        }
        return matches.isEmpty() ? null : matches.get(0);
    }

    private static Instant micros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    private static byte[] bytes(Object v) {
        if (v instanceof ByteBuffer b) {
            byte[] out = new byte[b.remaining()];
            b.duplicate().get(out);
            return out;
        }
        return ((byte[]) v).clone();
    }
}
