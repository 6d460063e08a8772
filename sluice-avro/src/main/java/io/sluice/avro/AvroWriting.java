package io.sluice.avro;

import io.sluice.api.Row;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FormatEncoder;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The avro sink's encoders: one Avro object container file per data file, as spark-avro's {@code AvroOutputWriter}
 * writes it (the output schema, the codec, the {@code org.apache.spark.version} metadata key, Avro's default sync
 * interval). The data columns' values are converted as Spark's {@code AvroSerializer} converts them; the conversion
 * is compiled once per query (a mismatch with {@code avroSchema} fails then, with Spark's message).
 */
final class AvroWriting implements FormatEncoder.Factory {
    /** Spark's {@code SPARK_VERSION_METADATA_KEY}, with the version Sluice writes as (Spark 4.2). */
    static final String SPARK_VERSION_KEY = "org.apache.spark.version";
    static final String SPARK_VERSION = "4.2.0";

    private final int[] columns;
    private final Schema schema;
    private final SluiceToAvro.Conv conv;
    private final AvroOptionDefs.Write options;

    AvroWriting(StructType sinkSchema, int[] dataColumns, AvroOptionDefs.Write options) {
        this.columns = dataColumns.clone();
        this.options = options;
        List<StructField> fields = new ArrayList<>(columns.length);
        for (int c : columns) {
            fields.add(sinkSchema.field(c));
        }
        StructType data = new StructType(fields);
        this.schema = options.avroSchema() != null ? options.avroSchema()
                : AvroSchemas.toAvroType(data, false, options.recordName(), options.recordNamespace());
        this.conv = SluiceToAvro.compile(data, false, schema, options.positional());
    }

    /** The schema of the files. */
    Schema schema() {
        return schema;
    }

    @Override
    public FormatEncoder open(OutputStream out) throws IOException {
        DataFileWriter<Object> w = new DataFileWriter<>(new GenericDatumWriter<>(schema));
        w.setCodec(options.codec());
        w.setMeta(SPARK_VERSION_KEY, SPARK_VERSION);
        // The sink owns the stream: closing the writer (which releases the codec) only flushes it.
        w.create(schema, new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        });
        Object[] values = new Object[columns.length];
        return new FormatEncoder() {
            @Override
            public void write(Row row) throws IOException {
                for (int i = 0; i < columns.length; i++) {
                    values[i] = row.get(columns[i]);
                }
                w.append(conv.convert(Row.wrap(values)));
            }

            @Override
            public void finish() throws IOException {
                w.close();
            }
        };
    }
}
