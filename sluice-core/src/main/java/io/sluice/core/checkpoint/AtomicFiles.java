package io.sluice.core.checkpoint;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Atomic, durable file writes: a reader sees either no file (or the old one) or the whole new one, never a part,
 * and once a method returns the file survives a power loss.
 *
 * <p>How: write {@code .<name>.<uuid>.tmp} in the same folder (same file system, so the final step is a rename, not
 * a copy), fsync it, move it into place atomically, then fsync the folder so the new name itself is durable. Spark
 * skips both fsyncs; without them a crash can leave a renamed but empty file, or lose a rename the engine already
 * acted on. A temp name starts with a dot and is never all digits, so log listings ignore leftovers.
 */
final class AtomicFiles {

    /** Writes a file's content; may throw, in which case nothing is left behind. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicFiles() {
    }

    /**
     * Creates {@code target} with {@code content}, failing if it already exists: the existing file is never
     * replaced, even if it appears between a check and the write.
     *
     * @throws FileAlreadyExistsException if {@code target} exists (its content is left as it was)
     */
    static void createNew(Path target, Content content) throws IOException {
        Path tmp = writeTemp(target, content);
        try {
            linkOrMove(tmp, target);
        } finally {
            // After a link the temp name is a second name for the target's data; after a failure it is garbage.
            Files.deleteIfExists(tmp);
        }
        fsyncDirectory(folderOf(target));
    }

    static void createNew(Path target, byte[] bytes) throws IOException {
        createNew(target, out -> out.write(bytes));
    }

    /** Writes {@code target} with {@code content}, atomically replacing any existing file. */
    static void replace(Path target, Content content) throws IOException {
        Path tmp = writeTemp(target, content);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp, e);
            throw e;
        }
        fsyncDirectory(folderOf(target));
    }

    static void replace(Path target, byte[] bytes) throws IOException {
        replace(target, out -> out.write(bytes));
    }

    /** The temp name used for {@code target}: {@code .<name>.<uuid>.tmp} beside it. */
    static Path tempSibling(Path target) {
        return folderOf(target).resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    }

    /**
     * Like {@link Files#createDirectories}, and also fsyncs the parent of each folder it creates, so that a folder
     * the engine wrote into cannot vanish in a power loss.
     */
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
                return; // created concurrently: fine
            }
            throw e;
        }
        if (parent != null) {
            fsyncDirectory(parent);
        }
    }

    /**
     * Makes the folder's entries (names created, renamed or deleted) durable. Some platforms (Windows) cannot open
     * a folder for reading; there the rename is as durable as the platform makes it, which is all we can do.
     */
    static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Not supported here; see above.
        }
    }

    private static Path writeTemp(Path target, Content content) throws IOException {
        Path tmp = tempSibling(target);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch));
            content.writeTo(out);
            out.flush();
            ch.force(true);
        } catch (IOException | RuntimeException | Error e) {
            deleteQuietly(tmp, e);
            throw e;
        }
        return tmp;
    }

    /**
     * Puts {@code tmp} at {@code target} only if {@code target} does not exist. A POSIX rename (what
     * {@code ATOMIC_MOVE} does) silently replaces an existing target, so the primary way is a hard link, which
     * the kernel refuses atomically when the name exists. Where hard links are not supported, fall back to
     * check-then-move: racy in theory, but the checkpoint lock already keeps other writers out.
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
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("Cannot write " + target + " atomically: this file system supports neither"
                    + " hard links nor atomic renames", e);
        }
    }

    private static FileAlreadyExistsException alreadyExists(Path target) {
        return new FileAlreadyExistsException(target.toString(), null,
                "the file already exists and is never overwritten");
    }

    private static Path folderOf(Path target) {
        Path parent = target.toAbsolutePath().getParent();
        if (parent == null) {
            throw new IllegalArgumentException("Not a file path: " + target);
        }
        return parent;
    }

    private static void deleteQuietly(Path tmp, Throwable primary) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            primary.addSuppressed(e);
        }
    }
}
