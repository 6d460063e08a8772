package io.sluice.delta;

import io.sluice.api.OptionDef;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/tables/delta.md's option tables list exactly the declared options with their defaults (sluice-cli's
 * OptionDocsTest does this for the providers on its class path, which this module's is not).
 */
class DeltaOptionDocsTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]+) \\|");

    private static Map<String, String> table(String page, String heading) throws Exception {
        List<String> lines = Files.readAllLines(Path.of("..", "docs", page));
        Map<String, String> out = new LinkedHashMap<>();
        boolean in = false;
        for (String l : lines) {
            if (l.startsWith("#")) {
                in = l.replaceFirst("^#+\\s*", "").equals(heading);
            } else if (in) {
                Matcher m = ROW.matcher(l);
                if (m.find()) {
                    out.put(m.group(1), m.group(2).trim().replace("`", ""));
                }
            }
        }
        return out;
    }

    @Test
    void theSourcePageListsEveryDeclaredOptionWithItsDefault() throws Exception {
        Map<String, String> documented = table("tables/delta.md", "Options");
        Map<String, String> declared = new LinkedHashMap<>();
        for (OptionDef d : DeltaSourceOptions.DEFS.options()) {
            declared.put(d.name(), d.defaultText());
        }
        assertThat(documented).isEqualTo(declared);
    }

    @Test
    void theSinkPageListsEveryDeclaredOption() throws Exception {
        Map<String, String> documented = table("tables/delta.md", "Sink");
        assertThat(documented.keySet()).containsExactlyElementsOf(new DeltaSinkProvider().options().options()
                .stream().map(OptionDef::name).toList());
    }
}
