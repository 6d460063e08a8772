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
        Map<String, String> documented = families(table("tables/delta.md", "Options"),
                DeltaSourceOptions.DEFS.prefixes());
        Map<String, String> declared = new LinkedHashMap<>();
        for (OptionDef d : DeltaSourceOptions.DEFS.options()) {
            declared.put(d.name(), d.defaultText());
        }
        assertThat(documented).isEqualTo(declared);
    }

    @Test
    void theSinkPageListsEveryDeclaredOption() throws Exception {
        Map<String, String> documented = families(table("tables/delta.md", "Sink"),
                new DeltaSinkProvider().options().prefixes());
        assertThat(documented.keySet()).containsExactlyElementsOf(new DeltaSinkProvider().options().options()
                .stream().map(OptionDef::name).toList());
    }

    /** The rows without the option families ({@code fs.<setting>}), each of which must name a declared prefix. */
    private static Map<String, String> families(Map<String, String> documented, java.util.Collection<String> prefixes) {
        Map<String, String> out = new LinkedHashMap<>();
        documented.forEach((name, def) -> {
            int family = name.indexOf('<');
            if (family < 0) {
                out.put(name, def);
            } else {
                assertThat(prefixes).as("the prefix of the documented family " + name)
                        .contains(name.substring(0, family));
            }
        });
        return out;
    }
}
