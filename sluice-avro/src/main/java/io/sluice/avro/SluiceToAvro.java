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
import org.apache.avro.util.Utf8;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts Sluice's values of one Sluice type into Avro's generic values of one Avro schema (records, lists, maps,
 * {@code Utf8}, {@code ByteBuffer}, fixed, enum symbols, boxes), for {@link org.apache.avro.generic.GenericDatumWriter},
 * as Spark's {@code AvroSerializer} converts Catalyst values. Compiled once per schema pair; a compiled tree keeps no
 * state, so it is thread-safe.
 */
final class SluiceToAvro {
    interface Conv {
        Object convert(Object sluice);
    }

    private final boolean positional;

    private SluiceToAvro(boolean positional) {
        this.positional = positional;
    }

    /**
     * The conversion of {@code sluiceType}'s values to {@code avroType}'s, which returns null for null.
     *
     * @throws IncompatibleSchemaException with Spark's messages, wrapped in Spark's top-level message
     */
    static Conv compile(DataType sluiceType, boolean nullable, Schema avroType, boolean positional) {
        SluiceToAvro c = new SluiceToAvro(positional);
        Schema actual = resolveNullable(avroType);
        Conv conv;
        try {
            conv = sluiceType instanceof StructType st && actual.getType() == Schema.Type.RECORD
                    ? c.struct(st, actual, List.of(), List.of())
                    : c.converter(sluiceType, actual, List.of(), List.of());
        } catch (IncompatibleSchemaException e) {
            throw new IncompatibleSchemaException("Cannot convert SQL type " + sluiceType.sql() + " to Avro type "
                    + avroType + ".", e);
        }
        return v -> v == null ? null : conv.convert(v);
    }

    /** Spark's {@code resolveAvroType}: a union of one non-null branch (and null) is that branch. */
    static Schema resolveNullable(Schema avro) {
        if (avro.getType() != Schema.Type.UNION) {
            return avro;
        }
        List<Schema> nonNull = AvroSchemas.nonNullBranches(avro);
        if (nonNull.isEmpty()) {
            return Schema.create(Schema.Type.NULL);
        }
        return nonNull.size() == 1 ? nonNull.get(0) : avro;
    }

    private static List<String> plus(List<String> path, String name) {
        List<String> p = new ArrayList<>(path);
        p.add(name);
        return List.copyOf(p);
    }

    private Conv converter(DataType sql, Schema avro, List<String> sqlPath, List<String> avroPath) {
        String prefix = "Cannot convert SQL " + AvroToSluice.fieldStr(sqlPath) + " to Avro "
                + AvroToSluice.fieldStr(avroPath) + " because ";
        Schema.Type t = avro.getType();
        LogicalType lt = avro.getLogicalType();
        if (sql instanceof AtomicType a) {
            switch (a) {
                case BOOLEAN_TYPE:
                    if (t == Schema.Type.BOOLEAN) {
                        return v -> v;
                    }
                    break;
                case BYTE_TYPE:
                case SHORT_TYPE:
                case INT_TYPE:
                    if (t == Schema.Type.INT) {
                        return v -> ((Number) v).intValue();
                    }
                    break;
                case LONG_TYPE:
                    if (t == Schema.Type.LONG) {
                        return v -> ((Number) v).longValue();
                    }
                    break;
                case FLOAT_TYPE:
                    if (t == Schema.Type.FLOAT) {
                        return v -> ((Number) v).floatValue();
                    }
                    break;
                case DOUBLE_TYPE:
                    if (t == Schema.Type.DOUBLE) {
                        return v -> ((Number) v).doubleValue();
                    }
                    break;
                case STRING_TYPE:
                    if (t == Schema.Type.ENUM) {
                        List<String> symbols = avro.getEnumSymbols();
                        Set<String> set = new HashSet<>(symbols);
                        return v -> {
                            String s = (String) v;
                            if (!set.contains(s)) {
                                throw new IncompatibleSchemaException(prefix + "\"" + s + "\" cannot be written since "
                                        + "it's not defined in enum \"" + String.join("\", \"", symbols) + "\"");
                            }
                            return new GenericData.EnumSymbol(avro, s);
                        };
                    }
                    if (t == Schema.Type.STRING) {
                        return v -> new Utf8(((String) v).getBytes(StandardCharsets.UTF_8));
                    }
                    break;
                case BINARY_TYPE:
                    if (t == Schema.Type.FIXED) {
                        int size = avro.getFixedSize();
                        return v -> {
                            byte[] b = (byte[]) v;
                            if (b.length != size) {
                                throw new IncompatibleSchemaException(prefix + len(b.length) + " of binary data "
                                        + "cannot be written into FIXED type with size of " + len(size));
                            }
                            return new GenericData.Fixed(avro, b);
                        };
                    }
                    if (t == Schema.Type.BYTES) {
                        return v -> ByteBuffer.wrap((byte[]) v);
                    }
                    break;
                case DATE_TYPE:
                    if (t == Schema.Type.INT) {
                        return v -> Math.toIntExact(((LocalDate) v).toEpochDay());
                    }
                    break;
                case TIMESTAMP_TYPE:
                    if (t == Schema.Type.LONG) {
                        // A long without a logical type is written as milliseconds, as Spark does.
                        if (lt == null || lt instanceof LogicalTypes.TimestampMillis
                                || lt instanceof LogicalTypes.LocalTimestampMillis) {
                            return v -> Math.floorDiv(micros((Instant) v), 1000L);
                        }
                        if (lt instanceof LogicalTypes.TimestampMicros || lt instanceof LogicalTypes.LocalTimestampMicros) {
                            return v -> micros((Instant) v);
                        }
                        throw new IncompatibleSchemaException(prefix + "SQL type TIMESTAMP cannot be converted to "
                                + "Avro logical type " + lt);
                    }
                    break;
                default:
                    break;
            }
        }
        if (sql instanceof DecimalType d && (t == Schema.Type.FIXED || t == Schema.Type.BYTES)
                && LogicalTypes.decimal(d.precision(), d.scale()).equals(lt)) {
            int scale = d.scale();
            if (t == Schema.Type.FIXED) {
                int size = avro.getFixedSize();
                return v -> new GenericData.Fixed(avro, fixedBytes(unscaled(v, scale), size));
            }
            return v -> ByteBuffer.wrap(unscaled(v, scale));
        } else if (sql instanceof ArrayType at && t == Schema.Type.ARRAY) {
            Conv element = converter(at.elementType(), resolveNullable(avro.getElementType()),
                    plus(sqlPath, "element"), plus(avroPath, "element"));
            return v -> {
                List<?> in = (List<?>) v;
                Object[] out = new Object[in.size()];
                for (int i = 0; i < out.length; i++) {
                    Object e = in.get(i);
                    out[i] = e == null ? null : element.convert(e);
                }
                return Arrays.asList(out);
            };
        } else if (sql instanceof StructType st && t == Schema.Type.RECORD) {
            return struct(st, avro, sqlPath, avroPath);
        } else if (sql instanceof StructType st && t == Schema.Type.UNION) {
            return complexUnion(st, avro, sqlPath, avroPath);
        } else if (sql == AtomicType.DOUBLE_TYPE && t == Schema.Type.UNION
                && nonNullTypes(avro).equals(Set.of(Schema.Type.FLOAT, Schema.Type.DOUBLE))) {
            return v -> ((Number) v).doubleValue();
        } else if (sql == AtomicType.LONG_TYPE && t == Schema.Type.UNION
                && nonNullTypes(avro).equals(Set.of(Schema.Type.INT, Schema.Type.LONG))) {
            return v -> ((Number) v).longValue();
        } else if (sql instanceof MapType mt && mt.keyType() == AtomicType.STRING_TYPE && t == Schema.Type.MAP) {
            Conv value = converter(mt.valueType(), resolveNullable(avro.getValueType()), plus(sqlPath, "value"),
                    plus(avroPath, "value"));
            return v -> {
                Map<?, ?> in = (Map<?, ?>) v;
                Map<String, Object> out = new HashMap<>(in.size() * 4 / 3 + 1);
                for (Map.Entry<?, ?> e : in.entrySet()) {
                    Object x = e.getValue();
                    out.put((String) e.getKey(), x == null ? null : value.convert(x));
                }
                return out;
            };
        }
        throw new IncompatibleSchemaException(prefix + "schema is incompatible (sqlType = " + sql.sql()
                + ", avroType = " + avro + ")");
    }

    private static Set<Schema.Type> nonNullTypes(Schema union) {
        Set<Schema.Type> out = new HashSet<>();
        for (Schema s : AvroSchemas.nonNullBranches(union)) {
            out.add(s.getType());
        }
        return out;
    }

    /** Spark's {@code newStructConverter}: every struct field must match an Avro field and every required Avro field a struct field. */
    private Conv struct(StructType st, Schema avro, List<String> sqlPath, List<String> avroPath) {
        if (avro.getType() != Schema.Type.RECORD) {
            throw new IncompatibleSchemaException("Attempting to treat " + avro.getName() + " as a RECORD, but it was: "
                    + avro.getType());
        }
        List<Schema.Field> fields = avro.getFields();
        int width = st.size();
        int[] positions = new int[width];
        Conv[] convs = new Conv[width];
        boolean[] nullable = new boolean[width];
        String[] nullMessages = new String[width];
        Set<Schema.Field> matched = new HashSet<>();
        for (int i = 0; i < width; i++) {
            StructField f = st.field(i);
            Schema.Field af = avroField(avro, f.name(), i, avroPath);
            if (af == null) {
                throw new IncompatibleSchemaException(positional
                        ? "Cannot find field at position " + i + " of " + AvroToSluice.fieldStr(avroPath)
                        + " from Avro schema (using positional matching)"
                        : "Cannot find " + AvroToSluice.fieldStr(plus(sqlPath, f.name())) + " in Avro schema");
            }
            matched.add(af);
        }
        for (Schema.Field af : fields) {
            if (!matched.contains(af) && !isNullable(af)) {
                throw new IncompatibleSchemaException(positional
                        ? "Found field '" + af.name() + "' at position " + af.pos() + " of "
                        + AvroToSluice.fieldStr(avroPath) + " from Avro schema but there is no match in the SQL schema "
                        + "at " + AvroToSluice.fieldStr(sqlPath) + " (using positional matching)"
                        : "Found " + AvroToSluice.fieldStr(plus(avroPath, af.name())) + " in Avro schema but there is "
                        + "no match in the SQL schema");
            }
        }
        for (int i = 0; i < width; i++) {
            StructField f = st.field(i);
            Schema.Field af = avroField(avro, f.name(), i, avroPath);
            positions[i] = af.pos();
            convs[i] = converter(f.dataType(), resolveNullable(af.schema()), plus(sqlPath, f.name()),
                    plus(avroPath, af.name()));
            nullable[i] = af.schema().isNullable();
            nullMessages[i] = "[AVRO_CANNOT_WRITE_NULL_FIELD] Cannot write null value for field `" + af.name()
                    + "` defined as non-null Avro data type " + af.schema() + ".\nTo allow null value for this field, "
                    + "specify its avro schema as a union type with \"null\" using `avroSchema` option. SQLSTATE: 22004";
        }
        return v -> {
            Row row = (Row) v;
            GenericData.Record out = new GenericData.Record(avro);
            for (int i = 0; i < width; i++) {
                Object x = row.get(i);
                if (x == null) {
                    if (!nullable[i]) {
                        throw new IllegalArgumentException(nullMessages[i]);
                    }
                } else {
                    out.put(positions[i], convs[i].convert(x));
                }
            }
            return out;
        };
    }

    /** Spark's {@code newComplexUnionConverter}: {@code struct<member0, ...>} to the union's first non-null member. */
    private Conv complexUnion(StructType st, Schema union, List<String> sqlPath, List<String> avroPath) {
        List<Schema> nonNull = AvroSchemas.nonNullBranches(union);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < nonNull.size(); i++) {
            expected.add("member" + i);
        }
        List<String> actual = st.fieldNames();
        if (positional) {
            if (expected.size() != actual.size()) {
                throw new IncompatibleSchemaException("Generic Avro union at " + AvroToSluice.fieldStr(avroPath)
                        + " does not match the SQL schema at " + AvroToSluice.fieldStr(sqlPath) + ".  It expected the "
                        + expected.size() + " members but got " + actual.size());
            }
        } else if (!expected.equals(actual)) {
            throw new IncompatibleSchemaException("Generic Avro union at " + AvroToSluice.fieldStr(avroPath)
                    + " does not match the SQL schema at " + AvroToSluice.fieldStr(sqlPath) + ".  It expected the "
                    + "following members (" + String.join(", ", expected) + ") but got (" + String.join(", ", actual)
                    + ")");
        }
        Conv[] branches = new Conv[st.size()];
        for (int i = 0; i < branches.length; i++) {
            StructField f = st.field(i);
            branches[i] = converter(f.dataType(), nonNull.get(i), plus(sqlPath, f.name()), plus(avroPath, f.name()));
        }
        return v -> {
            Row row = (Row) v;
            for (int i = 0; i < branches.length; i++) {
                Object x = row.get(i);
                if (x != null) {
                    return branches[i].convert(x);
                }
            }
            return null;
        };
    }

    private static boolean isNullable(Schema.Field f) {
        return f.schema().getType() == Schema.Type.UNION
                && f.schema().getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL);
    }

    private Schema.Field avroField(Schema record, String name, int position, List<String> avroPath) {
        List<Schema.Field> fields = record.getFields();
        if (positional) {
            return position < fields.size() ? fields.get(position) : null;
        }
        Schema.Field found = null;
        int count = 0;
        List<String> names = new ArrayList<>();
        for (Schema.Field f : fields) {
            if (f.name().equalsIgnoreCase(name)) {
                found = f;
                count++;
                names.add(f.name());
            }
        }
        if (count > 1) {
            throw new IncompatibleSchemaException("Searching for '" + name + "' in Avro schema at "
                    + AvroToSluice.fieldStr(avroPath) + " gave " + count + " matches. Candidates: ["
                    + String.join(", ", names) + "]");
        }
        return found;
    }

    private static String len(int n) {
        return n + (n > 1 ? " bytes" : " byte");
    }

    static long micros(Instant i) {
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
    }

    /** The two's complement bytes of the value's unscaled digits at {@code scale} (Spark's decimals hold it). */
    private static byte[] unscaled(Object v, int scale) {
        return ((BigDecimal) v).setScale(scale, RoundingMode.HALF_UP).unscaledValue().toByteArray();
    }

    /** Avro's {@code DecimalConversion.toFixed}: sign-extended to the fixed size. */
    private static byte[] fixedBytes(byte[] unscaled, int size) {
        if (unscaled.length > size) {
            throw new IllegalArgumentException("Cannot encode decimal with precision " + unscaled.length
                    + " bytes in a fixed of " + size + " bytes");
        }
        byte[] out = new byte[size];
        byte fill = unscaled.length > 0 && unscaled[0] < 0 ? (byte) 0xFF : 0;
        int offset = size - unscaled.length;
        Arrays.fill(out, 0, offset, fill);
        System.arraycopy(unscaled, 0, out, offset, unscaled.length);
        return out;
    }
}
