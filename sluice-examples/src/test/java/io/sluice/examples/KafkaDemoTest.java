package io.sluice.examples;

import io.sluice.core.Sluice;
import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The Kafka demo pipeline against a real broker, run twice on the same checkpoints. */
class KafkaDemoTest {
    @TempDir
    Path work;

    @Test
    void everyOrderWrittenIsReadOnceAndASecondRunResumes() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (Sluice sluice = Sluice.builder().parallelism(2).build();
             PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            KafkaDemo.Summary first = KafkaDemo.run(sluice, bootstrap, work, 3, out);
            assertThat(first.written()).isGreaterThanOrEqualTo(300).isEqualTo(first.read());
            assertThat(first.distinctKeys()).isEqualTo(first.read());

            KafkaDemo.Summary second = KafkaDemo.run(sluice, bootstrap, work, 2, out);
            assertThat(second.written()).isGreaterThanOrEqualTo(200).isEqualTo(second.read());
            assertThat(second.distinctKeys()).isEqualTo(second.read());
        }
        String text = output.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("writer batch   0:  100 orders in one transaction", "reader batch   0:",
                " 0 read twice");
    }
}
