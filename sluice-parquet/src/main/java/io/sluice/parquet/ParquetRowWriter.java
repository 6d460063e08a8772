package io.sluice.parquet;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FormatEncoder;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * The Parquet encoder of the file sink: one {@link ParquetFileEncoder} per data file over the sink's stream, with
 * Spark's schema mapping ({@link ParquetSchemas}), Spark's footer keys
 * ({@code org.apache.spark.sql.parquet.row.metadata}: the schema as JSON; {@code org.apache.spark.version}),
 * the codec, row group and page sizes and dictionary encoding of the options; statistics on (parquet-java's
 * default); the open files' row groups within the query's memory budget ({@link ParquetMemory}). Shared by the
 * sink's writer threads; each encoder is used by one.
 */
final class ParquetRowWriter implements FormatEncoder.Factory {
    /** The Spark version written in the footer: Spark reads such files without any calendar rebase. */
    static final String SPARK_VERSION = "4.2.0";
    static final String ROW_METADATA = "org.apache.spark.sql.parquet.row.metadata";
    static final String SPARK_VERSION_KEY = "org.apache.spark.version";
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final int JULIAN_DAY_OF_EPOCH = 2_440_588;

    private final StructType schema;
    private final int[] columns;
    private final MessageType parquetSchema;
    private final Map<String, String> footer;
    private final ParquetSinkSettings settings;
    /** The budget of this query's open files. */
    private final ParquetMemory memory;
    /** Spark's writer version (V1 pages); tests write V2 pages too, as other writers do. */
    private final ParquetProperties.WriterVersion version;

    ParquetRowWriter(StructType schema, int[] columns, ParquetSinkSettings settings) {
        this(schema, columns, settings, ParquetProperties.WriterVersion.PARQUET_1_0);
    }

    ParquetRowWriter(StructType schema, int[] columns, ParquetSinkSettings settings,
                     ParquetProperties.WriterVersion version) {
        this.version = version;
        this.schema = schema;
        this.columns = columns.clone();
        this.settings = settings;
        this.memory = ParquetMemory.of(settings);
        this.parquetSchema = ParquetSchemas.toParquet(schema, columns, settings.timestamps());
        this.footer = Map.of(ROW_METADATA, ParquetSchemas.sparkJson(schema, columns), SPARK_VERSION_KEY,
                SPARK_VERSION);
    }

    @Override
    public FormatEncoder open(OutputStream out) throws IOException {
        return new ParquetFileEncoder(new StreamFile(out), new RowWriteSupport(), footer, settings, memory, version);
    }

    /** Not while the open files' row groups would get less than the minimum each ({@link ParquetMemory}). */
    @Override
    public boolean mayOpenAnother() {
        return memory.mayOpenAnother();
    }

    /** The sink's stream as a Parquet output file: positions counted here, close only flushes. */
    private static final class StreamFile implements OutputFile {
        private final OutputStream out;

        StreamFile(OutputStream out) {
            this.out = out;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                private long pos;

                @Override
                public long getPos() {
                    return pos;
                }

                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    pos++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    pos += len;
                }

                @Override
                public void flush() throws IOException {
                    out.flush();
                }

                @Override
                public void close() throws IOException {
                    out.flush();
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }
    }

    private final class RowWriteSupport extends WriteSupport<Row> {
        private RecordConsumer rc;
        /**
         * The last timestamp written and its INT96 bytes: rows of a batch often share one Instant (rate sources,
         * a batch's processing time), and a Binary handed to parquet-java is never changed, so it can be reused.
         */
        private Instant lastInstant;
        private Binary lastInt96;

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(parquetSchema, Map.of());
        }

        @Override
        public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
            return new WriteContext(parquetSchema, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.rc = recordConsumer;
        }

        @Override
        public void write(Row row) {
            rc.startMessage();
            for (int i = 0; i < columns.length; i++) {
                StructField f = schema.field(columns[i]);
                if (f.dataType() == AtomicType.LONG_TYPE) {
                    // getLong reads a RowBuilder row's word without making a Long.
                    if (!row.isNullAt(columns[i])) {
                        rc.startField(f.name(), i);
                        rc.addLong(row.getLong(columns[i]));
                        rc.endField(f.name(), i);
                    }
                    continue;
                }
                Object v = row.get(columns[i]);
                if (v != null) {
                    field(f.name(), i, f.dataType(), v);
                }
            }
            rc.endMessage();
        }

        private void field(String name, int index, DataType t, Object v) {
            rc.startField(name, index);
            value(t, v);
            rc.endField(name, index);
        }

        private void value(DataType t, Object v) {
            if (t instanceof StructType s) {
                Row r = (Row) v;
                rc.startGroup();
                for (int i = 0; i < s.size(); i++) {
                    Object x = r.get(i);
                    if (x != null) {
                        field(s.field(i).name(), i, s.field(i).dataType(), x);
                    }
                }
                rc.endGroup();
            } else if (t instanceof ArrayType a) {
                List<?> list = (List<?>) v;
                rc.startGroup();
                if (!list.isEmpty()) {
                    rc.startField("list", 0);
                    for (Object e : list) {
                        rc.startGroup();
                        if (e != null) {
                            field("element", 0, a.elementType(), e);
                        }
                        rc.endGroup();
                    }
                    rc.endField("list", 0);
                }
                rc.endGroup();
            } else if (t instanceof MapType m) {
                Map<?, ?> map = (Map<?, ?>) v;
                rc.startGroup();
                if (!map.isEmpty()) {
                    rc.startField("key_value", 0);
                    for (Map.Entry<?, ?> e : map.entrySet()) {
                        rc.startGroup();
                        field("key", 0, m.keyType(), e.getKey());
                        if (e.getValue() != null) {
                            field("value", 1, m.valueType(), e.getValue());
                        }
                        rc.endGroup();
                    }
                    rc.endField("key_value", 0);
                }
                rc.endGroup();
            } else if (t instanceof DecimalType d) {
                decimal(d, (BigDecimal) v);
            } else {
                atomic((AtomicType) t, v);
            }
        }

        private void decimal(DecimalType d, BigDecimal v) {
            java.math.BigInteger unscaled = v.setScale(d.scale(), RoundingMode.HALF_UP).unscaledValue();
            if (d.precision() <= 9) {
                rc.addInteger(unscaled.intValueExact());
            } else if (d.precision() <= 18) {
                rc.addLong(unscaled.longValueExact());
            } else {
                byte[] b = unscaled.toByteArray();
                byte[] fixed = new byte[ParquetSchemas.decimalBytes(d.precision())];
                byte sign = (byte) (unscaled.signum() < 0 ? -1 : 0);
                int pad = fixed.length - b.length;
                java.util.Arrays.fill(fixed, 0, pad, sign);
                System.arraycopy(b, 0, fixed, pad, b.length);
                rc.addBinary(Binary.fromConstantByteArray(fixed));
            }
        }

        private void atomic(AtomicType t, Object v) {
            switch (t) {
                case BOOLEAN_TYPE -> rc.addBoolean((Boolean) v);
                case BYTE_TYPE, SHORT_TYPE, INT_TYPE -> rc.addInteger(((Number) v).intValue());
                case LONG_TYPE -> rc.addLong((Long) v);
                case FLOAT_TYPE -> rc.addFloat((Float) v);
                case DOUBLE_TYPE -> rc.addDouble((Double) v);
                case STRING_TYPE -> rc.addBinary(Binary.fromConstantByteArray(
                        v.toString().getBytes(StandardCharsets.UTF_8)));
                case BINARY_TYPE -> rc.addBinary(Binary.fromConstantByteArray((byte[]) v));
                case DATE_TYPE -> rc.addInteger(Math.toIntExact(((LocalDate) v).toEpochDay()));
                case TIMESTAMP_TYPE -> timestamp((Instant) v);
            }
        }

        private void timestamp(Instant i) {
            long micros = Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
            switch (settings.timestamps()) {
                case TIMESTAMP_MICROS -> rc.addLong(micros);
                case TIMESTAMP_MILLIS -> rc.addLong(Math.floorDiv(micros, 1000));
                case INT96 -> {
                    if (!i.equals(lastInstant)) {
                        long days = Math.floorDiv(micros, MICROS_PER_DAY);
                        long nanosOfDay = Math.floorMod(micros, MICROS_PER_DAY) * 1000;
                        ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
                        b.putLong(nanosOfDay).putInt(Math.toIntExact(days + JULIAN_DAY_OF_EPOCH));
                        lastInt96 = Binary.fromConstantByteArray(b.array());
                        lastInstant = i;
                    }
                    rc.addBinary(lastInt96);
                }
            }
        }
    }

    /**
     * INT96 (little-endian nanos of day, then Julian day) to an instant, cut to microseconds as Spark's
     * {@code fromJulianDay} reads it (Impala and Hive write nanoseconds).
     */
    static Instant fromInt96(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long nanos = buf.getLong();
        long nanosOfDay = nanos - Math.floorMod(nanos, 1000L);
        long days = buf.getInt() - (long) JULIAN_DAY_OF_EPOCH;
        return Instant.ofEpochSecond(Math.multiplyExact(days, 86_400L), nanosOfDay);
    }
}
