package io.sluice.files.sink;

import io.sluice.api.Row;

import java.io.IOException;
import java.io.OutputStream;

/** Text as Spark writes it: the single string column's value, then {@code lineSep}; a null as an empty line. */
final class TextEncoders implements RowEncoder.Factory {
    private static final int BUFFER = 64 * 1024;
    private final int column;
    private final String lineSep;

    TextEncoders(int column, FileSinkOptions options) {
        this.column = column;
        this.lineSep = options.lineSep;
    }

    @Override
    public RowEncoder open(OutputStream out) {
        Utf8Writer w = new Utf8Writer(out, BUFFER);
        return new RowEncoder() {
            @Override
            public void write(Row row) throws IOException {
                Object v = row.get(column);
                if (v != null) {
                    w.write(v.toString());
                }
                w.write(lineSep);
            }

            @Override
            public void finish() throws IOException {
                w.flush();
            }
        };
    }
}
