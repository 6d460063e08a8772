package io.sluice.python;

import io.sluice.api.Row;
import io.sluice.api.RowBuilder;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 *
 * <p>Why two passes: the batch is column by column, rows are built row by row. The first pass finds where each
 * column's values start (and decodes nested, binary, decimal and floating-point columns into objects); the second
 * builds each row in a {@link RowBuilder}, which stores strings of ASCII bytes, integers, dates and timestamps as
 * bytes and 64-bit words in storage shared by many rows: no String, box, LocalDate or Instant per value and no array
 * per row, where most of this decoder's time went. Not thread-safe: one decoder per reader.
 */
final class RowDecoder {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    /** How a column's values are read in the second pass. */
    private static final byte LONG_K = 0, INT_K = 1, SHORT_K = 2, BYTE_K = 3, BOOLEAN_K = 4, DATE_K = 5,
            TIMESTAMP_K = 6, STRING_K = 7, OBJECT_K = 8;

    private final StructType schema;
    private final byte[] kinds;
    private final RowBuilder builder;

    RowDecoder(StructType schema) {
        this.schema = schema;
        this.kinds = new byte[schema.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = kind(schema.field(c).dataType());
        }
        this.builder = new RowBuilder(schema);
    }

    private static byte kind(DataType t) {
        if (t == AtomicType.LONG_TYPE) {
            return LONG_K;
        } else if (t == AtomicType.INT_TYPE) {
            return INT_K;
        } else if (t == AtomicType.SHORT_TYPE) {
            return SHORT_K;
        } else if (t == AtomicType.BYTE_TYPE) {
            return BYTE_K;
        } else if (t == AtomicType.BOOLEAN_TYPE) {
            return BOOLEAN_K;
        } else if (t == AtomicType.DATE_TYPE) {
            return DATE_K;
        } else if (t == AtomicType.TIMESTAMP_TYPE) {
            return TIMESTAMP_K;
        } else if (t == AtomicType.STRING_TYPE) {
            return STRING_K;
        }
        return OBJECT_K;
    }

    private static int width(byte kind) {
        return switch (kind) {
            case LONG_K, TIMESTAMP_K -> 8;
            case INT_K, DATE_K -> 4;
            case SHORT_K -> 2;
            default -> 1;
        };
    }

    Row[] decode(byte[] batch) {
        ByteBuffer in = ByteBuffer.wrap(batch);
        int n = in.getInt();
        int width = schema.size();
        Row[] rows = new Row[n];
        if (n == 0) {
            return rows;
        }
        if (width == 0) {
            for (int i = 0; i < n; i++) {
                rows[i] = Row.wrap(new Object[0]);
            }
            return rows;
        }
        // pass 1: per column its null flags, where its next value is (pos; for strings also the next length,
        // lens) or its values as objects
        boolean[][] nulls = new boolean[width][];
        int[] pos = new int[width];
        int[] lens = new int[width];
        Object[][] dense = new Object[width][];
        for (int c = 0; c < width; c++) {
            int present = n;
            if (in.get() == 1) {
                boolean[] isNull = new boolean[n];
                for (int i = 0; i < n; i++) {
                    isNull[i] = in.get() == 1;
                    if (isNull[i]) {
                        present--;
                    }
                }
                nulls[c] = isNull;
            }
            DataType t = schema.field(c).dataType();
            byte k = kinds[c];
            if (k == STRING_K) {
                lens[c] = in.position();
                long total = 0;
                for (int i = 0; i < present; i++) {
                    total += in.getInt();
                }
                pos[c] = in.position();
                in.position(Math.toIntExact(pos[c] + total));
            } else if (k != OBJECT_K) {
                pos[c] = in.position();
                in.position(Math.toIntExact(pos[c] + (long) present * width(k)));
            } else {
                dense[c] = objects(in, t, present);
            }
        }
        // pass 2: the rows (a value not set, a null, is null)
        byte[] b = batch;
        int[] next = new int[width];
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < width; c++) {
                boolean[] isNull = nulls[c];
                if (isNull != null && isNull[i]) {
                    continue;
                }
                int p = pos[c];
                switch (kinds[c]) {
                    case LONG_K -> {
                        builder.setLong(c, (long) LONG.get(b, p));
                        pos[c] = p + 8;
                    }
                    case INT_K -> {
                        builder.setLong(c, (int) INT.get(b, p));
                        pos[c] = p + 4;
                    }
                    case SHORT_K -> {
                        builder.setLong(c, (short) SHORT.get(b, p));
                        pos[c] = p + 2;
                    }
                    case BYTE_K -> {
                        builder.setLong(c, b[p]);
                        pos[c] = p + 1;
                    }
                    case BOOLEAN_K -> {
                        builder.setBoolean(c, b[p] != 0);
                        pos[c] = p + 1;
                    }
                    case DATE_K -> {
                        builder.setDateEpochDay(c, (int) INT.get(b, p));
                        pos[c] = p + 4;
                    }
                    case TIMESTAMP_K -> {
                        builder.setTimestampMicros(c, (long) LONG.get(b, p));
                        pos[c] = p + 8;
                    }
                    case STRING_K -> {
                        int len = (int) INT.get(b, lens[c]);
                        lens[c] += 4;
                        if (ascii(b, p, len)) {
                            builder.setLatin1(c, b, p, len);
                        } else {
                            builder.set(c, new String(b, p, len, StandardCharsets.UTF_8));
                        }
                        pos[c] = p + len;
                    }
                    default -> builder.set(c, dense[c][next[c]++]);
                }
            }
            rows[i] = builder.build();
        }
        return rows;
    }

    private static boolean ascii(byte[] b, int off, int len) {
        for (int i = off, end = off + len; i < end; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** The {@code present} values of a column read as objects: binary, decimal, float, double and nested. */
    private static Object[] objects(ByteBuffer in, DataType t, int present) {
        Object[] dense = new Object[present];
        if (t == AtomicType.BINARY_TYPE || t instanceof DecimalType) {
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
        return dense;
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
