package io.sluice.files.format;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.api.Row;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.values.JsonToRow;
import io.sluice.values.ValueParseException;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The json format: JSON lines (one record per line, blank lines skipped) or, with multiLine, one JSON value per
 * file. A record that is an object gives one row; an array of objects gives one row per element (Spark's
 * SPARK-3308); anything else is malformed. Only the first JSON value of a line (or file) is read, as in Spark.
 */
final class JsonFormat implements FileFormatReader {

    @Override
    public boolean readsWholeFiles() {
        return true; // through FileInput.open, start to end
    }
    private final JsonSettings settings;
    private final int corruptIndex;
    private final int width;
    private final JsonToRow.StructReader root;
    private final StructType dataFields;
    private final int[] dataPositions;
    private final StructType schema;
    private final boolean fastPath;
    private final BufferPool buffers = new BufferPool();

    JsonFormat(JsonSettings settings, StructType schema) {
        this(settings, schema, true);
    }

    /** @param fastPath whether JSON lines in UTF-8 try {@link FlatJsonScanner} before Jackson (tests compare both) */
    JsonFormat(JsonSettings settings, StructType schema, boolean fastPath) {
        this.fastPath = fastPath;
        this.schema = schema;
        this.settings = settings;
        this.corruptIndex = OptionValues.corruptIndex(schema, settings.corruptColumn);
        this.width = schema.size();
        List<StructField> fields = new ArrayList<>();
        int[] positions = new int[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            if (i != corruptIndex) {
                positions[fields.size()] = i;
                fields.add(schema.field(i));
            }
        }
        this.dataFields = new StructType(fields);
        this.dataPositions = java.util.Arrays.copyOf(positions, fields.size());
        this.root = new JsonToRow.StructReader(dataFields, dataPositions, width);
    }

    @Override
    public RowIterator open(Path file) throws IOException {
        return settings.multiLine ? new MultiLineIterator(file) : new LinesIterator(file);
    }

    /** Per-file parsing of records; keeps the partial rows of the last malformed record. */
    private final class RecordParser {
        final JsonToRow.Ctx ctx = new JsonToRow.Ctx(settings.values);
        final RecordOutput out;
        List<Object[]> badRows;

        RecordParser(RecordOutput out) {
            this.out = out;
        }

        /** Parses the record; good rows go to the output. Returns the failure, or null. */
        Throwable parse(JsonParser p) {
            ctx.startRecord();
            badRows = List.of();
            try {
                JsonToken t = p.nextToken();
                if (t == null) {
                    return null;
                }
                if (t == JsonToken.START_OBJECT) {
                    Object[] v = root.readFields(p, ctx);
                    Throwable bad = ctx.takeLastBad();
                    if (bad == null) {
                        out.good(v);
                        return null;
                    }
                    badRows = List.<Object[]>of(v);
                    return bad;
                }
                if (t == JsonToken.START_ARRAY) {
                    ArrayList<Object[]> rows = new ArrayList<>();
                    Throwable bad = null;
                    while (true) {
                        JsonToken e = p.nextToken();
                        if (e == null || e == JsonToken.END_ARRAY) {
                            break;
                        }
                        if (e == JsonToken.START_OBJECT) {
                            rows.add(root.readFields(p, ctx));
                            Throwable b = ctx.takeLastBad();
                            if (b != null && bad == null) {
                                bad = b;
                            }
                        } else if (e == JsonToken.VALUE_NULL) {
                            throw nullRoot();
                        } else {
                            throw root.failed(p, e);
                        }
                    }
                    if (bad == null) {
                        for (Object[] r : rows) {
                            out.good(r);
                        }
                        return null;
                    }
                    badRows = rows;
                    return bad;
                }
                if (t == JsonToken.VALUE_NULL) {
                    throw nullRoot();
                }
                throw root.failed(p, t);
            } catch (IOException | RuntimeException e) {
                badRows = List.of();
                return e;
            }
        }

        private ValueParseException nullRoot() {
            return new ValueParseException("Cannot convert JSON root field to target Spark type.");
        }

        int badLineWithin(Throwable cause) {
            if (cause instanceof JsonProcessingException j) {
                JsonLocation l = j.getLocation();
                if (l != null && l.getLineNr() > 0) {
                    return l.getLineNr();
                }
            }
            return Math.max(1, ctx.badLine());
        }
    }

    /** A record that failed: past a bound of the parser (said so), or malformed. */
    private void failed(RecordOutput out, RecordParser parser, String record, long line, Throwable bad)
            throws MalformedRecordException {
        String limit = settings.limits.reason(bad);
        if (limit != null) {
            out.pastLimit(record, line, bad, limit);
        } else {
            out.bad(parser.badRows, record, line, bad);
        }
    }

    private final class LinesIterator implements RowIterator {
        private final ByteLineReader lines;
        private final RecordOutput out;
        private final RecordParser parser;
        private final Charset charset;
        private final boolean utf8;
        private final boolean customSep = settings.lineSep != null;
        private final FlatJsonScanner fast;

        LinesIterator(Path file) throws IOException {
            this.charset = settings.charset == null ? StandardCharsets.UTF_8 : settings.charset;
            this.utf8 = charset.equals(StandardCharsets.UTF_8);
            this.lines = new ByteLineReader(FileInput.open(file), settings.lineSep, utf8, buffers);
            this.out = new RecordOutput(settings.mode, corruptIndex, width, file);
            this.parser = new RecordParser(out);
            this.fast = fastPath && utf8 ? new FlatJsonScanner(dataFields, dataPositions, schema, settings.temporal,
                    settings.limits) : null;
        }

        @Override
        public boolean next() throws IOException {
            while (!out.poll()) {
                if (!lines.next()) {
                    return false;
                }
                parseLine();
            }
            return true;
        }

        private void parseLine() throws IOException {
            byte[] b = lines.buffer();
            int s = lines.start();
            int len = lines.end() - s;
            if (len == 0) {
                return;
            }
            if (fast != null) {
                Row v = fast.scan(b, s, s + len);
                if (v != null) {
                    out.good(v);
                    return;
                }
            }
            JsonParser p;
            String text = null;
            if (utf8) {
                p = settings.factory.createParser(b, s, len);
                parser.ctx.source(b, s);
            } else {
                text = new String(b, s, len, charset);
                char[] c = text.toCharArray();
                p = settings.factory.createParser(c, 0, c.length);
                parser.ctx.source(c, 0);
            }
            Throwable bad;
            try {
                bad = parser.parse(p);
            } finally {
                p.close();
            }
            if (bad != null) {
                String record = text != null ? text : new String(b, s, len, StandardCharsets.UTF_8);
                long line = lines.line() + (customSep ? 0 : parser.badLineWithin(bad) - 1);
                failed(out, parser, record, line, bad);
            }
        }

        @Override
        public Row get() {
            return out.current();
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    private final class MultiLineIterator implements RowIterator {
        private final Path file;
        private final RecordOutput out;
        private boolean parsed;

        MultiLineIterator(Path file) {
            this.file = file;
            this.out = new RecordOutput(settings.mode, corruptIndex, width, file);
        }

        @Override
        public boolean next() throws IOException {
            if (!parsed) {
                parsed = true;
                parseFile();
            }
            return out.poll();
        }

        private void parseFile() throws IOException {
            byte[] bytes = FileInput.readAll(file);
            RecordParser parser = new RecordParser(out);
            JsonParser p;
            String text = null;
            if (settings.charset == null) {
                // Jackson detects UTF-8, UTF-16 and UTF-32 (and skips a BOM), as Spark does without encoding.
                p = settings.factory.createParser(bytes);
                parser.ctx.source(bytes, 0);
            } else {
                text = new String(bytes, settings.charset);
                if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
                    text = text.substring(1);
                }
                char[] c = text.toCharArray();
                p = settings.factory.createParser(c, 0, c.length);
                parser.ctx.source(c, 0);
            }
            Throwable bad;
            try {
                bad = parser.parse(p);
            } finally {
                p.close();
            }
            if (bad != null) {
                String record = text != null ? text : new String(bytes, StandardCharsets.UTF_8);
                failed(out, parser, record, parser.badLineWithin(bad), bad);
            }
        }

        @Override
        public Row get() {
            return out.current();
        }

        @Override
        public void close() {
        }
    }
}
