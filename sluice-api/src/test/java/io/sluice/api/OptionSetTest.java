package io.sluice.api;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OptionSetTest {
    private static final OptionSet SET = OptionSet.of(
            OptionDef.of("rows", OptionDef.Type.LONG, "rows a batch").asRequired()
                    .validatedBy((n, v) -> {
                        if (Long.parseLong(v.trim()) <= 0) {
                            throw new InvalidOptionException(n, v, "must be positive");
                        }
                    }),
            OptionDef.integer("parts", 2, "partitions"),
            OptionDef.bool("flag", true, "a flag"),
            OptionDef.oneOf("mode", "fast", List.of("fast", "slow"), "how"),
            OptionDef.of("ratio", OptionDef.Type.DOUBLE, "a share").withDefaultText("computed"))
            .withPrefixes("kafka.");

    private static Options opts(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return Options.of(m);
    }

    @Test
    void typedGettersApplyDefaultsTypesAndValidators() {
        Options o = opts("ROWS", "5", "flag", "FALSE");
        assertThat(SET.getLong(o, "rows")).isEqualTo(5);
        assertThat(SET.getInt(o, "parts")).isEqualTo(2);
        assertThat(SET.getBoolean(o, "flag")).isFalse();
        assertThat(SET.get(o, "mode")).contains("fast");
        assertThat(SET.get(o, "ratio")).isEmpty();
        assertThatThrownBy(() -> SET.getLong(opts(), "rows"))
                .isInstanceOf(InvalidOptionException.class).hasMessage("Option 'rows' is missing: the option is required");
        assertThatThrownBy(() -> SET.getLong(opts("rows", "x"), "rows"))
                .hasMessage("Invalid value 'x' for option 'rows': a whole number (long) is accepted");
        assertThatThrownBy(() -> SET.getLong(opts("rows", "0"), "rows"))
                .hasMessage("Invalid value '0' for option 'rows': must be positive");
        assertThatThrownBy(() -> SET.get(opts("mode", "medium"), "mode"))
                .hasMessage("Invalid value 'medium' for option 'mode': fast, slow is accepted (case-insensitive)");
        assertThatThrownBy(() -> SET.get(o, "nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Option 'nope' is not declared");
    }

    @Test
    void validateChecksEveryDeclaredOption() {
        SET.validate(opts("rows", "1", "ratio", "0.5", "unknown", "x"));
        assertThatThrownBy(() -> SET.validate(opts("parts", "1")))
                .hasMessage("Option 'rows' is missing: the option is required");
        assertThatThrownBy(() -> SET.validate(opts("rows", "1", "ratio", "half")))
                .hasMessage("Invalid value 'half' for option 'ratio': a number is accepted");
    }

    @Test
    void namesAndPrefixesAreKnownCaseInsensitively() {
        assertThat(SET.knows("PARTS")).isTrue();
        assertThat(SET.knows("Kafka.acks")).isTrue();
        assertThat(SET.knows("part")).isFalse();
        assertThat(OptionSet.undeclared().knows("anything")).isTrue();
        assertThat(OptionSet.undeclared().declared()).isFalse();
        assertThat(OptionSet.none().knows("anything")).isFalse();
        assertThat(SET.prefixes()).containsExactly("kafka.");
    }

    @Test
    void declarationsShowTheirDefaultForTheDocs() {
        assertThat(SET.options()).extracting(OptionDef::defaultText)
                .containsExactly("required", "2", "true", "fast", "computed");
        OptionSet merged = OptionSet.of(OptionDef.string("path", "mine").asRequired())
                .and(OptionSet.of(OptionDef.string("path", "engine's"), OptionDef.string("other", "x")));
        assertThat(merged.options()).extracting(OptionDef::name, OptionDef::doc)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("path", "mine"),
                        org.assertj.core.groups.Tuple.tuple("other", "x"));
        assertThatThrownBy(() -> OptionSet.of(OptionDef.string("a", "x"), OptionDef.string("A", "y")))
                .hasMessage("Option 'A' is declared twice");
    }
}
