package io.sluice.python;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the Python side lives: the worker scripts and the pure-Python {@code pyspark} stand-in, shipped as
 * resources of this jar and unpacked once per JVM into a private temporary folder (removed at exit), and the
 * {@code python3} command ({@code -Dsluice.python} or {@code SLUICE_PYTHON}, default {@code python3}).
 */
final class PythonRuntime {
    /** The files under {@code io/sluice/python/}: a jar cannot be listed, so they are named here. */
    static final List<String> FILES = List.of(
            "worker/sluice_worker.py",
            "worker/sluice_rows.py",
            "lib/pyspark/__init__.py",
            "lib/pyspark/errors/__init__.py",
            "lib/pyspark/sql/__init__.py",
            "lib/pyspark/sql/types.py",
            "lib/pyspark/sql/datasource.py",
            "lib/pyspark/sql/streaming/__init__.py",
            "lib/pyspark/sql/streaming/datasource.py");

    private static volatile Path home;

    private PythonRuntime() {
    }

    /** The unpacked folder: {@code worker/} and {@code lib/} (the stand-in, put on a worker's path when needed). */
    static Path home() {
        Path h = home;
        if (h == null) {
            synchronized (PythonRuntime.class) {
                h = home;
                if (h == null) {
                    h = unpack();
                    home = h;
                }
            }
        }
        return h;
    }

    static String python() {
        String p = System.getProperty("sluice.python");
        if (p == null || p.isBlank()) {
            p = System.getenv("SLUICE_PYTHON");
        }
        return p == null || p.isBlank() ? "python3" : p;
    }

    private static Path unpack() {
        try {
            Path dir = Files.createTempDirectory("sluice-python-");
            for (String f : FILES) {
                Path target = dir.resolve(f);
                Files.createDirectories(target.getParent());
                try (InputStream in = PythonRuntime.class.getResourceAsStream(f)) {
                    if (in == null) {
                        throw new IllegalStateException("sluice-python is missing its resource " + f);
                    }
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "sluice-python-cleanup"));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot unpack sluice-python's Python files: " + e.getMessage(), e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // best effort at exit
        }
    }
}
