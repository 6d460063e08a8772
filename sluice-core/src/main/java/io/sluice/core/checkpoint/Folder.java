package io.sluice.core.checkpoint;

import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.MetadataLogFiles;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import io.sluice.core.CorruptCheckpointException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One folder of a checkpoint, with the few operations its logs need: on the local disk exactly as the checkpoint
 * always worked ({@link DurableFiles}: temp file, fsync, hard link), or on a {@link Storage} (an object store), where
 * a file is created with {@link Storage#createExclusive} so that the first writer wins. Files are named by their name
 * in the folder; {@link #show} is how a message names one (the local path, or the URI).
 */
abstract sealed class Folder permits Folder.Local, Folder.Stored {

    /** The folder {@code dir} on the local disk. */
    static Folder local(Path dir) {
        return new Local(dir.toAbsolutePath().normalize());
    }

    /**
     * The folder {@code uri} on {@code storage}; {@code beforeWrite} runs before every write or delete (the
     * checkpoint's lease check, which throws when the lease was lost).
     */
    static Folder stored(Storage storage, String uri, Runnable beforeWrite) {
        return new Stored(storage, uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri, beforeWrite);
    }

    abstract Folder child(String name);

    /** The folder as messages name it. */
    abstract String show();

    /** A file of the folder as messages name it. */
    abstract String show(String name);

    /** The local folder; empty on an object store. */
    abstract Optional<Path> localPath();

    /** Creates the folder (durably) when the store has folders; nothing on an object store. */
    abstract void create() throws IOException;

    /**
     * A file read whole; empty when it does not exist. A file that cannot be a log file (a folder, a device, too
     * big) is {@code corrupt.apply(problem)}; other failures are {@link UncheckedIOException}s naming the file.
     */
    abstract Optional<byte[]> read(String name, Function<String, CorruptCheckpointException> corrupt);

    /** Writes a new file atomically and durably; false, writing nothing, when it exists (first writer wins). */
    abstract boolean createNew(String name, byte[] content) throws IOException;

    abstract boolean exists(String name) throws IOException;

    /** The names of the files directly in the folder, in no particular order; empty when there is no folder. */
    abstract List<String> names() throws IOException;

    abstract void delete(String name) throws IOException;

    static final class Local extends Folder {
        private final Path dir;

        Local(Path dir) {
            this.dir = dir;
        }

        @Override
        Folder child(String name) {
            return new Local(dir.resolve(name));
        }

        @Override
        String show() {
            return dir.toString();
        }

        @Override
        String show(String name) {
            return dir.resolve(name).toString();
        }

        @Override
        Optional<Path> localPath() {
            return Optional.of(dir);
        }

        @Override
        void create() throws IOException {
            DurableFiles.createDirectories(dir);
        }

        @Override
        Optional<byte[]> read(String name, Function<String, CorruptCheckpointException> corrupt) {
            return FileFormat.read(dir.resolve(name), corrupt);
        }

        @Override
        boolean createNew(String name, byte[] content) throws IOException {
            Path file = dir.resolve(name);
            if (Files.exists(file)) {
                return false;
            }
            try {
                DurableFiles.createNew(file, content);
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            }
        }

        @Override
        boolean exists(String name) {
            return Files.exists(dir.resolve(name));
        }

        @Override
        List<String> names() throws IOException {
            List<String> names = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path entry : entries) {
                    names.add(entry.getFileName().toString());
                }
            } catch (NoSuchFileException e) {
                return List.of();
            }
            return names;
        }

        @Override
        void delete(String name) throws IOException {
            Files.deleteIfExists(dir.resolve(name));
        }
    }

    static final class Stored extends Folder {
        private final Storage storage;
        private final String uri;
        private final Runnable beforeWrite;

        Stored(Storage storage, String uri, Runnable beforeWrite) {
            this.storage = Objects.requireNonNull(storage, "storage");
            this.uri = uri;
            this.beforeWrite = Objects.requireNonNull(beforeWrite, "beforeWrite");
        }

        @Override
        Folder child(String name) {
            return new Stored(storage, Storages.child(uri, name), beforeWrite);
        }

        @Override
        String show() {
            return uri;
        }

        @Override
        String show(String name) {
            return Storages.child(uri, name);
        }

        @Override
        Optional<Path> localPath() {
            return Optional.empty();
        }

        @Override
        void create() {
            // An object store has no folders: a prefix exists when an object under it does.
        }

        @Override
        Optional<byte[]> read(String name, Function<String, CorruptCheckpointException> corrupt) {
            String file = show(name);
            try {
                Optional<StoredObject> st = storage.status(file);
                if (st.isEmpty()) {
                    return Optional.empty();
                }
                if (st.get().size() > MetadataLogFiles.MAX_READ_BYTES) {
                    throw corrupt.apply("it is " + st.get().size() + " bytes, more than a log file can be (at most "
                            + MetadataLogFiles.MAX_READ_BYTES + ")");
                }
                return Optional.of(storage.readAll(file, MetadataLogFiles.MAX_READ_BYTES));
            } catch (NoSuchFileException e) {
                return Optional.empty(); // deleted between the status and the read (a purge)
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read checkpoint file " + file + ": " + e.getMessage(), e);
            }
        }

        @Override
        boolean createNew(String name, byte[] content) throws IOException {
            beforeWrite.run();
            return storage.createExclusive(show(name), content);
        }

        @Override
        boolean exists(String name) throws IOException {
            return storage.status(show(name)).isPresent();
        }

        @Override
        List<String> names() throws IOException {
            String prefix = uri + "/";
            List<String> names = new ArrayList<>();
            storage.list(prefix, null, o -> {
                String rest = o.uri().substring(prefix.length());
                if (rest.indexOf('/') < 0) {
                    names.add(rest);
                }
                return true;
            });
            return names;
        }

        @Override
        void delete(String name) throws IOException {
            beforeWrite.run();
            storage.delete(show(name));
        }
    }
}
