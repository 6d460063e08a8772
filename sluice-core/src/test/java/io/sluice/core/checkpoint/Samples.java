package io.sluice.core.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The Spark 4.2 checkpoint files in src/test/resources/spark-samples. */
final class Samples {

    private Samples() {
    }

    static Path path(String relative) {
        URL url = Samples.class.getResource("/spark-samples/" + relative);
        if (url == null) {
            throw new IllegalArgumentException("No sample " + relative);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] bytes(String relative) {
        try {
            return Files.readAllBytes(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies a sample folder (e.g. {@code file-chk}) to {@code target}. */
    static void copyTree(String relative, Path target) {
        Path source = path(relative);
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path to = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
