package io.sluice.parquet;

import io.sluice.api.Row;
import io.sluice.api.RowBuilder;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The top-level record converter that builds each row with a {@link RowBuilder}: strings, integers, booleans,
 * timestamps and dates go into the builder's 64-bit words and byte blocks instead of a String, box or Instant per
 * value and an {@code Object[]} per row (the allocation that dominated a read of 2 M rows). Dictionary-encoded
 * string and INT96 columns decode each dictionary entry once per column chunk, then copy per row. Any other
 * column (decimals, floats, binary, nested types) goes through {@link ParquetReading}'s converters and is set as
 * the object they make, so every value equals what those converters make: same types, same rules, same errors.
 * Used for a file whose requested top-level fields are none repeated (a repeated field outside a LIST is
 * collected into a list, which the Object[] path does).
 */
final class BuilderRowConverter extends GroupConverter {
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final int JULIAN_DAY_OF_EPOCH = 2_440_588;

    private final RowBuilder builder;
    private final Converter[] children;
    private final Consumer<Row> out;

    private BuilderRowConverter(ParquetReading.In file, GroupType g, StructType struct, Consumer<Row> out) throws IOException {
        this.builder = new RowBuilder(struct);
        this.out = out;
        this.children = new Converter[g.getFieldCount()];
        for (int i = 0; i < g.getFieldCount(); i++) {
            Type t = g.getType(i);
            int col = ParquetReading.targetIndex(struct, t.getName());
            DataType type = struct.field(col).dataType();
            Converter c = t.isPrimitive() ? primitive(t.asPrimitiveType(), type, col) : null;
            children[i] = c != null ? c : ParquetReading.converter(file, t, type, t.getName(), v -> builder.set(col, v));
        }
    }

    /** The converter for {@code g}'s records, or null when one of its fields is repeated. */
    static BuilderRowConverter of(ParquetReading.In file, GroupType g, StructType struct, Consumer<Row> out) throws IOException {
        for (Type t : g.getFields()) {
            if (t.isRepetition(Repetition.REPEATED)) {
                return null;
            }
        }
        return new BuilderRowConverter(file, g, struct, out);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return children[fieldIndex];
    }

    @Override
    public void start() {
        // Nothing: the builder's current row starts with nulls, and a field the record lacks stays null.
    }

    @Override
    public void end() {
        out.accept(builder.build());
    }

    /** The row of the values given to the converters since the last one ({@link FlatColumns} reads so). */
    Row build() {
        return builder.build();
    }

    /** The converters of the fields, in the requested schema's order, when every field is primitive; else null. */
    PrimitiveConverter[] primitives() {
        PrimitiveConverter[] p = new PrimitiveConverter[children.length];
        for (int i = 0; i < p.length; i++) {
            if (!children[i].isPrimitive()) {
                return null;
            }
            p[i] = children[i].asPrimitiveConverter();
        }
        return p;
    }

    /**
     * A converter straight into the builder for the pairs of Parquet and target types that
     * {@link ParquetReading}'s {@code primitive} accepts and whose value the builder stores as a word, or null.
     */
    private PrimitiveConverter primitive(PrimitiveType p, DataType target, int col) {
        LogicalTypeAnnotation l = p.getLogicalTypeAnnotation();
        PrimitiveTypeName name = p.getPrimitiveTypeName();
        if (l instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation || !(target instanceof AtomicType a)) {
            return null;
        }
        switch (name) {
            case BOOLEAN:
                return a != AtomicType.BOOLEAN_TYPE ? null : new PrimitiveConverter() {
                    @Override
                    public void addBoolean(boolean v) {
                        builder.setBoolean(col, v);
                    }
                };
            case INT32: {
                if (l instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    return a != AtomicType.DATE_TYPE ? null : new PrimitiveConverter() {
                        @Override
                        public void addInt(int v) {
                            builder.setDateEpochDay(col, v);
                        }
                    };
                }
                if (l != null && !(l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)) {
                    return null;
                }
                boolean unsigned = l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && !i.isSigned();
                return switch (a) {
                    // The same narrowing as the object path: the value cast to the column's type.
                    case BYTE_TYPE, SHORT_TYPE, INT_TYPE, LONG_TYPE -> new PrimitiveConverter() {
                        @Override
                        public void addInt(int v) {
                            long x = unsigned ? Integer.toUnsignedLong(v) : v;
                            builder.setLong(col, switch (a) {
                                case BYTE_TYPE -> (byte) x;
                                case SHORT_TYPE -> (short) x;
                                case INT_TYPE -> (int) x;
                                default -> x;
                            });
                        }
                    };
                    default -> null;
                };
            }
            case INT64:
                if (l instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts) {
                    if (a != AtomicType.TIMESTAMP_TYPE || ts.getUnit() == LogicalTypeAnnotation.TimeUnit.NANOS) {
                        return null;
                    }
                    boolean millis = ts.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS;
                    return new PrimitiveConverter() {
                        @Override
                        public void addLong(long v) {
                            builder.setTimestampMicros(col, millis ? Math.multiplyExact(v, 1000L) : v);
                        }
                    };
                }
                if (l != null && !(l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned())) {
                    return null;
                }
                return a != AtomicType.LONG_TYPE ? null : new PrimitiveConverter() {
                    @Override
                    public void addLong(long v) {
                        builder.setLong(col, v);
                    }
                };
            case INT96:
                return a != AtomicType.TIMESTAMP_TYPE ? null : new Int96Column(col);
            case BINARY: {
                boolean text = l == null || l instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        || l instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                        || l instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation
                        || l instanceof LogicalTypeAnnotation.BsonLogicalTypeAnnotation;
                return text && a == AtomicType.STRING_TYPE ? new StringColumn(col) : null;
            }
            default:
                return null;
        }
    }

    /** UTF-8 strings: ASCII ones copied into the builder's bytes, others as a String. */
    final class StringColumn extends PrimitiveConverter {
        private final int col;
        /** The dictionary's entries, one after the other, {@code offsets[id]} to {@code offsets[id + 1]}. */
        private byte[] dictBytes;
        private int[] offsets;
        /** The entries that are not ASCII, as Strings; null for the ASCII ones. */
        private String[] dictStrings;

        StringColumn(int col) {
            this.col = col;
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary dictionary) {
            int n = dictionary.getMaxId() + 1;
            int[] off = new int[n + 1];
            byte[] all = new byte[256];
            String[] strings = null;
            int pos = 0;
            for (int id = 0; id < n; id++) {
                Binary b = dictionary.decodeToBinary(id);
                ByteBuffer bb = b.toByteBuffer();
                int len = bb.remaining();
                if (pos + len > all.length) {
                    all = Arrays.copyOf(all, Math.max(all.length * 2, pos + len));
                }
                bb.get(bb.position(), all, pos, len);
                if (!ascii(all, pos, len)) {
                    strings = strings == null ? new String[n] : strings;
                    strings[id] = new String(all, pos, len, StandardCharsets.UTF_8);
                }
                pos += len;
                off[id + 1] = pos;
            }
            this.dictBytes = all;
            this.offsets = off;
            this.dictStrings = strings;
        }

        @Override
        public void addValueFromDictionary(int id) {
            if (dictStrings != null && dictStrings[id] != null) {
                builder.set(col, dictStrings[id]);
            } else {
                builder.setLatin1(col, dictBytes, offsets[id], offsets[id + 1] - offsets[id]);
            }
        }

        @Override
        public void addBinary(Binary v) {
            ByteBuffer bb = v.toByteBuffer();
            if (bb.hasArray()) {
                addBytes(bb.array(), bb.arrayOffset() + bb.position(), bb.remaining());
            } else {
                byte[] b = v.getBytes();
                addBytes(b, 0, b.length);
            }
        }

        /** The UTF-8 string of {@code len} bytes at {@code b[off]}. */
        void addBytes(byte[] b, int off, int len) {
            if (ascii(b, off, len)) {
                builder.setLatin1(col, b, off, len);
            } else {
                builder.set(col, new String(b, off, len, StandardCharsets.UTF_8));
            }
        }
    }

    private static boolean ascii(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * INT96 timestamps (little-endian nanos of day, then Julian day) as microseconds, cut as
     * {@link ParquetRowWriter#fromInt96} cuts them; one beyond a long of microseconds is set as that Instant.
     */
    final class Int96Column extends PrimitiveConverter {
        private final int col;
        private long[] dictMicros;
        /** The dictionary's entries beyond a long of microseconds (null when none is). */
        private Object[] dictInstants;

        Int96Column(int col) {
            this.col = col;
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary dictionary) {
            int n = dictionary.getMaxId() + 1;
            long[] micros = new long[n];
            Object[] instants = null;
            for (int id = 0; id < n; id++) {
                Binary b = dictionary.decodeToBinary(id);
                try {
                    micros[id] = micros(b);
                } catch (ArithmeticException e) {
                    instants = instants == null ? new Object[n] : instants;
                    instants[id] = ParquetRowWriter.fromInt96(b.getBytes());
                }
            }
            this.dictMicros = micros;
            this.dictInstants = instants;
        }

        @Override
        public void addValueFromDictionary(int id) {
            if (dictInstants != null && dictInstants[id] != null) {
                builder.set(col, dictInstants[id]);
            } else {
                builder.setTimestampMicros(col, dictMicros[id]);
            }
        }

        @Override
        public void addBinary(Binary v) {
            long m;
            try {
                m = micros(v);
            } catch (ArithmeticException e) {
                builder.set(col, ParquetRowWriter.fromInt96(v.getBytes()));
                return;
            }
            builder.setTimestampMicros(col, m);
        }

        /** The 12 bytes at {@code b[off]}. */
        void addInt96(byte[] b, int off) {
            long m;
            try {
                m = micros((long) FlatColumns.LONG_LE.get(b, off), (int) FlatColumns.INT_LE.get(b, off + 8));
            } catch (ArithmeticException e) {
                builder.set(col, ParquetRowWriter.fromInt96(Arrays.copyOfRange(b, off, off + 12)));
                return;
            }
            builder.setTimestampMicros(col, m);
        }
    }

    /** Microseconds since the epoch of a 12-byte INT96; ArithmeticException beyond a long. */
    static long micros(Binary v) {
        ByteBuffer bb = v.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        int p = bb.position();
        return micros(bb.getLong(p), bb.getInt(p + 8));
    }

    private static long micros(long nanos, int julianDay) {
        long days = julianDay - (long) JULIAN_DAY_OF_EPOCH;
        return Math.addExact(Math.multiplyExact(days, MICROS_PER_DAY), Math.floorDiv(nanos, 1000L));
    }
}
