package io.sluice.python;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes one batch of rows in protocol 1's encoding (written by {@code sluice_rows.py}, whose docstring is the
 * format's definition): the row count, then each column with its null flags and dense values.
 */
final class RowDecoder {
    private final StructType schema;

    RowDecoder(StructType schema) {
        this.schema = schema;
    }

    Row[] decode(byte[] batch) {
        ByteBuffer in = ByteBuffer.wrap(batch);
        int n = in.getInt();
        int width = schema.size();
        Object[][] values = new Object[n][width];
        if (n > 0) {
            for (int c = 0; c < width; c++) {
                column(in, schema.field(c).dataType(), values, c, n);
            }
        }
        Row[] rows = new Row[n];
        for (int i = 0; i < n; i++) {
            rows[i] = Row.wrap(values[i]);
        }
        return rows;
    }

    private static void column(ByteBuffer in, DataType t, Object[][] values, int c, int n) {
        boolean[] isNull = null;
        int present = n;
        if (in.get() == 1) {
            isNull = new boolean[n];
            for (int i = 0; i < n; i++) {
                isNull[i] = in.get() == 1;
                if (isNull[i]) {
                    present--;
                }
            }
        }
        Object[] dense = new Object[present];
        if (t == AtomicType.STRING_TYPE || t == AtomicType.BINARY_TYPE || t instanceof DecimalType) {
            int[] lengths = new int[present];
            for (int i = 0; i < present; i++) {
                lengths[i] = in.getInt();
            }
            for (int i = 0; i < present; i++) {
                dense[i] = bytesValue(in, t, lengths[i]);
            }
        } else if (t instanceof AtomicType a) {
            for (int i = 0; i < present; i++) {
                dense[i] = fixed(in, a);
            }
        } else {
            for (int i = 0; i < present; i++) {
                dense[i] = nested(in, t);
            }
        }
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (isNull == null || !isNull[i]) {
                values[i][c] = dense[k++];
            }
        }
    }

    private static Object bytesValue(ByteBuffer in, DataType t, int len) {
        byte[] b = new byte[len];
        in.get(b);
        if (t == AtomicType.BINARY_TYPE) {
            return b;
        }
        String s = new String(b, StandardCharsets.UTF_8);
        return t instanceof DecimalType d ? new BigDecimal(s).setScale(d.scale()) : s;
    }

    private static Object fixed(ByteBuffer in, AtomicType a) {
        return switch (a) {
            case BOOLEAN_TYPE -> in.get() != 0;
            case BYTE_TYPE -> in.get();
            case SHORT_TYPE -> in.getShort();
            case INT_TYPE -> in.getInt();
            case LONG_TYPE -> in.getLong();
            case FLOAT_TYPE -> in.getFloat();
            case DOUBLE_TYPE -> in.getDouble();
            case DATE_TYPE -> LocalDate.ofEpochDay(in.getInt());
            case TIMESTAMP_TYPE -> {
                long micros = in.getLong();
                yield Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                        Math.floorMod(micros, 1_000_000L) * 1000L);
            }
            default -> throw new IllegalStateException("not a fixed-width type: " + a);
        };
    }

    private static Object nested(ByteBuffer in, DataType t) {
        if (t == AtomicType.STRING_TYPE || t == AtomicType.BINARY_TYPE || t instanceof DecimalType) {
            return bytesValue(in, t, in.getInt());
        }
        if (t instanceof AtomicType a) {
            return fixed(in, a);
        }
        if (t instanceof ArrayType a) {
            int n = in.getInt();
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(flagged(in, a.elementType()));
            }
            return list;
        }
        if (t instanceof MapType m) {
            int n = in.getInt();
            Map<Object, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                Object k = nested(in, m.keyType());
                map.put(k, flagged(in, m.valueType()));
            }
            return map;
        }
        StructType s = (StructType) t;
        Object[] fields = new Object[s.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = flagged(in, s.field(i).dataType());
        }
        return Row.wrap(fields);
    }

    private static Object flagged(ByteBuffer in, DataType t) {
        return in.get() == 1 ? null : nested(in, t);
    }
}
