package io.sluice.files.format;

import io.sluice.api.Options;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.optsWithMode;
import static io.sluice.files.format.FormatFixture.rowsOrError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON lines fast path ({@link FlatJsonScanner}) against the general Jackson path: on generated lines, good
 * and broken, every parse mode and several reader options give the same rows, the same corrupt-record text and the
 * same FAILFAST error.
 */
class FlatJsonScannerTest {
    private static final String SCHEMA = "a string, b long, c int, d short, e boolean, t timestamp, dt date, "
            + "x double, s struct<k: int>, _corrupt_record string";

    @TempDir
    Path dir;

    @Test
    void theCommonLineTakesTheFastPathAndGivesTheGeneralPathsValues() throws IOException {
        String line = "{\"event_id\": \"e-1-0\", \"user_id\": \"u80000\", \"amount_cents\": 580000, "
                + "\"event_time\": \"2026-10-04T00:00:20.000Z\"}";
        StructType schema = StructType.fromDDL("event_id string, user_id string, amount_cents long, event_time timestamp");
        FlatJsonScanner scanner = new FlatJsonScanner(schema, new int[] {0, 1, 2, 3}, schema,
                JsonSettings.of(opts()).temporal);
        byte[] b = ("  " + line + "  ").getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.scan(b, 0, b.length).toArray()).containsExactly("e-1-0", "u80000", 580000L,
                Instant.parse("2026-10-04T00:00:20Z"));
    }

    @Test
    void anythingOutsideTheFlatStrictFormGoesToTheGeneralPath() {
        StructType schema = StructType.fromDDL("a string, b long, t timestamp, x double");
        FlatJsonScanner scanner = new FlatJsonScanner(schema, new int[] {0, 1, 2, 3}, schema,
                JsonSettings.of(opts("timeZone", "UTC")).temporal);
        for (String line : List.of("{\"a\": 'x'}", "{\"b\": 01}", "{\"b\": 1.0}", "{\"b\": 1e3}", "{\"b\": \"1\"}",
                "{\"a\": 1}", "{\"a\": \"x\",}", "{\"a\": \"x\"", "{\"a\": \"x\\q\"}", "{\"a\": [1]}", "{\"z\": {}}",
                "{\"x\": 1.5}", "{\"t\": \"\"}", "{\"t\": \"not a time\"}", "{\"b\": 1234567890123456789}",
                "{a: 1}", "[{\"a\": \"x\"}]", "\uFEFF{}", "{\"a\": \"x\"} ", "{\"a\"\f:\"x\"}", "{/* c */}",
                "{\"b\": truex}", "{\"b\": -}", "{\"a\u00e9\": 1}", "{\"a\": \"\u0001\"}", "  ",
                "{\"" + "n".repeat(2000) + "\": 1}")) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            boolean fast = !line.equals("{\"a\": \"x\"} ");
            if (fast) {
                assertThat(scanner.scan(b, 0, b.length)).as(line).isNull();
            } else {
                assertThat(scanner.scan(b, 0, b.length).toArray()).as(line).containsExactly("x", null, null, null);
            }
        }
    }

    @Test
    void generatedLinesReadTheSameOnBothPathsInEveryModeAndWithOptions() throws IOException {
        Random random = new Random(20261129L);
        List<String[]> optionSets = List.of(
                new String[] {},
                new String[] {"timeZone", "UTC"},
                new String[] {"allowSingleQuotes", "false", "allowNumericLeadingZeros", "true"},
                new String[] {"allowUnquotedControlChars", "true", "allowBackslashEscapingAnyCharacter", "true"},
                new String[] {"allowComments", "true", "allowUnquotedFieldNames", "true", "allowNonNumericNumbers",
                        "false"},
                new String[] {"timestampFormat", "yyyy-MM-dd HH:mm:ss", "dateFormat", "yyyy/MM/dd", "timeZone",
                        "America/New_York"},
                new String[] {"lineSep", "|"});
        int fastLines = 0;
        for (int round = 0; round < 14; round++) {
            String[] extra = optionSets.get(round % optionSets.size());
            boolean pipe = extra.length == 2 && extra[0].equals("lineSep");
            ByteArrayOutputStream content = new ByteArrayOutputStream();
            for (int i = 0; i < 250; i++) {
                byte[] line = line(random);
                if (pipe) {
                    line = new String(line, StandardCharsets.ISO_8859_1).replace('|', '!')
                            .getBytes(StandardCharsets.ISO_8859_1);
                }
                content.write(line);
                content.write(pipe ? '|' : random.nextInt(10) == 0 ? '\r' : '\n');
            }
            Path file = dir.resolve("in-" + round + ".json");
            Files.write(file, content.toByteArray());
            for (String mode : List.of("PERMISSIVE", "DROPMALFORMED", "FAILFAST")) {
                Options o = optsWithMode(extra, mode);
                for (String ddl : List.of(SCHEMA, "b long, a string", "t timestamp, a string, a long",
                        "`\u00e9` string, `a b` long, a string")) {
                    StructType schema = StructType.fromDDL(ddl);
                    Object general = rowsOrError(new JsonFormat(JsonSettings.of(o), schema, false), file);
                    Object fast = rowsOrError(new JsonFormat(JsonSettings.of(o), schema, true), file);
                    assertThat(fast).as("round %d, mode %s, schema %s, options %s", round, mode, ddl,
                            String.join(",", extra)).isEqualTo(general);
                }
            }
            fastLines += countFast(file, pipe);
        }
        // The generator is meant to exercise both paths: a good share of lines must be read by the fast one.
        assertThat(fastLines).isGreaterThan(14 * 250 / 10);
    }

    private int countFast(Path file, boolean pipe) throws IOException {
        JsonSettings settings = JsonSettings.of(opts());
        StructType schema = StructType.fromDDL(SCHEMA);
        int n = schema.size() - 1;
        int[] positions = new int[n];
        for (int i = 0; i < n; i++) {
            positions[i] = i;
        }
        StructType fields = StructType.fromDDL(SCHEMA.substring(0, SCHEMA.lastIndexOf(',')));
        FlatJsonScanner scanner = new FlatJsonScanner(fields, positions, schema, settings.temporal);
        String text = Files.readString(file, StandardCharsets.ISO_8859_1);
        int count = 0;
        for (String l : text.split(pipe ? "\\|" : "[\r\n]")) {
            byte[] b = l.getBytes(StandardCharsets.ISO_8859_1);
            if (b.length > 0 && scanner.scan(b, 0, b.length) != null) {
                count++;
            }
        }
        return count;
    }

    // ------------------------------------------------------------------ generator

    private static final String[] NAMES = {"a", "b", "c", "d", "e", "t", "dt", "x", "s", "A", "B", "T", "zz",
        "_corrupt_record", "a\\u0062", "\u00e9", "a b", ""};

    private static byte[] line(Random r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int shape = r.nextInt(40);
        if (shape == 0) {
            return bytes("");
        }
        if (shape == 1) {
            return bytes("[" + object(r) + ", " + object(r) + "]");
        }
        if (shape == 2) {
            return bytes(pick(r, "   ", "null", "42", "\"s\"", "{", "}", "[]", "\uFEFF{\"a\": \"x\"}",
                    "{\"a\": \"x\"} trailing", "{\"a\": \"x\"}{\"a\": \"y\"}", "{\"a\"\u0000: 1}", "/* c */ {\"b\": 1}",
                    "{'a': 'single'}", "{a: \"unquoted\"}", "{\"b\": 1,}", "{\"b\": 1 \"c\": 2}"));
        }
        String s = object(r);
        if (r.nextInt(12) == 0 && s.length() > 2) {
            s = s.substring(0, r.nextInt(s.length())); // truncated
        }
        out.writeBytes(bytes(s));
        if (r.nextInt(25) == 0) {
            // a raw byte that is not valid UTF-8, or a control character, somewhere in the line
            byte[] b = out.toByteArray();
            if (b.length > 0) {
                b[r.nextInt(b.length)] = (byte) pick(r, 0xC3, 0xFF, 0x80, 0x01, 0x7F, 0xE2);
            }
            return b;
        }
        return out.toByteArray();
    }

    private static String object(Random r) {
        StringBuilder b = new StringBuilder();
        b.append(ws(r)).append('{').append(ws(r));
        int n = r.nextInt(9);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                b.append(ws(r)).append(',').append(ws(r));
            }
            String name = r.nextInt(3) == 0 ? NAMES[r.nextInt(NAMES.length)] : NAMES[r.nextInt(8)];
            b.append('"').append(name).append('"').append(ws(r)).append(':').append(ws(r));
            b.append(value(r, name));
        }
        b.append(ws(r)).append('}').append(ws(r));
        return b.toString();
    }

    private static String ws(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> " ";
            case 1 -> "\t";
            case 2 -> "  ";
            case 3 -> r.nextInt(4) == 0 ? "\f" : " \t ";
            default -> "";
        };
    }

    private static String value(Random r, String name) {
        int k = r.nextInt(10);
        if (k == 0) {
            return anyValue(r);
        }
        return switch (name) {
            case "b", "c", "d" -> integer(r);
            case "e" -> pick(r, "true", "false", "null", "tru", "True", "1");
            case "t" -> r.nextInt(5) == 0 ? integer(r) : "\"" + timestamp(r) + "\"";
            case "dt" -> "\"" + pick(r, "2026-10-04", "2026/10/04", "2026-02-30", "20261004", "2026-10-04T01:00",
                    "", "x") + "\"";
            case "x" -> pick(r, "1.5", "2", "-0.0", "1e3", "\"NaN\"", "NaN");
            case "s" -> pick(r, "{\"k\": 1}", "{}", "{\"k\": \"x\"}", "null");
            default -> string(r);
        };
    }

    private static String anyValue(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> integer(r);
            case 1 -> string(r);
            case 2 -> pick(r, "true", "false", "null", "nul", "nullx");
            case 3 -> pick(r, "1.25", "-0.5e-3", "1E+2", "1.", ".5", "-", "+1", "0x10", "1e", "Infinity", "-Infinity");
            case 4 -> pick(r, "[1, 2]", "{\"k\": [true]}", "[]", "{}", "[{\"a\": \"x\"}]");
            case 5 -> "\"" + timestamp(r) + "\"";
            case 6 -> "'single'";
            default -> pick(r, "12345678901234567890", "-9223372036854775808", "9223372036854775807",
                    "999999999999999999", "-999999999999999999", "2147483648", "32768", "-32769");
        };
    }

    private static String integer(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> "0";
            case 1 -> "-0";
            case 2 -> "0" + r.nextInt(10);
            case 3 -> Long.toString(r.nextLong());
            case 4 -> Integer.toString(r.nextInt());
            case 5 -> Integer.toString(r.nextInt(70000) - 35000);
            case 6 -> pick(r, "2147483647", "-2147483648", "32767", "-32768", "1.0", "1e2", "\"12\"", "007");
            default -> Integer.toString(r.nextInt(1000));
        };
    }

    private static String timestamp(Random r) {
        return pick(r, "2026-10-04T00:00:20.000Z", "2026-10-04T00:00:20Z", "2026-10-04 00:00:20",
                "2026-10-04T00:00:20.123456789+02:00", "2026-10-04", "2026-10-04T00:00:20GMT", "2026-13-04T00:00:00Z",
                "2026-10-04T25:00:00Z", "  2026-10-04T00:00:20Z ", "2026-10-04T00:00:20.5-07:30", "", "yesterday",
                "2026-10-04T00:00:20\\u005a", "2026-03-29T02:30:00", "1970-01-01T00:00:00Z", "+2026-10-04", "2026");
    }

    private static String string(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> "\"\"";
            case 1 -> "\"caf\u00e9 \u4e2d \uD83D\uDE00\"";
            case 2 -> "\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t\"";
            case 3 -> "\"\\u00e9\\u4E2D\\uD83D\\uDE00 \\uZZZZ\"";
            case 4 -> "\"\\u0041\\u0000\"";
            case 5 -> "\"bad \\x escape\"";
            case 6 -> "\"tab\tinside\"";
            case 7 -> "\"mixed \\n \u00e9\"";
            case 8 -> "\"\uFFFD\"";
            case 9 -> "\"unterminated";
            default -> "\"v" + r.nextInt(100000) + "\"";
        };
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }

    private static int pick(Random r, int... options) {
        return options[r.nextInt(options.length)];
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
