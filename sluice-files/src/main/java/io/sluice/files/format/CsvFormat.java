package io.sluice.files.format;

import io.sluice.api.Row;
import io.sluice.api.RowBuilder;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.values.ValueParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The csv format (Spark's CSVFileFormat with UnivocityParser): columns by position. Without multiLine, lines that
 * are blank or start with the comment character are skipped and each other line is one record; with multiLine,
 * quoted values may span lines. With {@code header}, the first such line/record of each file is the header: with
 * {@code enforceSchema} (default) its names are ignored (a mismatch is logged), without it they must match the
 * schema's (case-insensitively) or the file fails. A record with fewer or more tokens than the schema's columns is
 * malformed: in PERMISSIVE its row still has the tokens that exist (missing ones null, extra ones dropped).
 */
final class CsvFormat implements FileFormatReader {

    @Override
    public boolean readsWholeFiles() {
        return true; // through FileInput.open, start to end
    }
    private static final Logger LOG = LoggerFactory.getLogger(CsvFormat.class);

    private final CsvSettings settings;
    private final int corruptIndex;
    private final int width;
    private final int[] positions;
    private final CsvValues.Converter[] converters;
    private final BufferPool buffers = new BufferPool();
    private final List<String> names;
    private final StructType schema;
    private final boolean bytePath;

    CsvFormat(CsvSettings settings, StructType schema) {
        this(settings, schema, true);
    }

    /**
     * @param bytePath whether line-by-line UTF-8 input is split into lines on bytes ({@link Utf8CharLines}) rather
     *                 than decoded by a reader (tests compare both)
     */
    CsvFormat(CsvSettings settings, StructType schema, boolean bytePath) {
        this.bytePath = bytePath;
        this.settings = settings;
        this.schema = schema;
        this.corruptIndex = OptionValues.corruptIndex(schema, settings.corruptColumn);
        this.width = schema.size();
        List<Integer> pos = new ArrayList<>();
        List<CsvValues.Converter> conv = new ArrayList<>();
        List<String> n = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            if (i != corruptIndex) {
                StructField f = schema.field(i);
                pos.add(i);
                conv.add(CsvValues.of(f, settings));
                n.add(f.name());
            }
        }
        this.positions = pos.stream().mapToInt(Integer::intValue).toArray();
        this.converters = conv.toArray(new CsvValues.Converter[0]);
        this.names = List.copyOf(n);
    }

    @Override
    public RowIterator open(Path file) throws IOException {
        if (bytePath && !settings.multiLine && settings.lineSep == null
                && settings.charset.equals(StandardCharsets.UTF_8)) {
            // Lines split on bytes and widened: no stream decoder for what is nearly always ASCII.
            return new LinesIterator(file, new Utf8CharLines(FileInput.open(file), buffers));
        }
        Reader reader = new InputStreamReader(FileInput.open(file), settings.charset);
        return settings.multiLine ? new StreamIterator(file, reader)
                : new LinesIterator(file, new CharLineReader(reader, settings.lineSep, buffers));
    }

    /** Spark's CSVHeaderChecker. */
    private void checkHeader(String[] header, Path file) throws IOException {
        String msg = null;
        if (header.length == names.size()) {
            for (int i = 0; i < header.length && msg == null; i++) {
                String h = header[i] == null ? "" : header[i];
                if (!h.toLowerCase(Locale.ROOT).equals(names.get(i).toLowerCase(Locale.ROOT))) {
                    msg = "CSV header does not conform to the schema.\n Header: " + String.join(", ", nonNull(header))
                            + "\n Schema: " + String.join(", ", names) + "\nExpected: " + names.get(i)
                            + " but found: " + h + "\nCSV file: " + file.toUri();
                }
            }
        } else {
            msg = "Number of column in CSV header is not equal to number of fields in the schema:\n Header length: "
                    + header.length + ", schema size: " + names.size() + "\nCSV file: " + file.toUri();
        }
        if (msg != null) {
            if (settings.enforceSchema) {
                LOG.warn(msg);
            } else {
                throw new IOException(msg);
            }
        }
    }

    private static List<String> nonNull(String[] a) {
        List<String> out = new ArrayList<>(a.length);
        for (String s : a) {
            out.add(s == null ? "" : s);
        }
        return out;
    }

    private abstract class Base implements RowIterator {
        final Path file;
        final CsvTokenizer tokens = new CsvTokenizer(settings);
        final RecordOutput out;
        final RowBuilder row = new RowBuilder(schema);

        Base(Path file) {
            this.file = file;
            this.out = new RecordOutput(settings.mode, corruptIndex, width, file);
        }

        /** Converts the tokenizer's record; {@code lineBuf[lineStart, lineEnd)} is the raw line (null in stream mode). */
        final void convert(long line, char[] lineBuf, int lineStart, int lineEnd) throws IOException {
            int n = tokens.columns();
            int expected = converters.length;
            Throwable bad = n == expected ? null : new ValueParseException("Malformed CSV record: it has " + n
                    + (n == 1 ? " token" : " tokens") + " and the schema has " + expected
                    + (expected == 1 ? " column" : " columns"));
            int m = Math.min(n, expected);
            for (int i = 0; i < m; i++) {
                try {
                    converters[i].convertInto(row, positions[i], tokens.tokenChars(i), tokens.tokenStart(i),
                            tokens.tokenLength(i));
                } catch (RuntimeException e) {
                    if (bad == null) {
                        bad = e;
                    }
                }
            }
            if (bad == null) {
                out.good(row.build());
            } else {
                Object[] partial = row.build().toArray();
                String record = lineBuf != null ? new String(lineBuf, lineStart, lineEnd - lineStart) : tokens.rawRecord();
                out.bad(List.<Object[]>of(partial), record, line, bad);
            }
        }

        final IOException syntax(CsvTokenizer.CsvSyntaxException e, long line) {
            return new IOException("Cannot parse CSV file " + file + " at line " + line + ": " + e.getMessage(), e);
        }

        @Override
        public final Row get() {
            return out.current();
        }
    }

    private final class LinesIterator extends Base {
        private final CharLines lines;
        private boolean headerPending = settings.header;

        LinesIterator(Path file, CharLines lines) {
            super(file);
            this.lines = lines;
        }

        @Override
        public boolean next() throws IOException {
            while (!out.poll()) {
                if (!lines.next()) {
                    return false;
                }
                line();
            }
            return true;
        }

        private void line() throws IOException {
            char[] b = lines.buffer();
            int s = lines.start();
            int e = lines.end();
            int i = s;
            while (i < e && b[i] <= ' ') {
                i++;
            }
            if (i == e || settings.commentSet && b[s] == settings.comment) {
                return;
            }
            try {
                if (headerPending || !tokens.tokenizeSimpleLine(b, s, e)) {
                    tokens.tokenizeLine(b, s, e);
                }
            } catch (CsvTokenizer.CsvSyntaxException x) {
                throw syntax(x, lines.line());
            }
            if (headerPending) {
                headerPending = false;
                checkHeader(tokens.tokens(), file);
                return;
            }
            convert(lines.line(), b, s, e);
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    private final class StreamIterator extends Base {
        private final Reader reader;

        StreamIterator(Path file, Reader reader) throws IOException {
            super(file);
            this.reader = reader;
            try {
                tokens.open(reader);
                if (settings.header && tokens.nextRecord()) {
                    checkHeader(tokens.tokens(), file);
                }
            } catch (CsvTokenizer.CsvSyntaxException x) {
                reader.close();
                throw syntax(x, tokens.recordLine());
            } catch (IOException | RuntimeException x) {
                reader.close();
                throw x;
            }
        }

        @Override
        public boolean next() throws IOException {
            while (!out.poll()) {
                try {
                    if (!tokens.nextRecord()) {
                        return false;
                    }
                } catch (CsvTokenizer.CsvSyntaxException x) {
                    throw syntax(x, tokens.recordLine());
                } catch (java.io.UncheckedIOException x) {
                    throw x.getCause();
                }
                convert(tokens.recordLine(), null, 0, 0);
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
