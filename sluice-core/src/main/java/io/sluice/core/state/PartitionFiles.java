package io.sluice.core.state;

import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.WholeObjectOutput;
import io.sluice.core.CorruptCheckpointException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of one state partition's folder, on the local disk ({@link DurableFiles}: temp file, fsync, rename, as
 * the store always wrote them) or on an object store (a {@link Storage}: each file one object, written whole), so
 * that {@link MemoryStatePartition} has one code path for both. Files are named by their name in the folder;
 * {@link #show} is how a message names one (the local path, or the URI).
 */
abstract sealed class PartitionFiles permits PartitionFiles.Local, PartitionFiles.Stored {

    /** Writes a file's content. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** The folder {@link StateStoreConf} names: its local {@code dir} when it has one, else its location. */
    static PartitionFiles of(StateStoreConf conf) {
        return conf.isLocal() ? new Local(conf.dir()) : new Stored(conf.storage(), conf.location());
    }

    /** A file of the folder as messages name it. */
    abstract String show(String name);

    /** The folder as messages name it. */
    abstract String show();

    /** Opens a file to read it whole. @throws NoSuchFileException when there is none */
    abstract InputStream open(String name) throws IOException;

    /** A file's size in bytes. @throws NoSuchFileException when there is none */
    abstract long size(String name) throws IOException;

    /** The names of the files directly in the folder, in no particular order; empty when there is no folder. */
    abstract List<String> names() throws IOException;

    /**
     * Writes the file whole, replacing one of that name (a batch re-run after a crash writes its version again):
     * visible whole or not at all, and durable when this returns.
     */
    abstract void write(String name, Content content) throws IOException;

    /** Deletes a file; nothing happens when there is none. */
    abstract void delete(String name) throws IOException;

    /** {@link CorruptCheckpointException#badFile} for a file of the folder. */
    abstract CorruptCheckpointException badFile(String name, String problem, String advice, Throwable cause);

    /** A {@link CorruptCheckpointException} for a missing file of the folder, with the whole message. */
    abstract CorruptCheckpointException missing(String name, String message);

    static final class Local extends PartitionFiles {
        private final Path dir;

        Local(Path dir) {
            this.dir = dir;
        }

        @Override
        String show(String name) {
            return dir.resolve(name).toString();
        }

        @Override
        String show() {
            return dir.toString();
        }

        @Override
        InputStream open(String name) throws IOException {
            return Files.newInputStream(dir.resolve(name));
        }

        @Override
        long size(String name) throws IOException {
            return Files.size(dir.resolve(name));
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
        void write(String name, Content content) throws IOException {
            DurableFiles.createDirectories(dir);
            DurableFiles.replace(dir.resolve(name), content::writeTo);
        }

        @Override
        void delete(String name) throws IOException {
            Files.deleteIfExists(dir.resolve(name));
        }

        @Override
        CorruptCheckpointException badFile(String name, String problem, String advice, Throwable cause) {
            return CorruptCheckpointException.badFile(dir.resolve(name), problem, advice, cause);
        }

        @Override
        CorruptCheckpointException missing(String name, String message) {
            return new CorruptCheckpointException(dir.resolve(name), message, null);
        }
    }

    static final class Stored extends PartitionFiles {
        private final Storage storage;
        private final String uri;

        Stored(Storage storage, String uri) {
            this.storage = storage;
            this.uri = uri;
        }

        @Override
        String show(String name) {
            return Storages.child(uri, name);
        }

        @Override
        String show() {
            return uri;
        }

        @Override
        InputStream open(String name) throws IOException {
            return storage.open(show(name), null);
        }

        @Override
        long size(String name) throws IOException {
            return storage.status(show(name)).orElseThrow(() -> new NoSuchFileException(show(name))).size();
        }

        @Override
        List<String> names() throws IOException {
            String prefix = Storages.asFolder(uri);
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
        void write(String name, Content content) throws IOException {
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
        void delete(String name) throws IOException {
            storage.delete(show(name));
        }

        @Override
        CorruptCheckpointException badFile(String name, String problem, String advice, Throwable cause) {
            return CorruptCheckpointException.badFile(show(name), problem, advice, cause);
        }

        @Override
        CorruptCheckpointException missing(String name, String message) {
            return new CorruptCheckpointException(show(name), message, null);
        }
    }
}
