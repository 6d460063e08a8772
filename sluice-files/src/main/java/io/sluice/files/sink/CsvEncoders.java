package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructType;
import io.sluice.values.DateTimeWriter;
import io.sluice.values.RowToJson;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Base64;
import java.util.function.Function;

/**
 * CSV as Spark writes it (its univocity writer settings): values separated by {@code sep}; leading and trailing
 * whitespace dropped ({@code ignoreLeadingWhiteSpace}/{@code ignoreTrailingWhiteSpace}, true when writing); a
 * value quoted when it contains the separator, a line break or (with {@code escapeQuotes}) the quote, or starts
 * with the quote; inside quotes the quote is preceded by {@code escape} and the escape by
 * {@code charToEscapeQuoteEscaping}; a null is {@code nullValue} (default empty), an empty string
 * {@code emptyValue} (default {@code ""}); a header line with the column names when {@code header} is true.
 * Only atomic types; binary as base64 (Spark writes the array's identity, which is of no use).
 */
final class CsvEncoders implements RowEncoder.Factory {
    private static final int BUFFER = 64 * 1024;

    private final int[] columns;
    private final Function<Object, String>[] converters;
    private final String[] header;
    private final FileSinkOptions.Csv csv;
    private final String lineSep;

    @SuppressWarnings("unchecked")
    CsvEncoders(StructType schema, int[] dataColumns, FileSinkOptions options) {
        this.columns = dataColumns;
        this.csv = FileSinkOptions.csvSettings(options.raw);
        this.lineSep = options.lineSep;
        DateTimeWriter time = new DateTimeWriter(options.timestampFormat, options.dateFormat, options.zone);
        this.converters = new Function[dataColumns.length];
        this.header = new String[dataColumns.length];
        for (int i = 0; i < dataColumns.length; i++) {
            header[i] = schema.field(dataColumns[i]).name();
            converters[i] = converter(schema.field(dataColumns[i]).dataType(), time);
        }
    }

    private static Function<Object, String> converter(DataType type, DateTimeWriter time) {
        if (type instanceof DecimalType d) {
            int scale = d.scale();
            return v -> RowToJson.atScale((BigDecimal) v, scale).toString();
        }
        return switch ((AtomicType) type) {
            case DATE_TYPE -> v -> time.date((LocalDate) v);
            case TIMESTAMP_TYPE -> v -> time.timestamp((Instant) v);
            case BINARY_TYPE -> v -> Base64.getEncoder().encodeToString((byte[]) v);
            case FLOAT_TYPE -> v -> Float.toString(((Number) v).floatValue());
            case DOUBLE_TYPE -> v -> Double.toString(((Number) v).doubleValue());
            default -> String::valueOf;
        };
    }

    @Override
    public RowEncoder open(OutputStream out) throws IOException {
        Encoder e = new Encoder(new Utf8Writer(out, BUFFER));
        if (csv.header()) {
            e.record(header);
        }
        return e;
    }

    private final class Encoder implements RowEncoder {
        private final Utf8Writer w;
        private final String[] values = new String[columns.length];

        Encoder(Utf8Writer w) {
            this.w = w;
        }

        @Override
        public void write(Row row) throws IOException {
            for (int i = 0; i < columns.length; i++) {
                Object v = row.get(columns[i]);
                values[i] = v == null ? null : converters[i].apply(v);
            }
            record(values);
        }

        void record(String[] vs) throws IOException {
            for (int i = 0; i < vs.length; i++) {
                if (i > 0) {
                    w.write(csv.sep());
                }
                value(vs[i]);
            }
            w.write(lineSep);
        }

        private void value(String v) throws IOException {
            char quote = csv.quote();
            if (v == null) {
                if (csv.quoteAll() && quote != 0) {
                    w.write(quote);
                    w.write(csv.nullValue());
                    w.write(quote);
                } else {
                    w.write(csv.nullValue());
                }
                return;
            }
            int start = 0;
            int end = v.length();
            if (csv.ignoreLeadingWhiteSpace()) {
                while (start < end && isWhitespace(v.charAt(start))) {
                    start++;
                }
            }
            if (csv.ignoreTrailingWhiteSpace()) {
                while (end > start && isWhitespace(v.charAt(end - 1))) {
                    end--;
                }
            }
            if (start == end) {
                String empty = csv.emptyValue();
                if (csv.quoteAll() && quote != 0 && !isQuoted(empty, quote)) {
                    w.write(quote);
                    w.write(empty);
                    w.write(quote);
                } else {
                    w.write(empty);
                }
                return;
            }
            boolean quoted = false;
            if (quote != 0) {
                if (csv.quoteAll()) {
                    quoted = true;
                } else if (v.charAt(start) == quote) {
                    if (end - start >= 2 && v.charAt(end - 1) == quote) {
                        // univocity writes a value already in quotes as it is.
                        w.write(v, start, end);
                        return;
                    }
                    quoted = true;
                } else {
                    quoted = needsQuotes(v, start, end);
                }
            }
            if (!quoted) {
                w.write(v, start, end);
                return;
            }
            w.write(quote);
            char escape = csv.escape();
            char escapeEscape = csv.escapeEscape();
            int run = start;
            for (int i = start; i < end; i++) {
                char c = v.charAt(i);
                if (c == quote) {
                    w.write(v, run, i);
                    w.write(escape);
                    run = i;
                } else if (c == escape && escapeEscape != 0) {
                    w.write(v, run, i);
                    w.write(escapeEscape);
                    run = i;
                }
            }
            w.write(v, run, end);
            w.write(quote);
        }

        private boolean needsQuotes(String v, int start, int end) {
            char sep = csv.sep();
            char quote = csv.quote();
            boolean escapeQuotes = csv.escapeQuotes();
            for (int i = start; i < end; i++) {
                char c = v.charAt(i);
                if (c == sep || c == '\n' || c == '\r' || (escapeQuotes && c == quote)
                        || (lineSep.length() > 0 && lineSep.indexOf(c) >= 0)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void finish() throws IOException {
            w.flush();
        }
    }

    /** univocity's whitespace: the control characters and space, but not NUL. */
    private static boolean isWhitespace(char c) {
        return c <= ' ' && c > 0;
    }

    private static boolean isQuoted(String s, char quote) {
        return s.length() >= 2 && s.charAt(0) == quote && s.charAt(s.length() - 1) == quote;
    }
}
