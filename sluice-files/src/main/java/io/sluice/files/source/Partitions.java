package io.sluice.files.source;

import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;

/** Casting {@code key=value} folder values to their column's type, and guessing a type when inferring. */
final class Partitions {
    /** Hive's (and Spark's) folder name for a null partition value. */
    static final String NULL_VALUE = "__HIVE_DEFAULT_PARTITION__";

    private Partitions() {
    }

    /**
     * The value as the column's type: numbers, boolean, decimal, date ({@code yyyy-MM-dd}), timestamp
     * ({@code yyyy-MM-dd HH:mm:ss[.f]} in {@code zone}, the source's {@code timeZone}: by default the session time
     * zone, as the file sink writes them; or an ISO-8601 instant) and string.
     *
     * @throws IllegalStateException naming the column, the value, the type and the file when it does not cast
     */
    static Object cast(String raw, DataType type, String column, String file, ZoneId zone) {
        if (raw == null || raw.equals(NULL_VALUE)) {
            return null;
        }
        try {
            if (type instanceof AtomicType a) {
                switch (a) {
                    case STRING_TYPE:
                        return raw;
                    case INT_TYPE:
                        return Integer.parseInt(raw.trim());
                    case LONG_TYPE:
                        return Long.parseLong(raw.trim());
                    case SHORT_TYPE:
                        return Short.parseShort(raw.trim());
                    case BYTE_TYPE:
                        return Byte.parseByte(raw.trim());
                    case DOUBLE_TYPE:
                        return Double.parseDouble(raw.trim());
                    case FLOAT_TYPE:
                        return Float.parseFloat(raw.trim());
                    case BOOLEAN_TYPE:
                        if (raw.trim().equalsIgnoreCase("true")) {
                            return Boolean.TRUE;
                        }
                        if (raw.trim().equalsIgnoreCase("false")) {
                            return Boolean.FALSE;
                        }
                        break;
                    case DATE_TYPE:
                        return LocalDate.parse(raw.trim());
                    case TIMESTAMP_TYPE:
                        return timestamp(raw.trim(), zone);
                    default:
                        break;
                }
            } else if (type instanceof DecimalType d) {
                BigDecimal v = new BigDecimal(raw.trim());
                if (v.scale() > d.scale()) {
                    v = v.setScale(d.scale(), java.math.RoundingMode.HALF_UP);
                }
                if (v.precision() - v.scale() > d.precision() - d.scale()) {
                    throw new NumberFormatException("out of range");
                }
                return v.setScale(d.scale());
            }
        } catch (RuntimeException e) {
            // fall through to the error below
        }
        throw new IllegalStateException("Partition value '" + raw + "' of column '" + column + "' in " + file
                + " cannot be cast to " + type.simpleString());
    }

    private static Instant timestamp(String s, ZoneId zone) {
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return LocalDateTime.parse(s.replace(' ', 'T')).atZone(zone).toInstant();
        }
    }

    /** The narrowest of int, bigint, double, date and string that every (non-null) value casts to. */
    static DataType infer(List<String> values) {
        DataType[] candidates = {DataType.intType(), DataType.longType(), DataType.doubleType(), DataType.dateType()};
        for (DataType t : candidates) {
            boolean all = true;
            for (String v : values) {
                if (v == null || v.equals(NULL_VALUE)) {
                    continue;
                }
                try {
                    cast(v, t, "", "", ZoneOffset.UTC); // no timestamp candidate: the zone does not matter
                } catch (IllegalStateException e) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return t;
            }
        }
        return DataType.stringType();
    }
}
