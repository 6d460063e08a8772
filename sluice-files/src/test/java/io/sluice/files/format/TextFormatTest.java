package io.sluice.files.format;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.sluice.files.format.FormatFixture.gzip;
import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.read;
import static io.sluice.files.format.FormatFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

class TextFormatTest {
    @TempDir
    Path dir;

    private List<Row> text(String content, String... options) throws IOException {
        return read("text", opts(options), null, write(dir, "in.txt", content));
    }

    @Test
    void theSchemaIsFixed() {
        assertThat(FileFormats.fixedSchema("text", Options.empty())).contains(StructType.fromDDL("value string"));
        assertThat(FileFormats.fixedSchema("TEXT", Options.empty())).contains(StructType.fromDDL("value string"));
        assertThat(FileFormats.fixedSchema("json", Options.empty())).isEmpty();
        assertThat(FileFormats.fixedSchema("csv", Options.empty())).isEmpty();
    }

    @Test
    void oneRowPerLineEmptyLinesIncludedAnyLineEnding() throws IOException {
        assertThat(text("a\nb\r\n\r\nc\rd\n")).containsExactly(
                Row.of("a"), Row.of("b"), Row.of(""), Row.of("c"), Row.of("d"));
        assertThat(text("no newline at end")).containsExactly(Row.of("no newline at end"));
        assertThat(text("\n\n")).containsExactly(Row.of(""), Row.of(""));
        assertThat(text("")).isEmpty();
        assertThat(text(" spaces kept \t")).containsExactly(Row.of(" spaces kept \t"));
    }

    @Test
    void aByteOrderMarkIsKeptAsSparkKeepsIt() throws IOException {
        assertThat(text("\uFEFFx\n")).containsExactly(Row.of("\uFEFFx"));
    }

    @Test
    void lineSepSplitsOnExactlyThatString() throws IOException {
        assertThat(text("a||b\n||||c||", "lineSep", "||")).containsExactly(
                Row.of("a"), Row.of("b\n"), Row.of(""), Row.of("c"));
    }

    @Test
    void wholetextGivesOneRowPerFile() throws IOException {
        assertThat(text("a\nb\r\n", "wholetext", "true")).containsExactly(Row.of("a\nb\r\n"));
        assertThat(text("", "wholetext", "true")).containsExactly(Row.of(""));
    }

    @Test
    void gzipTextFiles() throws IOException {
        Path gz = gzip(dir, "t.txt.gz", "x\ny\n");
        assertThat(read("text", opts(), null, gz)).containsExactly(Row.of("x"), Row.of("y"));
        assertThat(read("text", opts("wholetext", "true"), null, gz)).containsExactly(Row.of("x\ny\n"));
    }

    @Test
    void asciiNonAsciiAndMalformedLinesReadAsUtf8DecodingGivesThem() throws IOException {
        byte[] bytes = {'a', 's', 'c', 'i', 'i', '\n', (byte) 0xC5, (byte) 0xBC, 'x', '\n', 'b', (byte) 0xFF, 'c'};
        Path file = dir.resolve("mixed.txt");
        java.nio.file.Files.write(file, bytes);
        List<Row> rows = read("text", opts(), null, file);
        assertThat(rows).containsExactly(Row.of("ascii"), Row.of("\u017Cx"), Row.of("b\uFFFDc"));
        // Rows of many lines keep their own values (they share storage blocks).
        String many = java.util.stream.IntStream.range(0, 2_000).mapToObj(i -> i % 3 == 0 ? "\u00e9" + i : "l" + i)
                .collect(java.util.stream.Collectors.joining("\n"));
        List<Row> manyRows = text(many);
        assertThat(manyRows).hasSize(2_000);
        assertThat(manyRows.get(0)).isEqualTo(Row.of("\u00e90"));
        assertThat(manyRows.get(1_999)).isEqualTo(Row.of("l1999"));
        assertThat(manyRows.get(1_501)).isEqualTo(Row.of("l1501"));
        assertThat(manyRows.get(1_500)).isEqualTo(Row.of("\u00e91500"));
    }

    @Test
    void longLinesAcrossBufferBoundaries() throws IOException {
        String big = "z".repeat(700_000);
        assertThat(text("a\r\n" + big + "\r\nb")).containsExactly(Row.of("a"), Row.of(big), Row.of("b"));
    }
}
