package io.sluice.files.sink;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the manifest a file sink (Sluice's or Spark's) keeps in {@code <output>/_spark_metadata/}. The manifest,
 * not a listing of the folder, says which data files are committed: a reader that lists files from it never sees a
 * partial file, a file of a failed attempt, or a batch twice.
 */
public final class FileSinkManifest {
    /** The manifest folder's name inside the output folder. */
    public static final String METADATA_DIR = SinkLog.METADATA_DIR;

    private FileSinkManifest() {
    }

    /** True when {@code outputDir} holds a manifest folder. */
    public static boolean exists(Path outputDir) {
        return Files.isDirectory(outputDir.resolve(METADATA_DIR));
    }

    /** The newest committed batch id, or empty when no batch was committed. */
    public static OptionalLong latestBatchId(Path outputDir) throws IOException {
        TreeMap<Long, Path> files = SinkLog.list(outputDir.resolve(METADATA_DIR));
        return files.isEmpty() ? OptionalLong.empty() : OptionalLong.of(files.lastKey());
    }

    /**
     * Every committed data file, in commit order (batch by batch, each batch's files in partition order).
     *
     * @throws IllegalStateException when a manifest file is missing or malformed (the message names it)
     */
    public static List<SinkFileStatus> allFiles(Path outputDir) throws IOException {
        return SinkLog.allFiles(outputDir);
    }

    /**
     * A manifest file that a reader needs and that is missing or does not parse.
     *
     * @param file    the file (for a missing one, the name it should have)
     * @param problem what is wrong, e.g. {@code missing (the manifest holds batches up to 7)}
     */
    public record Damage(Path file, String problem) {
    }

    /**
     * A sink folder checked against its manifest ({@link #check}).
     *
     * @param damaged      manifest files a reader needs that are missing or do not parse; when any, the two other
     *                     lists are empty (the manifest cannot be read)
     * @param missingFiles data files the manifest lists that do not exist, in manifest order
     * @param orphans      files in the folder the manifest does not list (sorted), ignoring names that start with
     *                     {@code _} or {@code .} at any level, as Spark's readers ignore them
     */
    public record Check(List<Damage> damaged, List<Path> missingFiles, List<Path> orphans) {
        public Check {
            damaged = List.copyOf(damaged);
            missingFiles = List.copyOf(missingFiles);
            orphans = List.copyOf(orphans);
        }

        /** True when nothing is damaged, missing or orphaned. */
        public boolean clean() {
            return damaged.isEmpty() && missingFiles.isEmpty() && orphans.isEmpty();
        }
    }

    /**
     * Checks a sink folder against its manifest: damaged manifest files, data files it lists that are missing, and
     * files it does not list (orphans: e.g. renamed by an attempt that died and not yet cleared by the next start,
     * or, with {@code retention}, files older than the retention).
     */
    public static Check check(Path outputDir) throws IOException {
        List<Damage> damaged = ManifestCheck.damaged(outputDir, FileSinkOptions.DEFAULT_COMPACT_INTERVAL);
        if (!damaged.isEmpty()) {
            return new Check(damaged, List.of(), List.of());
        }
        Set<Path> listed = new HashSet<>();
        List<Path> missing = new ArrayList<>();
        for (SinkFileStatus s : allFiles(outputDir)) {
            Path p = s.localPath().toAbsolutePath().normalize();
            listed.add(p);
            if (!Files.exists(p)) {
                missing.add(p);
            }
        }
        List<Path> orphans = new ArrayList<>();
        Path root = outputDir.toAbsolutePath().normalize();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir,
                    BasicFileAttributes attrs) {
                return !dir.equals(root) && hidden(dir) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file,
                    BasicFileAttributes attrs) {
                if (!hidden(file) && !listed.contains(file)) {
                    orphans.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        Collections.sort(orphans);
        return new Check(damaged, missing, orphans);
    }

    private static boolean hidden(Path p) {
        String name = p.getFileName().toString();
        return name.startsWith("_") || name.startsWith(".");
    }

    /** The entries recorded by one batch file, {@code <id>} or {@code <id>.compact}; empty if it does not exist. */
    public static List<SinkFileStatus> batch(Path outputDir, long batchId) throws IOException {
        Path f = SinkLog.list(outputDir.resolve(METADATA_DIR)).get(batchId);
        return f == null ? List.of() : SinkLog.read(f);
    }
}
