package io.sluice.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class LoggingDefaultsTest {
    @Test
    void everythingAtWarnAndTheQueryFailureLeftToTheErrorLine() {
        assertThat(Main.loggingDefaults(false)).containsExactly(
                entry("org.slf4j.simpleLogger.defaultLogLevel", "warn"),
                entry("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "error"),
                entry("org.slf4j.simpleLogger.log.io.sluice.core.MicroBatchExecution.QueryFailure", "off"),
                entry("org.slf4j.simpleLogger.showThreadName", "false"),
                entry("org.slf4j.simpleLogger.showShortLogName", "true"));
    }

    @Test
    void verboseRaisesOnlySluicesOwnLoggersToInfo() {
        assertThat(Main.loggingDefaults(true)).containsExactly(
                entry("org.slf4j.simpleLogger.defaultLogLevel", "warn"),
                entry("org.slf4j.simpleLogger.log.io.sluice", "info"),
                entry("org.slf4j.simpleLogger.log.io.sluice.core.MicroBatchExecution.QueryFailure", "off"),
                entry("org.slf4j.simpleLogger.showThreadName", "false"),
                entry("org.slf4j.simpleLogger.showShortLogName", "true"));
    }
}
