package io.sluice.files.sink;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.values.DateTimeWriter;
import io.sluice.values.RowToJson;

import java.io.IOException;
import java.io.OutputStream;

/**
 * JSON lines for the file sink: each row through {@link RowToJson} (sluice-values, the rules {@code to_json} uses
 * too), the partition columns left out, each line ending with {@code lineSep}.
 */
final class JsonEncoders implements RowEncoder.Factory {
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private final RowToJson rows;
    private final String lineSep;

    JsonEncoders(StructType schema, int[] dataColumns, FileSinkOptions options) {
        this.lineSep = options.lineSep;
        this.rows = RowToJson.ofColumns(schema, dataColumns,
                new DateTimeWriter(options.timestampFormat, options.dateFormat, options.zone), options.ignoreNullFields);
    }

    @Override
    public RowEncoder open(OutputStream out) throws IOException {
        JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8);
        g.setRootValueSeparator(null);
        return new Encoder(g);
    }

    private final class Encoder implements RowEncoder {
        private final JsonGenerator g;
        private final char[] scratch = new char[64];

        Encoder(JsonGenerator g) {
            this.g = g;
        }

        @Override
        public void write(Row row) throws IOException {
            rows.write(g, row, scratch);
            g.writeRaw(lineSep);
        }

        @Override
        public void finish() throws IOException {
            g.flush();
        }
    }
}
