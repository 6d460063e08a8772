package io.sluice.files.source;

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
 * Atomic, durable writes into the source's checkpoint folder: a reader sees no file or the whole file, and a file
 * is on disk when the method returns. The content goes to {@code .<name>.<uuid>.tmp} beside the target, is
 * fsynced, put in place by a hard link (refused atomically if the name exists) or an atomic rename, and the folder
 * is fsynced so the new name survives a power loss. Temp names start with a dot, so no listing mistakes them for
 * log files.
 */
final class AtomicFiles {

    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes through the channel itself, e.g. to fill in a header at the end. The channel is forced after. */
    @FunctionalInterface
    interface ChannelContent {
        void writeTo(FileChannel channel) throws IOException;
    }

    private AtomicFiles() {
    }

    /** Creates {@code target}; fails with {@link FileAlreadyExistsException} if it exists, never replacing it. */
    static void createNew(Path target, Content content) throws IOException {
        Path tmp = writeTemp(target, streamed(content));
        try {
            try {
                Files.createLink(target, tmp);
            } catch (UnsupportedOperationException | FileSystemException e) {
                if (e instanceof FileAlreadyExistsException) {
                    throw e;
                }
                if (Files.exists(target)) {
                    throw new FileAlreadyExistsException(target.toString());
                }
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException a) {
                    throw new IOException("Cannot write " + target + " atomically: this file system supports "
                            + "neither hard links nor atomic renames", a);
                }
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        fsyncDirectory(target.toAbsolutePath().getParent());
    }

    /** Writes {@code target}, atomically replacing an existing file. */
    static void replace(Path target, Content content) throws IOException {
        replaceWithChannel(target, streamed(content));
    }

    /** Writes {@code target} through a channel, atomically replacing an existing file. */
    static void replaceWithChannel(Path target, ChannelContent content) throws IOException {
        Path tmp = writeTemp(target, content);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        fsyncDirectory(target.toAbsolutePath().getParent());
    }

    /** Deletes a file and makes the deletion durable; false when it did not exist. */
    static boolean delete(Path file) throws IOException {
        return Files.deleteIfExists(file);
    }

    static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a folder; the rename is then as durable as the platform makes it.
        }
    }

    private static ChannelContent streamed(Content content) {
        return ch -> {
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
            content.writeTo(out);
            out.flush();
        };
    }

    private static Path writeTemp(Path target, ChannelContent content) throws IOException {
        Path tmp = target.toAbsolutePath().getParent()
                .resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            content.writeTo(ch);
            ch.force(true);
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return tmp;
    }
}
