package io.sluice.files.format;

import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.optsWithMode;
import static io.sluice.files.format.FormatFixture.rowsOrError;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.api.Options;
import io.sluice.api.types.StructType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The byte path of line-by-line UTF-8 CSV ({@link Utf8CharLines} and {@link CsvTokenizer#tokenizeSimpleLine}) gives
 * exactly what the reader path gives: the same rows, or the same error, for generated files full of the cases
 * either could get wrong.
 */
class CsvBytePathTest {
    @TempDir
    Path dir;

    @Test
    void simpleLinesSplitAsTheTokenizerSplitsThem() {
        CsvTokenizer t = new CsvTokenizer(CsvSettings.of(opts()));
        char[] line = ",a,,bc d,\"".toCharArray();
        assertThat(t.tokenizeSimpleLine(line, 0, 8)).isTrue(); // ",a,,bc d"
        assertThat(t.tokens()).containsExactly(null, "a", null, "bc d");
        assertThat(t.tokenizeSimpleLine(line, 0, 9)).isFalse(); // ends with a delimiter
        assertThat(t.tokenizeSimpleLine(line, 0, 10)).isFalse(); // a value starts with the quote
        assertThat(t.tokenizeSimpleLine("x\"y,z".toCharArray(), 0, 5)).isTrue(); // a quote inside a value is a character
        assertThat(t.tokens()).containsExactly("x\"y", "z");
        assertThat(new CsvTokenizer(CsvSettings.of(opts("ignoreLeadingWhiteSpace", "true")))
                .tokenizeSimpleLine("a,b".toCharArray(), 0, 3)).isFalse();
        assertThat(new CsvTokenizer(CsvSettings.of(opts("maxColumns", "2")))
                .tokenizeSimpleLine("a,b,c".toCharArray(), 0, 5)).isFalse(); // the tokenizer gives the error
    }

    @Test
    void generatedFilesReadTheSameOnBothPathsInEveryModeAndWithOptions() throws IOException {
        Random random = new Random(20261129L);
        List<String[]> optionSets = List.of(
                new String[] {},
                new String[] {"header", "true"},
                new String[] {"sep", ";", "nullValue", "NA"},
                new String[] {"comment", "#", "emptyValue", "EMPTY"},
                new String[] {"ignoreLeadingWhiteSpace", "true", "ignoreTrailingWhiteSpace", "true"},
                new String[] {"maxColumns", "4", "maxCharsPerColumn", "12"},
                new String[] {"quote", "'", "escape", "'"},
                new String[] {"timestampFormat", "yyyy-MM-dd HH:mm:ss", "timeZone", "UTC"});
        for (int round = 0; round < 16; round++) {
            String[] extra = optionSets.get(round % optionSets.size());
            Path file = dir.resolve("in-" + round + ".csv");
            Files.write(file, content(random, extra));
            for (String mode : List.of("PERMISSIVE", "DROPMALFORMED", "FAILFAST")) {
                Options o = optsWithMode(extra, mode);
                for (String ddl : List.of("a string, b long, c timestamp", "a string, b string, c string, d string",
                        "a int, _corrupt_record string, b string", "a string")) {
                    StructType schema = StructType.fromDDL(ddl);
                    Object reader = rowsOrError(new CsvFormat(CsvSettings.of(o), schema, false), file);
                    Object bytes = rowsOrError(new CsvFormat(CsvSettings.of(o), schema, true), file);
                    assertThat(bytes).as("round %d, mode %s, schema %s, options %s", round, mode, ddl,
                            String.join(",", extra)).isEqualTo(reader);
                }
            }
        }
    }

    private static byte[] content(Random r, String[] options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (r.nextInt(4) == 0) {
            out.write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}); // a byte order mark
        }
        String sep = options.length > 1 && options[0].equals("sep") ? options[1] : ",";
        for (int i = 0; i < 200; i++) {
            int values = 1 + r.nextInt(5);
            for (int v = 0; v < values; v++) {
                if (v > 0) {
                    out.write(sep.getBytes(StandardCharsets.UTF_8));
                }
                out.write(value(r));
            }
            if (r.nextInt(15) == 0) {
                out.write(sep.getBytes(StandardCharsets.UTF_8)); // a delimiter at the end of the line
            }
            out.write(switch (r.nextInt(12)) {
                case 0 -> new byte[] {'\r'};
                case 1 -> new byte[] {'\r', '\n'};
                case 2 -> new byte[] {'\n', '\n'}; // an empty line
                case 3 -> new byte[] {'\n', ' ', ' ', '\n'}; // a blank one
                default -> new byte[] {'\n'};
            });
        }
        return out.toByteArray();
    }

    private static byte[] value(Random r) {
        String s = switch (r.nextInt(22)) {
            case 0 -> "";
            case 1 -> "\"quoted, with sep\"";
            case 2 -> "\"a \"\"doubled\"\" quote\"";
            case 3 -> "'single'";
            case 4 -> "in\"side";
            case 5 -> " padded ";
            case 6 -> "\u00e9t\u00e9";
            case 7 -> "\u017C\u00F3\u0142w";
            case 8 -> "#not a comment";
            case 9 -> "NA";
            case 10 -> "2026-10-04T00:00:20.000Z";
            case 11 -> "2026-10-04 00:00:20";
            case 12 -> "-42";
            case 13 -> "99999999999999999999";
            case 14 -> "x".repeat(20);
            case 15 -> "\"open quote";
            case 16 -> "tab\there";
            case 17 -> "a\\b";
            default -> Integer.toString(r.nextInt(1000));
        };
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (r.nextInt(40) == 0) {
            b = new byte[] {'b', (byte) 0xFF, (byte) 0xC3, 'd'}; // malformed UTF-8
        }
        return b;
    }
}
