package io.sluice.files.format;

import io.sluice.api.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import static io.sluice.files.format.FormatFixture.gzip;
import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.read;
import static io.sluice.files.format.FormatFixture.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvFormatTest {
    @TempDir
    Path dir;

    private List<Row> csv(String content, String ddl, String... options) throws IOException {
        return read("csv", opts(options), ddl, write(dir, "in.csv", content));
    }

    private List<Row> strings(String content, String... options) throws IOException {
        return csv(content, "a string, b string", options);
    }

    @Test
    void columnsByPositionWithEachType() throws IOException {
        String ddl = "i int, l bigint, d double, f float, b boolean, t timestamp, dt date, c decimal(6,2), s string, "
                + "y tinyint, h smallint";
        assertThat(csv("1,9000000000,1.5,2.5,TRUE,2026-10-04T00:00:00.000Z,2026-10-04,1234.567,x,-128,300\n"
                        + "+2,-1,1e3,NaN,false,2026-10-04 01:00:00,2026-10-04 12:00,\"1,000.5\",\" y \",0,0\n",
                ddl, "timeZone", "UTC"))
                .containsExactly(
                        Row.of(1, 9_000_000_000L, 1.5, 2.5f, true, Instant.parse("2026-10-04T00:00:00Z"),
                                LocalDate.of(2026, 10, 4), new BigDecimal("1234.57"), "x", (byte) -128, (short) 300),
                        Row.of(2, -1L, 1000.0, Float.NaN, false, Instant.parse("2026-10-04T01:00:00Z"),
                                LocalDate.of(2026, 10, 4), new BigDecimal("1000.50"), " y ", (byte) 0, (short) 0));
    }

    @Test
    void quotingAndEscapingFollowUnivocityWithSparksDefaults() throws IOException {
        String lines = String.join("\n",
                "\"a,b\",plain",                        // delimiter inside quotes
                "\"say \\\"hi\\\"\",x",                  // escaped quotes
                "\"back\\\\slash\",\"keep\\n\"",         // escaped escape; an escape before another char is kept
                "\"a\"\"b\",c",                          // a doubled quote is not an escape by default
                "\"closed\"   ,padded",                  // whitespace after the closing quote is dropped
                " \"lead\",x",                            // text before the quote: not a quoted value
                "\"open,x",                               // unclosed quote runs to the end of the line
                "\"\",",                                  // quoted empty and unquoted empty: both null by default
                "x\"y\",z",                               // quotes inside an unquoted value are literal
                "\"a\"b,c");                              // text after the closing quote
        assertThat(strings(lines + "\n", "mode", "DROPMALFORMED")).containsExactly(
                Row.of("a,b", "plain"),
                Row.of("say \"hi\"", "x"),
                Row.of("back\\slash", "keep\\n"),
                Row.of("\"a\"\"b\"", "c"),
                Row.of("closed", "padded"),
                Row.of(" \"lead\"", "x"),
                Row.of(null, null),
                Row.of("x\"y\"", "z"),
                Row.of("\"a\"b", "c"));
    }

    @Test
    void anUnclosedQuoteWithoutMultiLineIsAOneTokenRecord() throws IOException {
        assertThat(strings("\"open,x\n", "mode", "PERMISSIVE")).containsExactly(Row.of("open,x", null));
    }

    @Test
    void escapeEqualToQuoteReadsRfc4180() throws IOException {
        assertThat(strings("\"a\"\"b\",\"\"\"\"\n\"x\\\"y\",z\n", "escape", "\""))
                .containsExactly(Row.of("a\"b", "\""), Row.of("\"x\\\"y\"", "z"));
    }

    @Test
    void nullValueAndEmptyValue() throws IOException {
        assertThat(csv("NULL,,\"\"\n", "a string, b string, c string", "nullValue", "NULL"))
                .containsExactly(Row.of(null, null, ""));
        assertThat(csv("x,,\"\"\n", "a string, b string, c string", "emptyValue", "EMPTY"))
                .containsExactly(Row.of("x", null, "EMPTY"));
        assertThat(csv("-,5\n", "a int, b int", "nullValue", "-")).containsExactly(Row.of(null, 5));
    }

    @Test
    void tooFewAndTooManyTokensAreMalformed() throws IOException {
        String content = "1,a,x\n2\n3,c,z,extra\n4,d,w\n";
        String ddl = "n int, s string, t string, _corrupt_record string";
        assertThat(csv(content, ddl)).containsExactly(
                Row.of(1, "a", "x", null),
                Row.of(2, null, null, "2"),
                Row.of(3, "c", "z", "3,c,z,extra"),
                Row.of(4, "d", "w", null));
        assertThat(csv(content, "n int, s string, t string")).containsExactly(
                Row.of(1, "a", "x"), Row.of(2, null, null), Row.of(3, "c", "z"), Row.of(4, "d", "w"));
        assertThat(csv(content, ddl, "mode", "DROPMALFORMED"))
                .containsExactly(Row.of(1, "a", "x", null), Row.of(4, "d", "w", null));
        Path f = write(dir, "few.csv", content);
        assertThatThrownBy(() -> read("csv", opts("mode", "FAILFAST"), "n int, s string, t string", f))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessage("Malformed records are detected in record parsing: file " + f + ", line 2: 2\n"
                        + "Reason: Malformed CSV record: it has 1 token and the schema has 3 columns\n"
                        + "Parse Mode: FAILFAST. To process malformed records as null result, try setting the option "
                        + "'mode' as 'PERMISSIVE'.");
    }

    @Test
    void aBadValueNullsItsColumnAndKeepsTheOthers() throws IOException {
        assertThat(csv("x,2,true\n1, 2,yes\n", "a int, b int, c boolean, _corrupt_record string"))
                .containsExactly(Row.of(null, 2, true, "x,2,true"), Row.of(1, null, null, "1, 2,yes"));
        Path f = write(dir, "v.csv", "1,2\n1,x\n");
        assertThatThrownBy(() -> read("csv", opts("mode", "FAILFAST"), "a int, b int", f))
                .hasMessage("Malformed records are detected in record parsing: file " + f + ", line 2: 1,x\n"
                        + "Reason: For input string: \"x\"\n"
                        + "Parse Mode: FAILFAST. To process malformed records as null result, try setting the option "
                        + "'mode' as 'PERMISSIVE'.");
    }

    @Test
    void aNullInANotNullColumnIsMalformed() throws IOException {
        assertThat(csv("1,\n", "a int, b string NOT NULL, _corrupt_record string"))
                .containsExactly(Row.of(1, null, "1,"));
    }

    @Test
    void floatsAndDoublesHaveConfigurableSpecialValues() throws IOException {
        assertThat(csv("Inf,-Inf,NaN\nInfinity,-Infinity,NaN\n", "a double, b double, c float"))
                .containsExactly(Row.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Float.NaN),
                        Row.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Float.NaN));
        assertThat(csv("big,small,nan\n", "a double, b double, c double",
                "positiveInf", "big", "negativeInf", "small", "nanValue", "nan"))
                .containsExactly(Row.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN));
    }

    @Test
    void headerIsSkippedAfterBlankAndCommentLinesAndIgnoredByDefault() throws IOException {
        assertThat(csv("\n# note\nx,y\n1,2\n\n#c\n3,4\n", "a int, b int", "header", "true", "comment", "#"))
                .containsExactly(Row.of(1, 2), Row.of(3, 4));
        assertThat(csv("A,B\n1,2\n", "a int, b int", "header", "true", "enforceSchema", "false"))
                .containsExactly(Row.of(1, 2));
    }

    @Test
    void withoutEnforceSchemaAHeaderThatDiffersFailsTheFile() throws IOException {
        Path f = write(dir, "h.csv", "a,c\n1,2\n");
        assertThatThrownBy(() -> read("csv", opts("header", "true", "enforceSchema", "false"), "a int, b int", f))
                .isInstanceOf(IOException.class)
                .hasMessage("CSV header does not conform to the schema.\n Header: a, c\n Schema: a, b\n"
                        + "Expected: b but found: c\nCSV file: " + f.toUri());
        Path g = write(dir, "g.csv", "a\n1\n");
        assertThatThrownBy(() -> read("csv", opts("header", "true", "enforceSchema", "false"), "a int, b int", g))
                .hasMessage("Number of column in CSV header is not equal to number of fields in the schema:\n"
                        + " Header length: 1, schema size: 2\nCSV file: " + g.toUri());
        assertThat(read("csv", opts("header", "true"), "a int, b int", g)).containsExactly(Row.of(1, null));
    }

    @Test
    void commentsAreOffByDefaultAndOnlyAtTheStartOfALine() throws IOException {
        assertThat(strings("#a,b\n c,#d\n")).containsExactly(Row.of("#a", "b"), Row.of(" c", "#d"));
        assertThat(strings("#a,b\n #c,d\n", "comment", "#")).containsExactly(Row.of(" #c", "d"));
    }

    @Test
    void whitespaceIsKeptUnlessTheIgnoreOptionsAreSet() throws IOException {
        String content = "  a  ,  \"b\"  \n";
        assertThat(strings(content)).containsExactly(Row.of("  a  ", "  \"b\"  "));
        assertThat(strings(content, "ignoreLeadingWhiteSpace", "true")).containsExactly(Row.of("a  ", "b"));
        assertThat(strings(content, "ignoreTrailingWhiteSpace", "true")).containsExactly(Row.of("  a", "  \"b\""));
        assertThat(strings(content, "ignoreLeadingWhiteSpace", "true", "ignoreTrailingWhiteSpace", "true"))
                .containsExactly(Row.of("a", "b"));
    }

    @Test
    void separators() throws IOException {
        assertThat(strings("a;b\n", "sep", ";")).containsExactly(Row.of("a", "b"));
        assertThat(strings("a\tb\n", "delimiter", "\\t")).containsExactly(Row.of("a", "b"));
        assertThat(strings("a\tb\n", "sep", "\t")).containsExactly(Row.of("a", "b"));
        assertThat(strings("a||b|c\n", "sep", "||")).containsExactly(Row.of("a", "b|c"));
        assertThat(strings("\"x||y\"||z\n", "sep", "||")).containsExactly(Row.of("x||y", "z"));
        assertThat(strings("a\u0001b\n", "sep", "\u0001")).containsExactly(Row.of("a", "b"));
    }

    @Test
    void multiLineLetsQuotedValuesSpanLines() throws IOException {
        String content = "id,text\r\n1,\"line one\r\nline two\"\r\n\r\n2,plain\r\n3,\"x\"\"y\"";
        assertThat(csv(content, "id int, text string", "multiLine", "true", "header", "true", "escape", "\""))
                .containsExactly(Row.of(1, "line one\nline two"), Row.of(2, "plain"), Row.of(3, "x\"y"));
        assertThat(csv("1,\"a\nb\"\n", "id int, text string"))
                .containsExactly(Row.of(1, "a"), Row.of(null, null));
    }

    @Test
    void multiLineMalformedRecordsKeepTheirRawTextAndStartLine() throws IOException {
        String content = "1,\"a\nb\"\n2\n3,\"c\nd\",extra\n";
        assertThat(csv(content, "id int, text string, _corrupt_record string", "multiLine", "true"))
                .containsExactly(Row.of(1, "a\nb", null), Row.of(2, null, "2"), Row.of(3, "c\nd", "3,\"c\nd\",extra"));
        Path f = write(dir, "m.csv", content);
        assertThatThrownBy(() -> read("csv", opts("multiLine", "true", "mode", "FAILFAST"), "id int, text string", f))
                .hasMessageStartingWith("Malformed records are detected in record parsing: file " + f + ", line 3: 2\n");
        Path g = write(dir, "m2.csv", "1,x\n2,\"p\nq\",extra\n");
        assertThatThrownBy(() -> read("csv", opts("multiLine", "true", "mode", "FAILFAST"), "id int, text string", g))
                .hasMessageStartingWith("Malformed records are detected in record parsing: file " + g
                        + ", line 2: 2,\"p\nq\",extra\n");
    }

    @Test
    void multiLineSkipsCommentAndEmptyLinesButNotWhitespaceLines() throws IOException {
        assertThat(csv("#c\n1,a\n\n#x,y\n2,\"b\n#not a comment\"\n", "n int, s string", "multiLine", "true",
                "comment", "#"))
                .containsExactly(Row.of(1, "a"), Row.of(2, "b\n#not a comment"));
        assertThat(csv("1,a\n  \n2,b\n", "n int, s string, _corrupt_record string", "multiLine", "true"))
                .containsExactly(Row.of(1, "a", null), Row.of(null, null, "  "), Row.of(2, "b", null));
    }

    @Test
    void multiLineWithLineSepKeepsTheRawSeparatorInsideQuotes() throws IOException {
        assertThat(csv("1,\"a\r\nb\"\r\n2,c\r\n", "id int, text string", "multiLine", "true", "lineSep", "\r\n"))
                .containsExactly(Row.of(1, "a\r\nb"), Row.of(2, "c"));
    }

    @Test
    void lineSepWithoutMultiLine() throws IOException {
        assertThat(strings("a,b;c,d;", "lineSep", ";")).containsExactly(Row.of("a", "b"), Row.of("c", "d"));
    }

    @Test
    void unescapedQuoteHandlingModes() throws IOException {
        String content = "\"a\"b\",c\n";
        assertThat(strings(content)).containsExactly(Row.of("\"a\"b\"", "c"));
        assertThat(strings(content, "unescapedQuoteHandling", "stop_at_closing_quote")).containsExactly(Row.of("a\"b", "c"));
        assertThat(strings(content, "unescapedQuoteHandling", "SKIP_VALUE")).containsExactly(Row.of(null, "c"));
        Path f = write(dir, "q.csv", content);
        assertThatThrownBy(() -> read("csv", opts("unescapedQuoteHandling", "RAISE_ERROR"), "a string, b string", f))
                .isInstanceOf(IOException.class)
                .hasMessage("Cannot parse CSV file " + f + " at line 1: Unescaped quote character '\"' inside quoted "
                        + "value of CSV field. To allow unescaped quotes, set 'parseUnescapedQuotes' to 'true' in the "
                        + "CSV parser settings. Cannot parse CSV input.");
    }

    @Test
    void columnAndValueLimitsFailTheFile() throws IOException {
        Path f = write(dir, "wide.csv", "1,2,3\n");
        assertThatThrownBy(() -> read("csv", opts("maxColumns", "2"), "a int, b int", f))
                .hasMessage("Cannot parse CSV file " + f + " at line 1: Number of columns processed may have exceeded "
                        + "limit of 2 columns. Use the option maxColumns to define the maximum number of columns a "
                        + "record can have");
        Path g = write(dir, "long.csv", "abcdef,x\n");
        assertThatThrownBy(() -> read("csv", opts("maxCharsPerColumn", "3"), "a string, b string", g))
                .hasMessageStartingWith("Cannot parse CSV file " + g + " at line 1: Length of parsed input (6) exceeds "
                        + "the maximum number of characters defined in your parser settings (3).");
    }

    @Test
    void encodingBomAndCompression() throws IOException {
        Path latin = write(dir, "l.csv", "é,ü\n", StandardCharsets.ISO_8859_1);
        assertThat(read("csv", opts("encoding", "ISO-8859-1"), "a string, b string", latin)).containsExactly(Row.of("é", "ü"));
        Path bom = dir.resolve("bom.csv");
        Files.write(bom, "\uFEFFa,b\n1,2\n".getBytes(StandardCharsets.UTF_8));
        assertThat(read("csv", opts("header", "true", "enforceSchema", "false"), "a int, b int", bom))
                .containsExactly(Row.of(1, 2));
        assertThat(read("csv", opts("multiLine", "true"), "a string, b string", bom))
                .containsExactly(Row.of("a", "b"), Row.of("1", "2"));
        Path gz = gzip(dir, "z.csv.gz", "1,2\n3,4\n");
        assertThat(read("csv", opts(), "a int, b int", gz)).containsExactly(Row.of(1, 2), Row.of(3, 4));
        assertThat(read("csv", opts("multiLine", "true"), "a int, b int", gz)).containsExactly(Row.of(1, 2), Row.of(3, 4));
    }

    @Test
    void timestampAndDateFormats() throws IOException {
        assertThat(csv("04/10/2026 13:05,04.10.2026\n2026-10-04T00:00:00Z,2026-10-04\n", "t timestamp, d date",
                "timestampFormat", "dd/MM/yyyy HH:mm", "dateFormat", "dd.MM.yyyy", "timeZone", "UTC"))
                .containsExactly(Row.of(Instant.parse("2026-10-04T13:05:00Z"), LocalDate.of(2026, 10, 4)),
                        Row.of(null, null));
    }

    @Test
    void aLongFileAcrossBufferBoundaries() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            sb.append(i).append(",\"v").append(i).append("\"\r\n");
        }
        List<Row> rows = csv(sb.toString(), "a int, b string");
        assertThat(rows).hasSize(50_000);
        assertThat(rows.get(49_999)).isEqualTo(Row.of(49_999, "v49999"));
        List<Row> multi = csv(sb.toString(), "a int, b string", "multiLine", "true");
        assertThat(multi).isEqualTo(rows);
    }
}
