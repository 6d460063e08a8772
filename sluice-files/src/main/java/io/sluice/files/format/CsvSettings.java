package io.sluice.files.format;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The csv format's options (Spark's CSVOptions for reading and the univocity settings it derives), validated. */
final class CsvSettings {
    /** univocity's UnescapedQuoteHandling. */
    enum QuoteHandling { STOP_AT_CLOSING_QUOTE, BACK_TO_DELIMITER, STOP_AT_DELIMITER, SKIP_VALUE, RAISE_ERROR }

    private static final List<String> CHARSETS =
            List.of("US-ASCII", "ISO-8859-1", "UTF-8", "UTF-16BE", "UTF-16LE", "UTF-16", "UTF-32");

    final ParseMode mode;
    final String corruptColumn;
    final String delimiter;
    final char quote;
    final char escape;
    final char escapeEscape;
    final char comment;
    final boolean commentSet;
    final boolean header;
    final boolean inferSchema;
    final boolean ignoreLeadingWhiteSpace;
    final boolean ignoreTrailingWhiteSpace;
    final boolean preferDate;
    final boolean enforceSchema;
    final boolean multiLine;
    final String nullValue;
    final String emptyValue;
    final String nanValue;
    final String positiveInf;
    final String negativeInf;
    final Charset charset;
    /** lineSep (1 or 2 characters), or null for \n, \r and \r\n (multiLine: the first one found). */
    final String lineSep;
    final int maxColumns;
    final int maxCharsPerColumn;
    final QuoteHandling quoteHandling;
    final Locale locale;
    final TemporalParsers temporal;
    final double samplingRatio;

    private CsvSettings(Options o) {
        mode = ParseMode.of(o);
        corruptColumn = OptionValues.corruptColumn(o);
        String sepKey = o.contains("sep") ? "sep" : "delimiter";
        delimiter = delimiter(sepKey, o.get(sepKey, ","));
        quote = OptionValues.oneChar(o, "quote", '"');
        escape = OptionValues.oneChar(o, "escape", '\\');
        Optional<String> cte = o.get("charToEscapeQuoteEscaping");
        if (cte.isPresent() && cte.get().length() > 1) {
            throw new InvalidOptionException("charToEscapeQuoteEscaping", cte.get(),
                    "charToEscapeQuoteEscaping cannot be more than one character");
        }
        // univocity's default: the escape character when it differs from the quote, else none.
        escapeEscape = cte.filter(s -> s.length() == 1).map(s -> s.charAt(0)).orElse(quote == escape ? '\0' : escape);
        comment = OptionValues.oneChar(o, "comment", '\0');
        commentSet = o.get("comment").map(s -> s.length() == 1).orElse(false);
        header = OptionValues.csvFlag(o, "header", false);
        inferSchema = OptionValues.csvFlag(o, "inferSchema", false);
        ignoreLeadingWhiteSpace = OptionValues.csvFlag(o, "ignoreLeadingWhiteSpace", false);
        ignoreTrailingWhiteSpace = OptionValues.csvFlag(o, "ignoreTrailingWhiteSpace", false);
        preferDate = OptionValues.csvFlag(o, "preferDate", true);
        enforceSchema = OptionValues.csvFlag(o, "enforceSchema", true);
        OptionValues.csvFlag(o, "escapeQuotes", true);
        OptionValues.csvFlag(o, "quoteAll", false);
        multiLine = OptionValues.bool(o, "multiLine", false);
        nullValue = o.get("nullValue", "");
        emptyValue = o.get("emptyValue", "");
        nanValue = o.get("nanValue", "NaN");
        positiveInf = o.get("positiveInf", "Inf");
        negativeInf = o.get("negativeInf", "-Inf");
        charset = charset(o);
        Optional<String> sep = OptionValues.lineSep(o);
        if (sep.isPresent() && sep.get().length() > 2) {
            throw new InvalidOptionException("lineSep", sep.get(), "'lineSep' can contain only 1 character.", true);
        }
        lineSep = sep.orElse(null);
        maxColumns = OptionValues.integer(o, "maxColumns", 20480);
        if (maxColumns < 1) {
            throw new InvalidOptionException("maxColumns", String.valueOf(maxColumns), "a positive whole number is accepted");
        }
        maxCharsPerColumn = OptionValues.integer(o, "maxCharsPerColumn", -1);
        if (maxCharsPerColumn < -1 || maxCharsPerColumn == 0) {
            throw new InvalidOptionException("maxCharsPerColumn", String.valueOf(maxCharsPerColumn),
                    "-1 (unlimited) or a positive whole number is accepted");
        }
        OptionValues.integer(o, "inputBufferSize", 1);
        String qh = o.get("unescapedQuoteHandling", "STOP_AT_DELIMITER");
        try {
            quoteHandling = QuoteHandling.valueOf(qh.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("unescapedQuoteHandling", qh, "STOP_AT_CLOSING_QUOTE, BACK_TO_DELIMITER, "
                    + "STOP_AT_DELIMITER, SKIP_VALUE or RAISE_ERROR is accepted (case-insensitive)");
        }
        locale = OptionValues.locale(o);
        temporal = TemporalParsers.of(o, false);
        samplingRatio = OptionValues.samplingRatio(o);
    }

    static CsvSettings of(Options o) {
        return new CsvSettings(o);
    }

    // Spark's CharsetProvider.forName: a fixed list of charsets (spark.sql.legacy.javaCharsets off).
    private static Charset charset(Options o) {
        String key = o.contains("encoding") ? "encoding" : "charset";
        Optional<String> v = o.get(key);
        if (v.isEmpty()) {
            return StandardCharsets.UTF_8;
        }
        if (CHARSETS.contains(v.get().toUpperCase(Locale.ROOT))) {
            return Charset.forName(v.get());
        }
        throw new InvalidOptionException(key, v.get(), "The value of parameter(s) `" + key + "` in `CSVOptions` is "
                + "invalid: expects one of the charsets 'US-ASCII', 'ISO-8859-1', 'UTF-8', 'UTF-16BE', 'UTF-16LE', "
                + "'UTF-16', 'UTF-32', but got " + v.get() + ".", true);
    }

    /** Spark's CSVExprUtils.toDelimiterStr: each chunk is one character or a backslash escape. */
    static String delimiter(String key, String str) {
        if (str.isEmpty()) {
            throw badDelimiter(key, str, "Delimiter cannot be empty string.");
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < str.length()) {
            char c = str.charAt(i);
            if (c != '\\') {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 >= str.length()) {
                throw badDelimiter(key, str, "Single backslash is prohibited. It has special meaning as beginning of "
                        + "an escape sequence. To get the backslash character, pass a string with two backslashes as "
                        + "the delimiter.");
            }
            char n = str.charAt(i + 1);
            char r = switch (n) {
                case 't' -> '\t';
                case 'r' -> '\r';
                case 'b' -> '\b';
                case 'f' -> '\f';
                case '"' -> '"';
                case '\'' -> '\'';
                case '\\' -> '\\';
                default -> throw badDelimiter(key, str,
                        "Unsupported special character for delimiter: " + str.substring(i, i + 2) + ".");
            };
            out.append(r);
            i += 2;
        }
        return out.toString();
    }

    private static InvalidOptionException badDelimiter(String key, String value, String why) {
        return new InvalidOptionException(key, value, "Invalid value '" + value + "' for option '" + key
                + "': Invalid value for delimiter. " + why, true);
    }
}
