package io.sluice.kafka;

import io.sluice.api.InvalidOptionException;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Kafka options through the engine's name check; no broker needed (nothing connects before a query runs). */
class KafkaOptionNamesTest {
    private final Sluice sluice = Sluice.builder().config("sluice.options.unknown", "error").build();

    @AfterEach
    void close() {
        sluice.close();
    }

    @Test
    void startingOffsetFailsNamingStartingOffsets() {
        // Spark ignores it, and the query silently starts at latest, skipping the backlog.
        assertThatThrownBy(() -> sluice.readStream().format("kafka")
                .option("kafka.bootstrap.servers", "localhost:1").option("subscribe", "t")
                .option("startingOffset", "earliest").load())
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e).hasMessage("Unknown option 'startingOffset' for source 'kafka': did you mean "
                            + "'startingOffsets'?");
                    assertThat(e.option()).isEqualTo("startingOffset");
                    assertThat(e.value()).isEqualTo("earliest");
                });
        assertThatThrownBy(() -> sluice.read().format("kafka").option("kafka.bootstrap.servers", "localhost:1")
                .option("subscribe", "t").option("ending_offsets", "latest").load())
                .hasMessage("Unknown option 'ending_offsets' for source 'kafka': did you mean 'endingOffsets'?");
    }

    @Test
    void aMisspeltDeclaredNameUnderThePrefixFailsToo() {
        assertThatThrownBy(() -> sluice.readStream().format("kafka").option("kafka.bootstrap.server", "localhost:1")
                .option("subscribe", "t").load())
                .hasMessage("Unknown option 'kafka.bootstrap.server' for source 'kafka': did you mean "
                        + "'kafka.bootstrap.servers'?");
    }

    @Test
    void kafkaPassThroughOptionsAreNeverUnknown() {
        StreamFrame f = sluice.readStream().format("kafka").option("kafka.bootstrap.servers", "localhost:1")
                .option("subscribe", "t").option("KAFKA.security.protocol", "PLAINTEXT")
                .option("kafka.fetch.max.bytes", "1000").option("startingOffsets", "earliest").load();
        assertThat(f.schema()).isEqualTo(KafkaSourceProvider.SCHEMA);
        assertThatThrownBy(() -> sluice.readStream().format("kafka").option("kafka.bootstrap.servers", "localhost:1")
                .option("subscribe", "t").option("kafak.acks", "all").load())
                .hasMessageEndingWith("maxRecordsPerPartition, failOnDataLoss, kafkaConsumer.pollTimeoutMs, "
                        + "fetchOffset.numRetries, fetchOffset.retryIntervalMs, groupIdPrefix, includeHeaders, "
                        + "consumerPoolCapacity, consumerPoolIdleTimeout, commitOffsetsToGroup, and any option "
                        + "starting with kafka.");
    }

    @Test
    void aMisspeltSinkOptionFailsAtStart() {
        StreamFrame f = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 1).load()
                .selectExpr("CAST(value AS STRING) AS value");
        assertThatThrownBy(() -> f.writeStream().format("kafka").option("kafka.bootstrap.servers", "localhost:1")
                .option("topic", "t").option("exactlyOnc", true).start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Unknown option 'exactlyOnc' for sink 'kafka': did you mean 'exactlyOnce'?");
    }
}
