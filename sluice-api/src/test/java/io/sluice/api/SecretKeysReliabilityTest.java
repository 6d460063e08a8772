package io.sluice.api;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 14: keys naming where a secret is (a keystore file) or its format are shown; the secrets are not. */
class SecretKeysReliabilityTest {

    @Test
    void secretKeys() {
        List<String> secret = List.of("password", "kafka.ssl.key.password", "kafka.ssl.keystore.password",
                "kafka.ssl.truststore.password", "kafka.ssl.keystore.key", "kafka.sasl.jaas.config",
                "kafka.SASL.JAAS.CONFIG", "secret", "aws.secret.access.key", "client_secret", "token", "auth.Token",
                "apiKey", "apiKeys", "key", "private.key", "dbPassword");
        assertThat(secret).allSatisfy(k -> assertThat(Options.isSecretKey(k)).as(k).isTrue());
    }

    @Test
    void keysThatAreNotSecrets() {
        List<String> shown = List.of("kafka.ssl.keystore.location", "kafka.ssl.truststore.location",
                "kafka.ssl.keystore.type", "kafka.ssl.truststore.type", "kafka.key.serializer",
                "kafka.key.deserializer", "kafka.ssl.keystore.certificate.chain", "kafka.ssl.truststore.certificates",
                "kafka.bootstrap.servers", "path", "rowsPerBatch", "keyField.name");
        assertThat(shown).allSatisfy(k -> assertThat(Options.isSecretKey(k)).as(k).isFalse());
    }

    @Test
    void toStringMasksOnlySecrets() {
        Options o = Options.of(java.util.Map.of("kafka.ssl.keystore.location", "/etc/ks.jks"));
        assertThat(o.toString()).isEqualTo("{kafka.ssl.keystore.location=/etc/ks.jks}");
        assertThat(Options.of(java.util.Map.of("kafka.ssl.key.password", "S3cret")).toString())
                .isEqualTo("{kafka.ssl.key.password=*****}");
    }
}
