package io.sluice.cli;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RedactorTest {

    @Test
    void secretKeys() {
        assertThat(Redactor.isSecret("password")).isTrue();
        assertThat(Redactor.isSecret("kafka.ssl.key.password")).isTrue();
        assertThat(Redactor.isSecret("kafka.sasl.jaas.config")).isTrue();
        assertThat(Redactor.isSecret("aws.SECRET.access")).isTrue();
        assertThat(Redactor.isSecret("auth.Token")).isTrue();
        assertThat(Redactor.isSecret("apiKey")).isTrue();
        assertThat(Redactor.isSecret("rowsPerBatch")).isFalse();
        assertThat(Redactor.isSecret("kafka.bootstrap.servers")).isFalse();
        assertThat(Redactor.isSecret("path")).isFalse();
    }

    @Test
    void optionListings() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("kafka.bootstrap.servers", "localhost:9092");
        options.put("kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                + "username=\"u\" password=\"p4ss\";");
        options.put("kafka.ssl.key.password", "k3y");
        assertThat(Redactor.options(options)).isEqualTo("{kafka.bootstrap.servers=localhost:9092, "
                + "kafka.sasl.jaas.config=*****, kafka.ssl.key.password=*****}");
    }

    @Test
    void freeTextLosesEverySecretValue() {
        Redactor r = Redactor.of(Map.of("password", "hunter2", "path", "/data"),
                Map.of("token", "hunter2-long", "user", "bob"));
        assertThat(r.text("Invalid value 'hunter2' for option 'password'; token hunter2-long; path /data; bob"))
                .isEqualTo("Invalid value '*****' for option 'password'; token *****; path /data; bob");
        assertThat(r.text(null)).isNull();
        assertThat(Redactor.none().text("hunter2")).isEqualTo("hunter2");
        assertThat(Redactor.of(Map.of("password", "")).text("x")).isEqualTo("x");
    }
}
