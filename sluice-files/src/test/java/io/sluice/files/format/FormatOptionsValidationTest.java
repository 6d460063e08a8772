package io.sluice.files.format;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;

import static io.sluice.files.format.FormatFixture.opts;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FormatOptionsValidationTest {
    private static final StructType AB = StructType.fromDDL("a int, b string");

    private static void fails(String format, String ddl, String message, String... options) {
        assertThatThrownBy(() -> FileFormats.validate(format, opts(options), StructType.fromDDL(ddl)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    private static void failsOption(String format, String option, String value, String message) {
        assertThatThrownBy(() -> FileFormats.validate(format, opts(option, value), AB))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage(message)
                .satisfies(e -> {
                    InvalidOptionException i = (InvalidOptionException) e;
                    org.assertj.core.api.Assertions.assertThat(i.value()).isEqualTo(value);
                });
    }

    @Test
    void unknownFormatsAndUnknownOptions() {
        assertThatThrownBy(() -> FileFormats.validate("parquet", opts(), AB))
                .hasMessage("Unknown file format 'parquet': json, csv or text is accepted");
        assertThatCode(() -> FileFormats.validate("JSON", opts("maxFilesPerTrigger", "x", "whatever", "y"), AB))
                .doesNotThrowAnyException();
        assertThatCode(() -> FileFormats.validate("csv", opts("MODE", "failFast", "SEP", ";", "Header", "TRUE"), AB))
                .doesNotThrowAnyException();
    }

    @Test
    void sharedOptions() {
        for (String f : new String[] {"json", "csv"}) {
            failsOption(f, "mode", "strict", "Invalid value 'strict' for option 'mode': strict is not a valid parse "
                    + "mode; PERMISSIVE, DROPMALFORMED or FAILFAST is accepted (case-insensitive)");
            failsOption(f, "multiLine", "yes", "Invalid value 'yes' for option 'multiLine': true or false is accepted");
            failsOption(f, "lineSep", "", "'lineSep' cannot be an empty string.");
            failsOption(f, "samplingRatio", "0", "Invalid value '0' for option 'samplingRatio': a number greater than 0 "
                    + "and at most 1 is accepted");
            failsOption(f, "samplingRatio", "1.5", "Invalid value '1.5' for option 'samplingRatio': a number greater "
                    + "than 0 and at most 1 is accepted");
            failsOption(f, "timeZone", "Mars/Base", "Invalid value 'Mars/Base' for option 'timeZone': a time zone id "
                    + "such as 'UTC', 'America/Los_Angeles', '+02:00' or 'GMT+2' is accepted");
            failsOption(f, "enableDateTimeParsingFallback", "maybe", "Invalid value 'maybe' for option "
                    + "'enableDateTimeParsingFallback': true or false is accepted");
            failsOption(f, "timestampFormat", "YYYY-MM-dd", "Invalid value 'YYYY-MM-dd' for option 'timestampFormat': "
                    + "Fail to recognize 'YYYY-MM-dd' pattern in the DateTimeFormatter (All week-based patterns are "
                    + "unsupported since Spark 3.0, detected: Y, Please use the SQL function EXTRACT instead). You can "
                    + "form a valid datetime pattern with the guide from "
                    + "'https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html'");
            failsOption(f, "dateFormat", "dd.MM.yyyy EEE", "Invalid value 'dd.MM.yyyy EEE' for option 'dateFormat': "
                    + "Fail to recognize 'dd.MM.yyyy EEE' pattern in the DateTimeFormatter (Illegal pattern character: "
                    + "E). You can form a valid datetime pattern with the guide from "
                    + "'https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html'");
            failsOption(f, "timestampFormat", "yyyy-MM-dd'T", "Invalid value 'yyyy-MM-dd'T' for option "
                    + "'timestampFormat': Fail to recognize 'yyyy-MM-dd'T' pattern in the DateTimeFormatter (Pattern "
                    + "ends with an incomplete string literal: uuuu-MM-dd'T). You can form a valid datetime pattern "
                    + "with the guide from 'https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html'");
            fails(f, "a int, _corrupt_record int", "The column `_corrupt_record` for corrupt records must have the "
                    + "nullable STRING type, but got \"INT\".");
            fails(f, "a int, bad string NOT NULL", "The column `bad` for corrupt records must have the nullable STRING "
                    + "type, but got \"STRING NOT NULL\".", "columnNameOfCorruptRecord", "bad");
        }
    }

    @Test
    void jsonOptions() {
        for (String flag : new String[] {"allowComments", "allowUnquotedFieldNames", "allowSingleQuotes",
                "allowNumericLeadingZeros", "allowNonNumericNumbers", "allowBackslashEscapingAnyCharacter",
                "allowUnquotedControlChars", "primitivesAsString", "prefersDecimal", "dropFieldIfAllNull",
                "inferTimestamp"}) {
            failsOption("json", flag, "1", "Invalid value '1' for option '" + flag + "': true or false is accepted");
        }
        failsOption("json", "encoding", "klingon", "Invalid value 'klingon' for option 'encoding': a charset name the "
                + "JVM supports, such as UTF-8, UTF-16LE or ISO-8859-1, is accepted");
        failsOption("json", "encoding", "UTF-16", "The UTF-16 encoding must not be included in the denyList when "
                + "multiLine is disabled:\ndenylist: UTF-16, UTF-32");
        failsOption("json", "charset", "UTF-16LE", "The lineSep option must be specified for the UTF-16LE encoding");
        assertThatCode(() -> FileFormats.validate("json", opts("encoding", "UTF-16", "multiLine", "true"), AB))
                .doesNotThrowAnyException();
        assertThatCode(() -> FileFormats.validate("json", opts("encoding", "UTF-16LE", "lineSep", "\n"), AB))
                .doesNotThrowAnyException();
        fails("json", "m map<int, string>", "The JSON datasource doesn't support the column `m` of the type "
                + "\"MAP<INT, STRING>\": JSON object keys are strings, so a map column needs string keys.");
        assertThatCode(() -> FileFormats.validate("json", opts(), StructType.fromDDL(
                "s struct<a: array<map<string, struct<x: int>>>>"))).doesNotThrowAnyException();
    }

    @Test
    void csvOptions() {
        failsOption("csv", "sep", "", "Invalid value '' for option 'sep': Invalid value for delimiter. Delimiter "
                + "cannot be empty string.");
        failsOption("csv", "delimiter", "\\", "Invalid value '\\' for option 'delimiter': Invalid value for "
                + "delimiter. Single backslash is prohibited. It has special meaning as beginning of an escape "
                + "sequence. To get the backslash character, pass a string with two backslashes as the delimiter.");
        failsOption("csv", "sep", "\\u0001", "Invalid value '\\u0001' for option 'sep': Invalid value for delimiter. "
                + "Unsupported special character for delimiter: \\u.");
        failsOption("csv", "header", "yes", "Invalid value 'yes' for option 'header': header flag can be true or false");
        failsOption("csv", "enforceSchema", "no", "Invalid value 'no' for option 'enforceSchema': enforceSchema flag "
                + "can be true or false");
        failsOption("csv", "inferSchema", "1", "Invalid value '1' for option 'inferSchema': inferSchema flag can be "
                + "true or false");
        failsOption("csv", "ignoreLeadingWhiteSpace", "x", "Invalid value 'x' for option 'ignoreLeadingWhiteSpace': "
                + "ignoreLeadingWhiteSpace flag can be true or false");
        failsOption("csv", "ignoreTrailingWhiteSpace", "x", "Invalid value 'x' for option 'ignoreTrailingWhiteSpace': "
                + "ignoreTrailingWhiteSpace flag can be true or false");
        failsOption("csv", "preferDate", "x", "Invalid value 'x' for option 'preferDate': preferDate flag can be true "
                + "or false");
        failsOption("csv", "quote", "''", "Invalid value '''' for option 'quote': quote cannot be more than one character");
        failsOption("csv", "escape", "\\\\", "Invalid value '\\\\' for option 'escape': escape cannot be more than one "
                + "character");
        failsOption("csv", "comment", "//", "Invalid value '//' for option 'comment': comment cannot be more than one "
                + "character");
        failsOption("csv", "charToEscapeQuoteEscaping", "ab", "Invalid value 'ab' for option "
                + "'charToEscapeQuoteEscaping': charToEscapeQuoteEscaping cannot be more than one character");
        failsOption("csv", "maxColumns", "many", "Invalid value 'many' for option 'maxColumns': maxColumns should be "
                + "an integer. Found many");
        failsOption("csv", "maxColumns", "0", "Invalid value '0' for option 'maxColumns': a positive whole number is "
                + "accepted");
        failsOption("csv", "maxCharsPerColumn", "0", "Invalid value '0' for option 'maxCharsPerColumn': -1 "
                + "(unlimited) or a positive whole number is accepted");
        failsOption("csv", "lineSep", "abc", "'lineSep' can contain only 1 character.");
        failsOption("csv", "encoding", "windows-1252", "The value of parameter(s) `encoding` in `CSVOptions` is "
                + "invalid: expects one of the charsets 'US-ASCII', 'ISO-8859-1', 'UTF-8', 'UTF-16BE', 'UTF-16LE', "
                + "'UTF-16', 'UTF-32', but got windows-1252.");
        failsOption("csv", "unescapedQuoteHandling", "LENIENT", "Invalid value 'LENIENT' for option "
                + "'unescapedQuoteHandling': STOP_AT_CLOSING_QUOTE, BACK_TO_DELIMITER, STOP_AT_DELIMITER, SKIP_VALUE "
                + "or RAISE_ERROR is accepted (case-insensitive)");
        fails("csv", "a int, s struct<x: int>", "The CSV datasource doesn't support the column `s` of the type "
                + "\"STRUCT<x: INT>\".");
        fails("csv", "a array<int>", "The CSV datasource doesn't support the column `a` of the type \"ARRAY<INT>\".");
        assertThatCode(() -> FileFormats.validate("csv", opts("sep", "\\t", "quote", "", "escape", "", "comment", "",
                "lineSep", "\r\n", "encoding", "utf-16le"), AB)).doesNotThrowAnyException();
    }

    @Test
    void textOptions() {
        failsOption("text", "wholetext", "sometimes", "Invalid value 'sometimes' for option 'wholetext': true or false "
                + "is accepted");
        failsOption("text", "lineSep", "", "'lineSep' cannot be an empty string.");
        fails("text", "value string, other string", "Text data source supports only a single column, and you have 2 "
                + "columns.");
        fails("text", "value int", "The Text datasource doesn't support the column `value` of the type \"INT\".");
        assertThatCode(() -> FileFormats.validate("text", opts("lineSep", "||"), StructType.fromDDL("line string")))
                .doesNotThrowAnyException();
    }
}
