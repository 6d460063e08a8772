package io.sluice.s3;

import io.sluice.api.OptionDef;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/object-stores.md's settings table lists exactly the declared settings, each with its declared default. */
class S3OptionsDocTest {

    @Test
    void theSettingsTableMatchesTheDeclarations() throws IOException {
        Map<String, String> documented = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "object-stores.md"))) {
            if (line.startsWith("| `fs.s3a.")) {
                String[] cells = line.split("\\|");
                documented.put(cells[1].trim().replace("`", ""), cells[2].trim().replace("`", ""));
            }
        }
        Map<String, String> declared = new LinkedHashMap<>();
        for (OptionDef d : S3Options.DEFS.options()) {
            declared.put(d.name(), d.defaultText());
        }
        assertThat(documented).isEqualTo(declared);
    }
}
