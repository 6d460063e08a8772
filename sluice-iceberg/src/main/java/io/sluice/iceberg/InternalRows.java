package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.api.RowBuilder;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import org.apache.iceberg.StructLike;

/**
 * Rows of the table's schema from the records of iceberg-parquet's InternalReader, whose values are Iceberg's
 * internal forms: a bigint, int or boolean is copied into a {@link RowBuilder}'s words, a timestamp as its epoch
 * microseconds and a date as its epoch day (no Instant or LocalDate is made per row, nor an OffsetDateTime as the
 * generic reader makes), a string as the reader's String; every other value as {@link IcebergSchemas#toRow} converts
 * it. The record may be reused by the reader once {@link #toRow} returns: nothing of it is kept. One per reader:
 * not thread-safe.
 */
final class InternalRows {
    private static final byte LONG = 0;
    private static final byte INT = 1;
    private static final byte BOOLEAN = 2;
    private static final byte TIMESTAMP = 3;
    private static final byte DATE = 4;
    private static final byte STRING = 5;
    private static final byte OTHER = 6;

    private final StructType rowType;
    private final byte[] kinds;
    private final RowBuilder builder;

    InternalRows(StructType rowType) {
        this.rowType = rowType;
        this.kinds = new byte[rowType.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = kind(rowType.field(i).dataType());
        }
        this.builder = new RowBuilder(rowType);
    }

    private static byte kind(DataType type) {
        if (!(type instanceof AtomicType a)) {
            return OTHER;
        }
        return switch (a) {
            case LONG_TYPE -> LONG;
            case INT_TYPE -> INT;
            case BOOLEAN_TYPE -> BOOLEAN;
            case TIMESTAMP_TYPE -> TIMESTAMP;
            case DATE_TYPE -> DATE;
            case STRING_TYPE -> STRING;
            default -> OTHER;
        };
    }

    Row toRow(StructLike record) {
        for (int i = 0; i < kinds.length; i++) {
            Object v = record.get(i, Object.class);
            if (v == null) {
                builder.setNull(i);
                continue;
            }
            switch (kinds[i]) {
                case LONG -> builder.setLong(i, (Long) v);
                case INT -> builder.setLong(i, (Integer) v);
                case BOOLEAN -> builder.setBoolean(i, (Boolean) v);
                // A value in another form (an INT96 file's, say) takes the general conversion.
                case TIMESTAMP -> {
                    if (v instanceof Long micros) {
                        builder.setTimestampMicros(i, micros);
                    } else {
                        builder.set(i, IcebergSchemas.toSluiceValue(v, rowType.field(i).dataType()));
                    }
                }
                case DATE -> {
                    if (v instanceof Integer day) {
                        builder.setDateEpochDay(i, day);
                    } else {
                        builder.set(i, IcebergSchemas.toSluiceValue(v, rowType.field(i).dataType()));
                    }
                }
                case STRING -> builder.set(i, v.toString());
                default -> builder.set(i, IcebergSchemas.toSluiceValue(v, rowType.field(i).dataType()));
            }
        }
        return builder.build();
    }
}
