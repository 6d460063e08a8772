package io.sluice.files.format;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.readAll;
import static io.sluice.files.format.FormatFixture.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability (issue 14): values past a bound of the JSON reader (string length, number length, nesting depth,
 * field-name length) follow the parse mode with the true reason, on the fast path and on Jackson's, in JSON lines
 * and multiLine; and a string past Jackson's own default of 20,000,000 characters is read. Small bounds keep the
 * files small; one test reads a real 25,000,000-character value.
 */
class JsonReadingLimitsTest {
    private static final JsonLimits SMALL = new JsonLimits(100, 20, 5, 30);
    private static final String TAIL = "\nParse Mode: FAILFAST. To process malformed records as null result, try "
            + "setting the option 'mode' as 'PERMISSIVE'.";

    @TempDir
    Path dir;

    private static FileFormatReader reader(String ddl, JsonLimits limits, boolean fastPath, String... kv) {
        return new JsonFormat(JsonSettings.of(opts(kv), limits), StructType.fromDDL(ddl), fastPath);
    }

    private List<Row> read(String content, String ddl, boolean fastPath, String... kv) throws IOException {
        return readAll(reader(ddl, SMALL, fastPath, kv), write(dir, "f.json", content));
    }

    @Test
    void aStringPastTheBoundIsMalformedInEachModeWithTheTrueReason() throws IOException {
        String big = "x".repeat(101);
        String content = "{\"id\":1,\"s\":\"a\"}\n{\"id\":2,\"s\":\"" + big + "\",\"t\":1}\n{\"id\":3,\"s\":\"c\"}\n";
        String bad = "{\"id\":2,\"s\":\"" + big + "\",\"t\":1}";
        for (boolean fast : new boolean[] {true, false}) {
            // Before: the parser went on after its limit and the record failed with "expecting comma", partial.
            assertThat(read(content, "id long, s string, _corrupt_record string", fast))
                    .containsExactly(Row.of(1L, "a", null), Row.of(null, null, bad), Row.of(3L, "c", null));
            assertThat(read(content, "id long, s string", fast, "mode", "DROPMALFORMED"))
                    .containsExactly(Row.of(1L, "a"), Row.of(3L, "c"));
            Path f = write(dir, "f.json", content);
            assertThatThrownBy(() -> readAll(reader("id long, s string", SMALL, fast, "mode", "FAILFAST"), f))
                    .isInstanceOf(MalformedRecordException.class)
                    .hasMessage("Malformed records are detected in record parsing: file " + f + ", line 2: " + bad
                            + "\nReason: a string value is longer than the 100 characters the JSON reader accepts"
                            + TAIL);
        }
        // Exactly at the bound is fine.
        assertThat(read("{\"s\":\"" + "y".repeat(100) + "\"}\n", "s string", false))
                .containsExactly(Row.of("y".repeat(100)));
    }

    @Test
    void aNumberANestingAndANamePastTheirBoundsSayWhich() throws IOException {
        String digits = "1".repeat(21);
        Path num = write(dir, "n.json", "{\"a\":1}\n{\"a\":" + digits + "}\n");
        assertThatThrownBy(() -> readAll(reader("a decimal(38,0)", SMALL, true, "mode", "FAILFAST"), num))
                .hasMessage("Malformed records are detected in record parsing: file " + num + ", line 2: {\"a\":"
                        + digits + "}\nReason: a number is longer than the 20 characters the JSON reader accepts "
                        + "(write such values as JSON strings)" + TAIL);
        String deep = "{\"a\":" + "[".repeat(6) + "1" + "]".repeat(6) + "}";
        Path nest = write(dir, "d.json", deep + "\n");
        assertThatThrownBy(() -> readAll(reader("a string", SMALL, true, "mode", "FAILFAST"), nest))
                .hasMessage("Malformed records are detected in record parsing: file " + nest + ", line 1: " + deep
                        + "\nReason: objects and arrays are nested deeper than the 5 levels the JSON reader accepts"
                        + TAIL);
        String name = "n".repeat(31);
        Path longName = write(dir, "k.json", "{\"" + name + "\":1,\"a\":2}\n");
        assertThatThrownBy(() -> readAll(reader("a int", SMALL, true, "mode", "FAILFAST"), longName))
                .hasMessageContaining("\nReason: a field name is longer than the 30 characters the JSON reader "
                        + "accepts\n");
        assertThat(readAll(reader("a int, _corrupt_record string", SMALL, true), longName))
                .containsExactly(Row.of(null, "{\"" + name + "\":1,\"a\":2}"));
    }

    @Test
    void multiLineFilesFollowTheSameRule() throws IOException {
        String content = "[\n{\"s\":\"ok\"},\n{\"s\":\"" + "z".repeat(150) + "\"}\n]";
        Path f = write(dir, "m.json", content);
        assertThat(readAll(reader("s string, _corrupt_record string", SMALL, false, "multiLine", "true"), f))
                .containsExactly(Row.of(null, content));
        assertThatThrownBy(() -> readAll(reader("s string", SMALL, false, "multiLine", "true", "mode", "FAILFAST"),
                f)).hasMessageContaining(", line 3: ")
                .hasMessageContaining("\nReason: a string value is longer than the 100 characters the JSON reader "
                        + "accepts\n");
    }

    @Test
    void schemaInferenceInFailFastGivesTheTrueReason() throws IOException {
        Path f = write(dir, "i.json", "{\"s\":\"" + "q".repeat(101) + "\"}\n");
        Options o = opts("mode", "FAILFAST");
        assertThatThrownBy(() -> JsonInference.infer(JsonSettings.of(o, SMALL), List.of(f)))
                .hasMessage("Malformed records are detected in schema inference. Parse Mode: FAILFAST. Reason: a "
                        + "string value is longer than the 100 characters the JSON reader accepts (file " + f + ")");
    }

    @Test
    void aStringOfTwentyFiveMillionCharactersIsRead() throws IOException {
        // Past Jackson's default maximum (20,000,000), which used to make the record a null row.
        String big = "v".repeat(25_000_000);
        Path f = write(dir, "big.json", "{\"id\":1,\"s\":\"" + big + "\"}\n{\"id\":2,\"s\":\"b\"}\n");
        List<Row> rows = readAll(FileFormats.reader("json", opts("mode", "FAILFAST"),
                StructType.fromDDL("id long, s string")), f);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).getLong(0)).isEqualTo(1L);
        assertThat(rows.get(0).getString(1)).hasSize(25_000_000).isEqualTo(big);
        assertThat(rows.get(1)).isEqualTo(Row.of(2L, "b"));
        assertThat(JsonLimits.DEFAULT.maxStringLength()).isEqualTo(100_000_000);
    }
}
