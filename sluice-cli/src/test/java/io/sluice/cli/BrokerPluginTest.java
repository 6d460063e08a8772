package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BrokerPluginTest {
    @TempDir
    Path tmp;

    @Test
    void theJarIsTheSystemPropertyElseTheEnvironmentElseTheOneBesideTheCliJar() {
        Path cli = Path.of("/opt/sluice/lib");
        assertThat(BrokerPlugin.brokerJar("/a/broker.jar", "/b/broker.jar", cli)).isEqualTo(Path.of("/a/broker.jar"));
        assertThat(BrokerPlugin.brokerJar(" ", "/b/broker.jar", cli)).isEqualTo(Path.of("/b/broker.jar"));
        assertThat(BrokerPlugin.brokerJar(null, "", cli)).isEqualTo(Path.of("/opt/sluice/lib/sluice-kafka-broker.jar"));
    }

    @Test
    void withoutTheBrokerOnTheClassPathAMissingJarFailsInOneLineSayingHowToBuildIt() {
        Path jar = tmp.resolve("lib").resolve("sluice-kafka-broker.jar");
        // The platform class loader does not see the test class path, where the broker is.
        assertThatThrownBy(() -> BrokerPlugin.start(ClassLoader.getPlatformClassLoader(), jar, tmp.resolve("data"),
                0, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("sluice kafka dev needs the broker jar " + jar + ", which does not exist"
                        + " (-Dsluice.kafka.broker.jar=PATH or SLUICE_KAFKA_BROKER_JAR=PATH names another; by default"
                        + " sluice-kafka-broker.jar beside the sluice jar): build both with:"
                        + " mvn -q -B package -DskipTests -pl sluice-cli -am (bin/sluice does)");
        assertThat(tmp.resolve("data")).doesNotExist();
    }
}
