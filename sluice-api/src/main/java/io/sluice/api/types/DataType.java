package io.sluice.api.types;

/**
 * A column type, named as Spark names it. Instances are immutable values: two types are equal when their
 * {@link #simpleString()} forms are equal and their nullability flags are too (struct field nullability, array
 * {@code containsNull} and map {@code valueContainsNull}, which {@code simpleString} does not show).
 * DDL cannot express {@code containsNull} or {@code valueContainsNull}; {@link #fromDDL(String)} always sets
 * them to true, as Spark does.
 *
 * <p>Java representation of values of each type, as held in a {@link io.sluice.api.Row}:
 * boolean {@code Boolean}, byte {@code Byte}, short {@code Short}, int {@code Integer}, long {@code Long},
 * float {@code Float}, double {@code Double}, decimal {@code java.math.BigDecimal}, string {@code String},
 * binary {@code byte[]}, date {@code java.time.LocalDate}, timestamp {@code java.time.Instant},
 * array {@code java.util.List}, map {@code java.util.Map}, struct {@code io.sluice.api.Row}. A SQL NULL is
 * Java {@code null}.
 */
public sealed interface DataType permits AtomicType, DecimalType, ArrayType, MapType, StructType {

    /**
     * The deepest nesting of {@code array<}, {@code map<} and {@code struct<} that {@link #fromDDL(String)} and
     * {@link StructType#fromDDL(String)} read: 100. Spark sets no limit (its parser fails with a stack overflow
     * somewhere in the thousands); each level costs several stack frames in the parser and in everything that
     * walks a type, so 100 keeps them all far from the 1 MB default thread stack, while real schemas nest a few
     * levels. Deeper DDL is refused with a {@link SchemaParseException}.
     */
    int MAX_NESTING_DEPTH = 100;

    /** The type as Spark's {@code simpleString} writes it, e.g. {@code bigint}, {@code array<string>}. */
    String simpleString();

    /**
     * The type in DDL form, as accepted by {@link #fromDDL(String)}, e.g. {@code BIGINT},
     * {@code STRUCT<a: INT, `my col`: STRING>}.
     */
    String sql();

    /**
     * The type as Spark's {@code DataType.toString} prints it, for messages that quote Spark's: {@code LongType},
     * {@code DecimalType(10,2)}, {@code ArrayType(StringType,true)}, {@code MapType(IntegerType,StringType,true)},
     * {@code StructType(StructField(a,IntegerType,true),StructField(b,StringType,false))}.
     */
    default String sparkString() {
        if (this instanceof AtomicType a) {
            return switch (a) {
                case BOOLEAN_TYPE -> "BooleanType";
                case BYTE_TYPE -> "ByteType";
                case SHORT_TYPE -> "ShortType";
                case INT_TYPE -> "IntegerType";
                case LONG_TYPE -> "LongType";
                case FLOAT_TYPE -> "FloatType";
                case DOUBLE_TYPE -> "DoubleType";
                case STRING_TYPE -> "StringType";
                case BINARY_TYPE -> "BinaryType";
                case DATE_TYPE -> "DateType";
                case TIMESTAMP_TYPE -> "TimestampType";
            };
        }
        if (this instanceof DecimalType d) {
            return "DecimalType(" + d.precision() + "," + d.scale() + ")";
        }
        if (this instanceof ArrayType a) {
            return "ArrayType(" + a.elementType().sparkString() + "," + a.containsNull() + ")";
        }
        if (this instanceof MapType m) {
            return "MapType(" + m.keyType().sparkString() + "," + m.valueType().sparkString() + ","
                    + m.valueContainsNull() + ")";
        }
        StructType st = (StructType) this;
        StringBuilder sb = new StringBuilder("StructType(");
        for (int i = 0; i < st.size(); i++) {
            StructField f = st.field(i);
            sb.append(i == 0 ? "" : ",").append("StructField(").append(f.name()).append(',')
                    .append(f.dataType().sparkString()).append(',').append(f.nullable()).append(')');
        }
        return sb.append(')').toString();
    }

    /**
     * Parses one type in Spark's DDL syntax ({@code long}, {@code decimal(10,2)}, {@code map<string,int>},
     * {@code struct<a: int, b: string>}). Keywords are case-insensitive. As in Spark, input that is not a type
     * but reads as a schema ({@code "a int, b string"}) gives that schema's {@link StructType}.
     *
     * @throws SchemaParseException naming the position and the offending token
     */
    static DataType fromDDL(String ddl) {
        return DdlParser.parseType(ddl);
    }


    /** Shorthands for the atomic types. */
    static AtomicType booleanType() { return AtomicType.BOOLEAN_TYPE; }
    static AtomicType byteType() { return AtomicType.BYTE_TYPE; }
    static AtomicType shortType() { return AtomicType.SHORT_TYPE; }
    static AtomicType intType() { return AtomicType.INT_TYPE; }
    static AtomicType longType() { return AtomicType.LONG_TYPE; }
    static AtomicType floatType() { return AtomicType.FLOAT_TYPE; }
    static AtomicType doubleType() { return AtomicType.DOUBLE_TYPE; }
    static AtomicType stringType() { return AtomicType.STRING_TYPE; }
    static AtomicType binaryType() { return AtomicType.BINARY_TYPE; }
    static AtomicType dateType() { return AtomicType.DATE_TYPE; }
    static AtomicType timestampType() { return AtomicType.TIMESTAMP_TYPE; }
}
