package io.sluice.files.format;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.RowBuilder;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The text format (Spark's TextFileFormat): one {@code value string} row per line, the line without its
 * terminator, empty lines included; with {@code wholetext}, one row per file holding all of it (also for an
 * empty file). Bytes are read as UTF-8.
 */
final class TextFormat implements FileFormatReader {

    @Override
    public boolean readsWholeFiles() {
        return true; // through FileInput.open, start to end
    }
    static final StructType SCHEMA = StructType.of(StructField.of("value", DataType.stringType()));

    private final boolean wholeText;
    private final byte[] lineSep;
    private final BufferPool buffers = new BufferPool();

    TextFormat(Options o) {
        wholeText = OptionValues.bool(o, "wholetext", false);
        Optional<String> sep = OptionValues.lineSep(o);
        lineSep = sep.map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null);
    }

    /** Spark's TextFileFormat.verifySchema. */
    static void verifySchema(StructType schema) {
        if (schema.size() != 1) {
            throw new IllegalArgumentException("Text data source supports only a single column, and you have "
                    + schema.size() + " columns.");
        }
        StructField f = schema.field(0);
        if (f.dataType() != DataType.stringType()) {
            throw new IllegalArgumentException("The Text datasource doesn't support the column `" + f.name()
                    + "` of the type \"" + f.dataType().sql() + "\".");
        }
    }

    @Override
    public RowIterator open(Path file) throws IOException {
        return wholeText ? new Whole(file) : new Lines(file);
    }

    private final class Lines implements RowIterator {
        private final ByteLineReader lines;
        private final RowBuilder rows = new RowBuilder(SCHEMA);
        private Row current;

        Lines(Path file) throws IOException {
            lines = new ByteLineReader(FileInput.open(file), lineSep, false, buffers);
        }

        @Override
        public boolean next() throws IOException {
            if (!lines.next()) {
                return false;
            }
            byte[] b = lines.buffer();
            int s = lines.start();
            int n = lines.end() - s;
            int i = 0;
            while (i < n && b[s + i] >= 0) {
                i++;
            }
            if (i == n) {
                rows.setLatin1(0, b, s, n); // ASCII: the bytes are the characters
            } else {
                rows.set(0, new String(b, s, n, StandardCharsets.UTF_8));
            }
            current = rows.build();
            return true;
        }

        @Override
        public Row get() {
            return current;
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    private static final class Whole implements RowIterator {
        private final Path file;
        private boolean done;
        private Row current;

        Whole(Path file) {
            this.file = file;
        }

        @Override
        public boolean next() throws IOException {
            if (done) {
                return false;
            }
            done = true;
            current = Row.wrap(new Object[] {new String(FileInput.readAll(file), StandardCharsets.UTF_8)});
            return true;
        }

        @Override
        public Row get() {
            return current;
        }

        @Override
        public void close() {
        }
    }
}
