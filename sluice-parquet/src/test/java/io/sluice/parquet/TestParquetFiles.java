package io.sluice.parquet;

import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes flat Parquet files of any physical type with parquet-java itself (no Sluice encoder in between), with an
 * exact number of rows per row group, for the reader's tests. Values by column: Integer (INT32), Long (INT64),
 * Boolean, Double, Float, String (BINARY as UTF-8), byte[] (BINARY, FIXED_LEN_BYTE_ARRAY, INT96); null for none.
 */
final class TestParquetFiles {
    private TestParquetFiles() {
    }

    static void write(Path file, String messageType, int rowsPerGroup, List<Object[]> rows) throws IOException {
        write(file, messageType, rowsPerGroup, rows, false);
    }

    /** As {@link #write(Path, String, int, List)}, with dictionary encoding on or off. */
    static void write(Path file, String messageType, int rowsPerGroup, List<Object[]> rows, boolean dictionary)
            throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType(messageType);
        try (ParquetWriter<Object[]> w = new Builder(file, schema)
                .withConf(new PlainParquetConfiguration())
                .withCodecFactory(ParquetCodecs.INSTANCE)
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                .withRowGroupRowCountLimit(rowsPerGroup)
                .withDictionaryEncoding(dictionary)
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .build()) {
            for (Object[] r : rows) {
                w.write(r);
            }
        }
    }

    private static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
        private final MessageType schema;

        Builder(Path file, MessageType schema) {
            super(new LocalOutputFile(file));
            this.schema = schema;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(ParquetConfiguration conf) {
            return new Support(schema);
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
            return new Support(schema);
        }
    }

    private static final class Support extends WriteSupport<Object[]> {
        private final MessageType schema;
        private RecordConsumer rc;

        Support(MessageType schema) {
            this.schema = schema;
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            rc = recordConsumer;
        }

        @Override
        public void write(Object[] row) {
            rc.startMessage();
            for (int i = 0; i < row.length; i++) {
                Object v = row[i];
                if (v == null) {
                    continue;
                }
                PrimitiveType t = schema.getType(i).asPrimitiveType();
                rc.startField(t.getName(), i);
                if (v instanceof Integer x) {
                    rc.addInteger(x);
                } else if (v instanceof Long x) {
                    rc.addLong(x);
                } else if (v instanceof Boolean x) {
                    rc.addBoolean(x);
                } else if (v instanceof Double x) {
                    rc.addDouble(x);
                } else if (v instanceof Float x) {
                    rc.addFloat(x);
                } else if (v instanceof String x) {
                    rc.addBinary(Binary.fromString(x));
                } else {
                    rc.addBinary(Binary.fromConstantByteArray((byte[]) v));
                }
                rc.endField(t.getName(), i);
            }
            rc.endMessage();
        }
    }
}
