package io.sluice.kafka.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One {@link LocalKafkaBroker} per JVM, started on the first {@link #get()} in a fresh temporary folder and shut
 * down when the JVM exits: what test classes of several modules share, so a test run pays the broker's start
 * (a few seconds) once. Tests sharing it must use their own topic names.
 */
public final class SharedLocalKafkaBroker {

    private static LocalKafkaBroker broker;

    private SharedLocalKafkaBroker() {
    }

    /** The running shared broker, started on the first call (thread-safe). */
    public static synchronized LocalKafkaBroker get() {
        if (broker == null) {
            Path dir;
            try {
                dir = Files.createTempDirectory("sluice-kafka-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            LocalKafkaBroker started = LocalKafkaBroker.builder(dir).start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "sluice-kafka-broker-shutdown"));
            broker = started;
        }
        return broker;
    }
}
