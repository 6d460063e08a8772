package io.sluice.core;

import io.sluice.api.Row;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes stateful operators keep in a state store: a tuple of values, each a tag byte then its payload
 * (big-endian): 0 null, 1 false, 2 true, 3 int, 4 long, 5 double, 6 string (UTF-8, length first), 7 timestamp
 * (epoch micros), 8 date (epoch day, int), 9 decimal (scale, unscaled bytes), 10 binary, 11 struct (a nested
 * tuple), 12 float, 13 short, 14 byte, 15 array, 16 map. Deterministic: equal values give equal bytes, so the
 * bytes are a key's identity and its partition ({@link #partition}) is the same in every JVM.
 */
final class StateCodec {
    private StateCodec() {
    }

    static byte[] encode(Object[] values) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeInt(values.length);
            for (Object v : values) {
                write(out, v);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Object[] decode(byte[] bytes) {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
        try {
            int n = in.readInt();
            Object[] out = new Object[n];
            for (int i = 0; i < n; i++) {
                out[i] = read(in);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("A state value cannot be decoded", e);
        }
    }

    /** The state partition of an encoded key: stable across runs, as the key's files must be found again. */
    static int partition(byte[] key, int partitions) {
        return Math.floorMod(java.util.Arrays.hashCode(key) * 0x9E3779B9, partitions);
    }

    private static void write(DataOutputStream out, Object v) throws IOException {
        if (v == null) {
            out.writeByte(0);
        } else if (v instanceof Boolean b) {
            out.writeByte(b ? 2 : 1);
        } else if (v instanceof Integer i) {
            out.writeByte(3);
            out.writeInt(i);
        } else if (v instanceof Long l) {
            out.writeByte(4);
            out.writeLong(l);
        } else if (v instanceof Double d) {
            out.writeByte(5);
            out.writeDouble(d == 0.0 ? 0.0 : d); // -0.0 and 0.0 group together, as in Spark
        } else if (v instanceof String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.writeByte(6);
            out.writeInt(b.length);
            out.write(b);
        } else if (v instanceof Instant t) {
            out.writeByte(7);
            out.writeLong(Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000));
        } else if (v instanceof LocalDate d) {
            out.writeByte(8);
            out.writeInt((int) d.toEpochDay());
        } else if (v instanceof BigDecimal d) {
            byte[] b = d.unscaledValue().toByteArray();
            out.writeByte(9);
            out.writeInt(d.scale());
            out.writeInt(b.length);
            out.write(b);
        } else if (v instanceof byte[] b) {
            out.writeByte(10);
            out.writeInt(b.length);
            out.write(b);
        } else if (v instanceof Row r) {
            out.writeByte(11);
            out.writeInt(r.size());
            for (int i = 0; i < r.size(); i++) {
                write(out, r.get(i));
            }
        } else if (v instanceof Float f) {
            out.writeByte(12);
            out.writeFloat(f == 0.0f ? 0.0f : f);
        } else if (v instanceof Short s) {
            out.writeByte(13);
            out.writeShort(s);
        } else if (v instanceof Byte b) {
            out.writeByte(14);
            out.writeByte(b);
        } else if (v instanceof List<?> list) {
            out.writeByte(15);
            out.writeInt(list.size());
            for (Object e : list) {
                write(out, e);
            }
        } else if (v instanceof Map<?, ?> map) {
            out.writeByte(16);
            out.writeInt(map.size());
            for (Map.Entry<?, ?> e : map.entrySet()) {
                write(out, e.getKey());
                write(out, e.getValue());
            }
        } else {
            throw new IllegalArgumentException("A value of " + v.getClass().getName() + " cannot be kept in state");
        }
    }

    private static Object read(DataInputStream in) throws IOException {
        int tag = in.readByte();
        switch (tag) {
            case 0: return null;
            case 1: return Boolean.FALSE;
            case 2: return Boolean.TRUE;
            case 3: return in.readInt();
            case 4: return in.readLong();
            case 5: return in.readDouble();
            case 6: {
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                return new String(b, StandardCharsets.UTF_8);
            }
            case 7: {
                long micros = in.readLong();
                return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
            }
            case 8: return LocalDate.ofEpochDay(in.readInt());
            case 9: {
                int scale = in.readInt();
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                return new BigDecimal(new BigInteger(b), scale);
            }
            case 10: {
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                return b;
            }
            case 11: {
                Object[] vals = new Object[in.readInt()];
                for (int i = 0; i < vals.length; i++) {
                    vals[i] = read(in);
                }
                return Row.wrap(vals);
            }
            case 12: return in.readFloat();
            case 13: return in.readShort();
            case 14: return in.readByte();
            case 15: {
                int n = in.readInt();
                List<Object> list = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    list.add(read(in));
                }
                return list;
            }
            case 16: {
                int n = in.readInt();
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    map.put(read(in), read(in));
                }
                return map;
            }
            default:
                throw new IOException("unknown value tag " + tag);
        }
    }
}
