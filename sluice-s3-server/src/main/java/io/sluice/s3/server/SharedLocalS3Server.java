package io.sluice.s3.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One {@link LocalS3Server} per JVM, started on the first {@link #get()} over a fresh temporary folder and stopped
 * when the JVM exits: what the test classes of several modules share, so a test run pays Spring's start (a few
 * seconds) once. Tests sharing it must use their own bucket names.
 */
public final class SharedLocalS3Server {

    private static LocalS3Server server;

    private SharedLocalS3Server() {
    }

    /** The running shared server, started on the first call (thread-safe). */
    public static synchronized LocalS3Server get() {
        if (server == null) {
            Path dir;
            try {
                dir = Files.createTempDirectory("sluice-s3-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            LocalS3Server started = LocalS3Server.builder(dir).start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "sluice-s3-server-shutdown"));
            server = started;
        }
        return server;
    }
}
