package io.sluice.avro;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/avro-functions.md's option tables list exactly the options from_avro and to_avro declare
 * ({@link AvroFunctionOptions}), each with its declared default.
 */
class AvroFunctionDocsTest {
    private static final Path PAGE = Path.of("..", "docs", "avro-functions.md");

    @Test
    void theOptionTablesAreTheDeclarations() throws Exception {
        List<String> lines = Files.readAllLines(PAGE);
        assertThat(table(lines, "## `from_avro` options")).isEqualTo(declared(AvroFunctionOptions.FROM_AVRO));
        assertThat(table(lines, "## `to_avro` options")).isEqualTo(declared(AvroFunctionOptions.TO_AVRO));
    }

    private static Map<String, String> declared(OptionSet set) {
        Map<String, String> out = new LinkedHashMap<>();
        for (OptionDef d : set.options()) {
            out.put(d.name(), d.defaultText());
        }
        return out;
    }

    /** Option name to default cell (backquotes dropped) of the first option table under {@code heading}. */
    private static Map<String, String> table(List<String> lines, String heading) {
        int i = lines.indexOf(heading);
        assertThat(i).as("heading %s", heading).isGreaterThanOrEqualTo(0);
        while (!lines.get(i).startsWith("| option |")) {
            i++;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            List<String> cells = new ArrayList<>(List.of(lines.get(i).split("\\|")));
            out.put(cells.get(1).trim().replace("`", ""), cells.get(2).trim().replace("`", ""));
        }
        return out;
    }
}
