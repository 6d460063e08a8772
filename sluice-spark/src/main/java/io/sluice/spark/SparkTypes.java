package io.sluice.spark;

import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;

import java.util.ArrayList;
import java.util.List;

/**
 * Sluice types to Spark types and back. Every Sluice type has a Spark twin of the same name; Spark types Sluice
 * lacks (timestamp_ntz, intervals, variant, ...) are refused in a user schema.
 */
public final class SparkTypes {
    private SparkTypes() {
    }

    /** The Spark schema of a Sluice schema: same names, types, nullability and containsNull flags. */
    public static org.apache.spark.sql.types.StructType toSpark(StructType schema) {
        return (org.apache.spark.sql.types.StructType) toSpark((DataType) schema);
    }

    /** The Spark type of a Sluice type. */
    public static org.apache.spark.sql.types.DataType toSpark(DataType type) {
        if (type instanceof AtomicType a) {
            return switch (a) {
                case BOOLEAN_TYPE -> DataTypes.BooleanType;
                case BYTE_TYPE -> DataTypes.ByteType;
                case SHORT_TYPE -> DataTypes.ShortType;
                case INT_TYPE -> DataTypes.IntegerType;
                case LONG_TYPE -> DataTypes.LongType;
                case FLOAT_TYPE -> DataTypes.FloatType;
                case DOUBLE_TYPE -> DataTypes.DoubleType;
                case STRING_TYPE -> DataTypes.StringType;
                case BINARY_TYPE -> DataTypes.BinaryType;
                case DATE_TYPE -> DataTypes.DateType;
                case TIMESTAMP_TYPE -> DataTypes.TimestampType;
            };
        }
        if (type instanceof DecimalType d) {
            return DataTypes.createDecimalType(d.precision(), d.scale());
        }
        if (type instanceof ArrayType a) {
            return DataTypes.createArrayType(toSpark(a.elementType()), a.containsNull());
        }
        if (type instanceof MapType m) {
            return DataTypes.createMapType(toSpark(m.keyType()), toSpark(m.valueType()), m.valueContainsNull());
        }
        StructType s = (StructType) type;
        List<org.apache.spark.sql.types.StructField> fields = new ArrayList<>(s.size());
        for (StructField f : s.fields()) {
            fields.add(DataTypes.createStructField(f.name(), toSpark(f.dataType()), f.nullable(), Metadata.empty()));
        }
        return DataTypes.createStructType(fields);
    }

    /**
     * The Sluice schema of a Spark schema.
     *
     * @throws IllegalArgumentException naming the column and its type when Sluice has no such type
     */
    public static StructType toSluice(org.apache.spark.sql.types.StructType schema) {
        List<StructField> fields = new ArrayList<>(schema.fields().length);
        for (org.apache.spark.sql.types.StructField f : schema.fields()) {
            fields.add(new StructField(f.name(), toSluice(f.dataType(), f.name()), f.nullable()));
        }
        return new StructType(fields);
    }

    private static DataType toSluice(org.apache.spark.sql.types.DataType t, String column) {
        if (t instanceof org.apache.spark.sql.types.BooleanType) {
            return AtomicType.BOOLEAN_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.ByteType) {
            return AtomicType.BYTE_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.ShortType) {
            return AtomicType.SHORT_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.IntegerType) {
            return AtomicType.INT_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.LongType) {
            return AtomicType.LONG_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.FloatType) {
            return AtomicType.FLOAT_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.DoubleType) {
            return AtomicType.DOUBLE_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.StringType) {
            return AtomicType.STRING_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.BinaryType) {
            return AtomicType.BINARY_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.DateType) {
            return AtomicType.DATE_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.TimestampType) {
            return AtomicType.TIMESTAMP_TYPE;
        } else if (t instanceof org.apache.spark.sql.types.DecimalType d) {
            return new DecimalType(d.precision(), d.scale());
        } else if (t instanceof org.apache.spark.sql.types.ArrayType a) {
            return new ArrayType(toSluice(a.elementType(), column), a.containsNull());
        } else if (t instanceof org.apache.spark.sql.types.MapType m) {
            return new MapType(toSluice(m.keyType(), column), toSluice(m.valueType(), column),
                    m.valueContainsNull());
        } else if (t instanceof org.apache.spark.sql.types.StructType s) {
            return toSluice(s);
        }
        throw new IllegalArgumentException("Column '" + column + "' has type " + t.simpleString()
                + ", which Sluice sources cannot produce. Accepted: boolean, tinyint, smallint, int, bigint, float, "
                + "double, decimal(p,s), string, binary, date, timestamp, and arrays, maps and structs of them");
    }
}
