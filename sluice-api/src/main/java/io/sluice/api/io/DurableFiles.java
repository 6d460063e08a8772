package io.sluice.api.io;

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
import java.util.Objects;
import java.util.UUID;

/**
 * Atomic, durable file writes on the local file system, for the engine's checkpoint and for sources and sinks that
 * keep state in their metadata folder ({@code StreamContext.metadataPath()}).
 *
 * <p>What a caller may rely on, for every write method:
 * <ul>
 *   <li><b>Atomic visibility.</b> Any reader, in this or another process, sees either no file (or, for
 *       {@code replace}, the previous file) or the whole new content; never a part of it, not even while the
 *       content is being written.</li>
 *   <li><b>Durability after return.</b> Once the method returns normally, the content and the file's name survive a
 *       crash or a power loss (the file and its folder are fsynced), as far as the platform honours fsync.</li>
 *   <li><b>Nothing left behind on failure.</b> If the content callback or any step throws, the exception propagates
 *       unchanged, the target is untouched (absent, or the previous content for {@code replace}) and the temp file
 *       is deleted (a failure to delete it is added as a suppressed exception). Only a crash of the process itself
 *       can leave a temp file.</li>
 * </ul>
 *
 * <p>How: the content goes to a temp file in the target's folder (the same file system, so the last step is a
 * rename or a link, never a copy), which is fsynced, put in place atomically, and then the folder is fsynced so the
 * new name itself is durable.
 *
 * <p>Temp names: {@code .<target name>.<random UUID>.tmp} beside the target. They start with a dot and are never all
 * digits, so a listing that skips hidden files, or one that looks for batch ids, never mistakes a leftover for a
 * real file; such leftovers may be deleted at any time when no write is in progress.
 *
 * <p>Concurrency: writes to different targets are independent. Two processes may race on {@link #createNew}: at
 * most one succeeds where the file system has hard links (all usual local ones); elsewhere the check is made just
 * before an atomic rename, so callers should still keep a single writer per folder (as the checkpoint lock does).
 * Not for network or object stores that lack atomic rename.
 */
public final class DurableFiles {

    private static final int BUFFER = 1 << 16;

    /**
     * Streams a file's content. It may throw, in which case nothing is left behind. It must not close {@code out}:
     * the stream is flushed and the file fsynced after it returns.
     */
    @FunctionalInterface
    public interface Writer {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes a file's content through its channel, e.g. to fill in a header at position 0 once the body is written.
     * The channel starts at position 0 on an empty file; it must not be closed; it is fsynced after this returns.
     */
    @FunctionalInterface
    public interface ChannelWriter {
        void writeTo(FileChannel channel) throws IOException;
    }

    private DurableFiles() {
    }

    /**
     * Creates {@code target} with the content {@code content} writes, failing if it already exists: an existing
     * file is never replaced, even one that appears while the content is being written.
     *
     * @throws FileAlreadyExistsException if {@code target} exists; its content is left as it was, and the message
     *         is {@code "<target>: the file already exists and is never overwritten"}
     * @throws IOException if the content cannot be written, or the file system supports neither hard links nor
     *         atomic renames
     */
    public static void createNew(Path target, Writer content) throws IOException {
        Path tmp = writeTemp(target, streamed(content));
        try {
            linkOrMove(tmp, target);
        } finally {
            // After a link the temp name is a second name for the target's data; after a failure it is garbage.
            Files.deleteIfExists(tmp);
        }
        fsyncFolder(folderOf(target));
    }

    /** {@link #createNew(Path, Writer)} with the given bytes. */
    public static void createNew(Path target, byte[] content) throws IOException {
        Objects.requireNonNull(content, "content");
        createNew(target, out -> out.write(content));
    }

    /**
     * Writes {@code target} with the content {@code content} writes, atomically replacing any existing file: a
     * reader sees the old content or the new one, never a mix.
     *
     * @throws IOException if the content cannot be written, or the file system has no atomic rename
     *         ({@link AtomicMoveNotSupportedException}); in both cases the old file is kept
     */
    public static void replace(Path target, Writer content) throws IOException {
        replaceWithChannel(target, streamed(content));
    }

    /** {@link #replace(Path, Writer)} with the given bytes. */
    public static void replace(Path target, byte[] content) throws IOException {
        Objects.requireNonNull(content, "content");
        replace(target, out -> out.write(content));
    }

    /** {@link #replace(Path, Writer)}, writing through the temp file's channel. */
    public static void replaceWithChannel(Path target, ChannelWriter content) throws IOException {
        Path tmp = writeTemp(target, content);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp, e);
            throw e;
        }
        fsyncFolder(folderOf(target));
    }

    /**
     * Like {@link Files#createDirectories}, and also fsyncs the parent of each folder it creates, so a folder that
     * files were durably written into cannot itself vanish in a power loss. Existing folders, and folders created
     * concurrently by another thread, are fine.
     *
     * @throws IOException if a file (not a folder) is in the way, or a folder cannot be created
     */
    public static void createDirectories(Path dir) throws IOException {
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
            fsyncFolder(parent);
        }
    }

    /**
     * Makes the folder's entries (names created, renamed or deleted in it) durable. Never throws: some platforms
     * (Windows) cannot open a folder for reading, and there the entries are as durable as the platform makes them.
     */
    public static void fsyncFolder(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Not supported here; see above.
        }
    }

    /** The temp name for {@code target}: {@code .<name>.<uuid>.tmp} in the same folder. */
    static Path tempSibling(Path target) {
        return folderOf(target).resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    }

    private static ChannelWriter streamed(Writer content) {
        Objects.requireNonNull(content, "content");
        return ch -> {
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), BUFFER);
            content.writeTo(out);
            out.flush();
        };
    }

    private static Path writeTemp(Path target, ChannelWriter content) throws IOException {
        Objects.requireNonNull(content, "content");
        Path tmp = tempSibling(target);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            content.writeTo(ch);
            ch.force(true);
        } catch (IOException | RuntimeException | Error e) {
            deleteQuietly(tmp, e);
            throw e;
        }
        return tmp;
    }

    /**
     * Puts {@code tmp} at {@code target} only if {@code target} does not exist. A POSIX rename (what
     * {@code ATOMIC_MOVE} does) silently replaces an existing target, so the primary way is a hard link, which the
     * kernel refuses atomically when the name exists. Where hard links are not supported, fall back to
     * check-then-move: racy in theory, which is why callers keep one writer per folder.
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
