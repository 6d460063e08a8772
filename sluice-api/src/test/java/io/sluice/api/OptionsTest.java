package io.sluice.api;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OptionsTest {

    @Test
    void keysAreCaseInsensitiveAndKeepTheirSpelling() {
        Options options = Options.of(Map.of("maxFilesPerTrigger", "5"));
        assertThat(options.getInt("MAXFILESPERTRIGGER", 1)).isEqualTo(5);
        assertThat(options.asMap()).containsExactly(Map.entry("maxFilesPerTrigger", "5"));
    }

    @Test
    void toStringMasksSecretValues() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("subscribe", "events");
        map.put("kafka.sasl.jaas.config", "PlainLoginModule required username=\"u\" password=\"hunter2\";");
        map.put("kafka.ssl.truststore.password", "hunter3");
        map.put("kafka.ssl.key.password", "hunter4");
        assertThat(Options.of(map).toString()).isEqualTo("{subscribe=events, kafka.sasl.jaas.config=*****, "
                + "kafka.ssl.truststore.password=*****, kafka.ssl.key.password=*****}");
    }

    @Test
    void typedGettersNameTheOptionAndTheValue() {
        assertThatThrownBy(() -> Options.of(Map.of("n", "x")).getLong("n", 1))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("n").hasMessageContaining("x").hasMessageContaining("a whole number (long) is accepted");
    }
}
