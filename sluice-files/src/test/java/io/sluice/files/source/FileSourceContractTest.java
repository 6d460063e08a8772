package io.sluice.files.source;

import io.sluice.api.ReadLimit;
import io.sluice.testkit.SourceContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The contract test kit on the file source, in each format: two new files per trigger. */
class FileSourceContractTest {
    @TempDir
    Path dir;

    private SourceContract contract(String format, String ext, String... lines) {
        return SourceContract.forFormat(format).option("path", dir.toString()).beforeEachTrigger(n -> {
            for (int f = 0; f < 2; f++) {
                StringBuilder sb = new StringBuilder();
                for (String line : lines) {
                    sb.append(line.replace("#", n + "-" + f)).append('\n');
                }
                write(dir.resolve("part-" + n + "-" + f + "." + ext), sb.toString());
            }
        });
    }

    private static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file);
    }

    @Test
    void json() {
        contract("json", "json", "{\"id\":\"#a\",\"n\":1}", "{\"id\":\"#b\",\"n\":2}").schema("id string, n bigint")
                .check();
    }

    @Test
    void csvUnderAFileLimit() {
        contract("csv", "csv", "#,1", "#,2").schema("id string, n int").option("maxFilesPerTrigger", 1)
                .batches(4).check();
    }

    @Test
    void text() {
        contract("text", "txt", "line #", "another #").readLimit(ReadLimit.maxFiles(3)).check();
    }
}
