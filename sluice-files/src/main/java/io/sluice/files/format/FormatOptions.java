package io.sluice.files.format;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.api.OptionDef.bool;
import static io.sluice.api.OptionDef.string;

/**
 * The reading options of each format, declared once for the engine's name checks and the docs' option tables
 * (docs/sources/file-formats.md), and the file sink's options of each format (docs/sinks/file.md). The values are parsed and checked with Spark's messages by {@link JsonSettings},
 * {@link CsvSettings}, {@link TextFormat} and {@link OptionValues}.
 */
final class FormatOptions {
    private static final String LINE_ENDINGS = "\\n, \\r\\n or \\r";

    /** The options json and csv share. */
    private static final List<OptionDef> COMMON = List.of(
            OptionDef.oneOf("mode", "PERMISSIVE", List.of("PERMISSIVE", "DROPMALFORMED", "FAILFAST"),
                    "what a malformed record gives"),
            string("columnNameOfCorruptRecord", "the column that gets a malformed record's text")
                    .withDefault(OptionValues.DEFAULT_CORRUPT_COLUMN),
            string("timeZone", "the zone of timestamps without one").withDefaultText("the session time zone"),
            string("timestampFormat", "the pattern of timestamps"),
            string("dateFormat", "the pattern of dates"),
            OptionDef.of("enableDateTimeParsingFallback", OptionDef.Type.BOOLEAN,
                    "lenient rules when a pattern does not match").withDefaultText("on when the pattern is not set"),
            string("locale", "decimal strings, month and day names").withDefault("en-US"),
            OptionDef.of("samplingRatio", OptionDef.Type.DOUBLE, "the share of records schema inference reads")
                    .withDefault("1.0"),
            bool("multiLine", false, "a record may span lines (json: one document per file)"));

    static final OptionSet JSON = OptionSet.of(concat(COMMON, List.of(
            string("lineSep", "the record separator").withDefaultText(LINE_ENDINGS),
            string("encoding", "the files' charset").withDefault("UTF-8"),
            string("charset", "alias of encoding").withDefault("UTF-8"),
            bool("allowComments", false, "/* */ and // comments"),
            bool("allowUnquotedFieldNames", false, "field names without quotes"),
            bool("allowSingleQuotes", true, "strings in single quotes"),
            bool("allowNumericLeadingZeros", false, "numbers such as 007"),
            bool("allowNonNumericNumbers", true, "NaN and Infinity"),
            bool("allowBackslashEscapingAnyCharacter", false, "a backslash before any character"),
            bool("allowUnquotedControlChars", false, "control characters inside strings"),
            bool("primitivesAsString", false, "inference: numbers and booleans as strings"),
            bool("prefersDecimal", false, "inference: decimals instead of doubles"),
            bool("dropFieldIfAllNull", false, "inference: drop always-null fields"),
            bool("inferTimestamp", false, "inference: timestamp strings as timestamp"))));

    static final OptionSet CSV = OptionSet.of(concat(COMMON, List.of(
            string("sep", "the field separator").withDefault(","),
            string("delimiter", "alias of sep").withDefault(","),
            string("quote", "the quote character").withDefault("\""),
            string("escape", "the escape character inside quotes").withDefault("\\"),
            string("charToEscapeQuoteEscaping", "escapes the escape character")
                    .withDefaultText("escape if it differs from quote"),
            string("comment", "lines starting with it are skipped").withDefaultText("off"),
            bool("header", false, "the first line of each file holds the column names"),
            bool("enforceSchema", true, "the schema wins over the header's names"),
            bool("inferSchema", false, "inference: types instead of all strings"),
            bool("preferDate", true, "inference: date before timestamp"),
            bool("ignoreLeadingWhiteSpace", false, "trim leading whitespace of values"),
            bool("ignoreTrailingWhiteSpace", false, "trim trailing whitespace of values"),
            string("nullValue", "the text read as null").withDefault("").withDefaultText("empty string"),
            string("emptyValue", "what \"\" reads as").withDefault("").withDefaultText("empty string"),
            string("nanValue", "the text read as NaN").withDefault("NaN"),
            string("positiveInf", "the text read as +Infinity").withDefault("Inf"),
            string("negativeInf", "the text read as -Infinity").withDefault("-Inf"),
            string("lineSep", "the record separator, 1 or 2 characters").withDefaultText(LINE_ENDINGS),
            string("encoding", "the files' charset").withDefault("UTF-8"),
            string("charset", "alias of encoding").withDefault("UTF-8"),
            OptionDef.oneOf("unescapedQuoteHandling", "STOP_AT_DELIMITER", List.of("STOP_AT_DELIMITER",
                    "STOP_AT_CLOSING_QUOTE", "BACK_TO_DELIMITER", "SKIP_VALUE", "RAISE_ERROR"),
                    "what an unescaped quote inside a value does"),
            OptionDef.integer("maxColumns", 20480, "the most tokens a record may have"),
            OptionDef.integer("maxCharsPerColumn", -1, "the longest value; -1: no limit"),
            OptionDef.of("inputBufferSize", OptionDef.Type.INT, "validated, no effect on reading"),
            bool("escapeQuotes", true, "validated, no effect on reading"),
            bool("quoteAll", false, "validated, no effect on reading"))));

    static final OptionSet TEXT = OptionSet.of(
            bool("wholetext", false, "one row per file with all of it"),
            string("lineSep", "the line separator").withDefaultText(LINE_ENDINGS));

    /** The file sink's json options besides its own (docs/sinks/file.md). */
    static final OptionSet JSON_WRITE = OptionSet.of(
            bool("ignoreNullFields", true, "leave out fields whose value is null"));

    /** The file sink's csv options besides its own (docs/sinks/file.md). */
    static final OptionSet CSV_WRITE = OptionSet.of(
            bool("header", false, "each file starts with the column names"),
            string("sep", "the field separator").withDefault(","),
            string("delimiter", "alias of sep").withDefault(","),
            string("quote", "the quote character").withDefault("\""),
            string("escape", "put before a quote inside a quoted value").withDefault("\\"),
            string("charToEscapeQuoteEscaping", "put before an escape character inside a quoted value")
                    .withDefaultText("the escape character"),
            bool("quoteAll", false, "quote every value"),
            bool("escapeQuotes", true, "quote values containing the quote"),
            string("nullValue", "the text written for a null").withDefault("").withDefaultText("empty"),
            string("emptyValue", "the text written for an empty string").withDefault("\"\""),
            bool("ignoreLeadingWhiteSpace", true, "trim leading whitespace"),
            bool("ignoreTrailingWhiteSpace", true, "trim trailing whitespace"));

    private FormatOptions() {
    }

    private static List<OptionDef> concat(List<OptionDef> a, List<OptionDef> b) {
        List<OptionDef> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
