package io.sluice.core.checkpoint;

import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.MetadataLogFiles;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.WholeObjectOutput;
import io.sluice.core.CorruptCheckpointException;

import java.io.IOException;
import java.io.InputStream;
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
 * One folder of a checkpoint, with the few operations its logs and its state store need: on the local disk exactly
 * as the checkpoint always worked ({@link DurableFiles}: temp file, fsync, then a hard link for a new file or a
 * rename for a replaced one), or on a {@link Storage} (an object store), where a log file is created with
 * {@link Storage#createExclusive} so that the first writer wins and a replaced file is one object written whole.
 * Files are named by their name in the folder; {@link #show} is how a message names one (the local path, or the
 * URI).
 *
 * <p>Public, in this internal package, so that the state store ({@code io.sluice.core.state}, whose files are the
 * checkpoint's {@code state/} folder) is built on it too: one class knows how a checkpoint file is written on each
 * kind of store. It stays here rather than in a package of its own because the checkpoint is what it describes, and
 * this package is already closed to every module but sluice-core ({@code ModuleBoundariesTest}), so making it public
 * widens nothing beyond sluice-core; the state package is a service-provider interface, where it would become API.
 */
public abstract sealed class Folder permits Folder.Local, Folder.Stored {

    /** The folder {@code dir} on the local disk (made absolute and normalized). */
    public static Folder local(Path dir) {
        return new Local(dir.toAbsolutePath().normalize());
    }

    /**
     * The folder {@code uri} on {@code storage}; {@code beforeWrite} runs before every write or delete (the
     * checkpoint's lease check, which throws when the lease was lost).
     */
    public static Folder stored(Storage storage, String uri, Runnable beforeWrite) {
        return new Stored(storage, uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri, beforeWrite);
    }

    /**
     * The folder {@code uri} on {@code storage}, with no check of its own before a write: for a caller whose storage
     * checks (the state store writes through the checkpoint's {@link Checkpoint#stateStorage()}, which runs the
     * lease check before every write and delete), so each write is checked once, as before.
     */
    public static Folder stored(Storage storage, String uri) {
        return stored(storage, uri, () -> { });
    }

    /** The folder {@code name} inside this one, on the same store (and with the same check before writes). */
    public abstract Folder child(String name);

    /** The folder as messages name it. */
    public abstract String show();

    /** A file of the folder as messages name it. */
    public abstract String show(String name);

    /** The local folder; empty on an object store. */
    public abstract Optional<Path> localPath();

    /** Creates the folder (durably) when the store has folders; nothing on an object store. */
    public abstract void create() throws IOException;

    /**
     * A file read whole; empty when it does not exist. A file that cannot be a log file (a folder, a device, too
     * big) is {@code corrupt.apply(problem)}; other failures are {@link UncheckedIOException}s naming the file.
     */
    public abstract Optional<byte[]> read(String name, Function<String, CorruptCheckpointException> corrupt);

    /**
     * Opens a file to stream it from its start, whatever its size; the caller closes the stream.
     *
     * @throws NoSuchFileException when there is no such file
     */
    public abstract InputStream open(String name) throws IOException;

    /**
     * A file's size in bytes.
     *
     * @throws NoSuchFileException when there is no such file
     */
    public abstract long size(String name) throws IOException;

    /** Writes a new file atomically and durably; false, writing nothing, when it exists (first writer wins). */
    public abstract boolean createNew(String name, byte[] content) throws IOException;

    /**
     * Writes the file whole with what {@code content} writes, replacing one of that name (a batch re-run after a
     * crash writes its file again): readers see the old file or the new one, never a part, and the new one is
     * durable when this returns. When {@code content} or the write fails, the old file (or none) is left as it was.
     * The folder must exist ({@link #create()}).
     */
    public abstract void replace(String name, DurableFiles.Writer content) throws IOException;

    /** True when the file exists. */
    public abstract boolean exists(String name) throws IOException;

    /** The names of the files directly in the folder, in no particular order; empty when there is no folder. */
    public abstract List<String> names() throws IOException;

    /** Deletes a file; nothing happens when there is none. */
    public abstract void delete(String name) throws IOException;

    /** {@link CorruptCheckpointException#badFile} for a file of the folder, named as {@link #show(String)} does. */
    public abstract CorruptCheckpointException badFile(String name, String problem, String consequenceAndAdvice,
                                                       Throwable cause);

    /** A {@link CorruptCheckpointException} for a missing file of the folder, with the whole message. */
    public abstract CorruptCheckpointException missing(String name, String message);

    static final class Local extends Folder {
        private final Path dir;

        Local(Path dir) {
            this.dir = dir;
        }

        @Override
        public Folder child(String name) {
            return new Local(dir.resolve(name));
        }

        @Override
        public String show() {
            return dir.toString();
        }

        @Override
        public String show(String name) {
            return dir.resolve(name).toString();
        }

        @Override
        public Optional<Path> localPath() {
            return Optional.of(dir);
        }

        @Override
        public void create() throws IOException {
            DurableFiles.createDirectories(dir);
        }

        @Override
        public Optional<byte[]> read(String name, Function<String, CorruptCheckpointException> corrupt) {
            return FileFormat.read(dir.resolve(name), corrupt);
        }

        @Override
        public InputStream open(String name) throws IOException {
            return Files.newInputStream(dir.resolve(name));
        }

        @Override
        public long size(String name) throws IOException {
            return Files.size(dir.resolve(name));
        }

        @Override
        public boolean createNew(String name, byte[] content) throws IOException {
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
        public void replace(String name, DurableFiles.Writer content) throws IOException {
            DurableFiles.replace(dir.resolve(name), content);
        }

        @Override
        public boolean exists(String name) {
            return Files.exists(dir.resolve(name));
        }

        @Override
        public List<String> names() throws IOException {
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
        public void delete(String name) throws IOException {
            Files.deleteIfExists(dir.resolve(name));
        }

        @Override
        public CorruptCheckpointException badFile(String name, String problem, String consequenceAndAdvice,
                                                  Throwable cause) {
            return CorruptCheckpointException.badFile(dir.resolve(name), problem, consequenceAndAdvice, cause);
        }

        @Override
        public CorruptCheckpointException missing(String name, String message) {
            return new CorruptCheckpointException(dir.resolve(name), message, null);
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
        public Folder child(String name) {
            return new Stored(storage, Storages.child(uri, name), beforeWrite);
        }

        @Override
        public String show() {
            return uri;
        }

        @Override
        public String show(String name) {
            return Storages.child(uri, name);
        }

        @Override
        public Optional<Path> localPath() {
            return Optional.empty();
        }

        @Override
        public void create() {
            // An object store has no folders: a prefix exists when an object under it does.
        }

        @Override
        public Optional<byte[]> read(String name, Function<String, CorruptCheckpointException> corrupt) {
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
        public InputStream open(String name) throws IOException {
            return storage.open(show(name), null);
        }

        @Override
        public long size(String name) throws IOException {
            String file = show(name);
            return storage.status(file).orElseThrow(() -> new NoSuchFileException(file)).size();
        }

        @Override
        public boolean createNew(String name, byte[] content) throws IOException {
            beforeWrite.run();
            return storage.createExclusive(show(name), content);
        }

        @Override
        public void replace(String name, DurableFiles.Writer content) throws IOException {
            beforeWrite.run();
            // One object, published whole at close; overwrite, as the local rename replaces a re-run's file.
            WholeObjectOutput out = storage.create(show(name), true);
            try {
                content.writeTo(out);
            } catch (IOException | RuntimeException | Error e) {
                out.abort(); // before any close, which would publish the part written
                throw e;
            }
            out.close();
        }

        @Override
        public boolean exists(String name) throws IOException {
            return storage.status(show(name)).isPresent();
        }

        @Override
        public List<String> names() throws IOException {
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
        public void delete(String name) throws IOException {
            beforeWrite.run();
            storage.delete(show(name));
        }

        @Override
        public CorruptCheckpointException badFile(String name, String problem, String consequenceAndAdvice,
                                                  Throwable cause) {
            return CorruptCheckpointException.badFile(show(name), problem, consequenceAndAdvice, cause);
        }

        @Override
        public CorruptCheckpointException missing(String name, String message) {
            return new CorruptCheckpointException(show(name), message, null);
        }
    }
}
