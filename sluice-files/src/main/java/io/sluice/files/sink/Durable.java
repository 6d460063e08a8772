package io.sluice.files.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.UUID;

/**
 * Durable, atomic file operations for the sink's manifest and data files: the same technique as the checkpoint's
 * writer in sluice-core (which is internal to that module): write a hidden temp file in the same folder, fsync it,
 * put it in place atomically, fsync the folder so the new name itself survives a power loss.
 */
final class Durable {

    /** Writes a file's content; may throw, in which case nothing is left behind. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private Durable() {
    }

    /**
     * Creates {@code target} with {@code content} and modification time {@code mtimeMs}, failing if it already
     * exists (an existing file is never replaced, even one appearing between a check and the write).
     *
     * @throws FileAlreadyExistsException if {@code target} exists
     */
    static void createNew(Path target, long mtimeMs, Content content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            OutputStream out = Channels.newOutputStream(ch);
            content.writeTo(out);
            out.flush();
            Files.setLastModifiedTime(tmp, FileTime.fromMillis(mtimeMs));
            ch.force(true);
        } catch (IOException | RuntimeException | Error e) {
            deleteQuietly(tmp, e);
            throw e;
        }
        try {
            linkOrMove(tmp, target);
        } finally {
            // After a link the temp name is a second name for the target's data; after a failure it is garbage.
            Files.deleteIfExists(tmp);
        }
        fsyncDirectory(dir);
    }

    /** Renames {@code from} to {@code to} atomically (same file system); the caller fsyncs the folders. */
    static void move(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Like {@link Files#createDirectories}, fsyncing the parent of each folder it creates. */
    static void createDirectories(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath();
        if (Files.isDirectory(abs)) {
            return;
        }
        Path parent = abs.getParent();
        if (parent != null) {
            createDirectories(parent);
        }
        try {
            Files.createDirectory(abs);
        } catch (FileAlreadyExistsException e) {
            if (Files.isDirectory(abs)) {
                return; // created concurrently by another partition writer
            }
            throw e;
        }
        if (parent != null) {
            fsyncDirectory(parent);
        }
    }

    /**
     * Makes a folder's entries durable. Some platforms (Windows) cannot open a folder for reading; there the
     * rename is as durable as the platform makes it.
     */
    static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Not supported here; see above.
        }
    }

    /** Deletes a folder tree, best effort; returns false if something could not be deleted. */
    static boolean deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return true;
        }
        boolean ok = true;
        try (var paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    ok = false;
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            ok = false;
        }
        return ok;
    }

    /**
     * A POSIX rename replaces an existing target silently, so the primary way is a hard link, which the kernel
     * refuses atomically when the name exists. Without hard links, check then move: the checkpoint's lock keeps
     * other writers of the same query out.
     */
    private static void linkOrMove(Path tmp, Path target) throws IOException {
        try {
            Files.createLink(target, tmp);
            return;
        } catch (FileAlreadyExistsException e) {
            throw alreadyExists(target);
        } catch (UnsupportedOperationException | FileSystemException e) {
            // No hard links on this file system: fall through.
        }
        if (Files.exists(target)) {
            throw alreadyExists(target);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    }

    private static FileAlreadyExistsException alreadyExists(Path target) {
        return new FileAlreadyExistsException(target.toString(), null,
                "the file already exists and is never overwritten");
    }

    private static void deleteQuietly(Path p, Throwable primary) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            primary.addSuppressed(e);
        }
    }
}
