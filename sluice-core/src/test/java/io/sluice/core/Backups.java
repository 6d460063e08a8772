package io.sluice.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Backing up and restoring folders (a checkpoint, a sink's output) as an operator would, for the restore tests:
 * lock files are not copied (a backup of a running query holds none that matter).
 */
public final class Backups {
    private static final Set<String> LOCKS = Set.of(".lock", "lock");

    private Backups() {
    }

    /** Copies {@code from} to {@code to} (which must not exist). */
    public static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!LOCKS.contains(p.getFileName().toString())) {
                    Files.copy(p, target);
                }
            }
        }
    }

    /** Deletes a folder and everything in it; nothing when it does not exist. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    /** Puts a backup back: {@code to} becomes a copy of {@code from}. */
    public static void restore(Path from, Path to) throws IOException {
        delete(to);
        copy(from, to);
    }
}
