package io.sluice.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Scratch metadata folders for streams that must not touch a checkpoint (executors, batch reads). */
final class TempDirs {
    private TempDirs() {
    }

    static Path create(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary folder for a Sluice stream: " + e.getMessage(), e);
        }
    }

    /** Deletes the folder and what is in it; a failure is left for the OS's temp cleaner. */
    static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: a scratch folder
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // best effort
        }
    }
}
