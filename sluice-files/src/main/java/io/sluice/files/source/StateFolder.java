package io.sluice.files.source;

import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.MetadataLogFiles;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.WholeObjectOutput;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The folder the file source keeps its state in ({@code sources/<i>/} of the checkpoint): the seen-files log
 * ({@link SeenFilesLog}), its snapshots ({@link HotSnapshot}) and the cleanSource marker. Two kinds, with the
 * same guarantees: a local folder (the files as they always were: temp file, fsync, then hard link or rename), and
 * a prefix on an object store through {@link Storage}, where a log file is created with a conditional write
 * ({@link Storage#create} with {@code overwrite = false}: {@code If-None-Match: *}), so of two writers of log
 * offset N exactly one wins, as the hard link does on disk.
 *
 * <p>A snapshot is memory-mapped, so on an object store it goes through a local temporary file: written there and
 * uploaded whole, or downloaded whole and mapped; the temporary file is deleted at once (the mapping stays valid
 * on Linux and macOS), so nothing is left behind on the local disk.
 */
sealed interface StateFolder permits StateFolder.Local, StateFolder.Stored {

    /** The local folder {@code dir}. */
    static StateFolder local(Path dir) {
        return new Local(dir);
    }

    /** The folder {@code uri} (a prefix; {@code /} is added) on {@code storage}, which the caller owns. */
    static StateFolder stored(Storage storage, String uri) {
        return new Stored(storage, Storages.asFolder(uri));
    }

    /** The folder as messages name it: a local path or a URI. */
    String display();

    /** A file of the folder as messages name it. */
    String display(String name);

    /** Creates the folder where folders exist (locally); nothing on an object store. */
    void create() throws IOException;

    /** True when the folder exists (locally) or, on an object store, always (a prefix has no existence). */
    boolean exists();

    /** The names of the folder's files (not of sub-folders), in no particular order. */
    List<String> names() throws IOException;

    /** True when the file exists. */
    boolean exists(String name) throws IOException;

    /**
     * Opens a log file for reading; refuses (locally) what is not a regular file.
     *
     * @throws NoSuchFileException when there is none
     */
    InputStream open(String name) throws IOException;

    /**
     * Creates the file with the content, atomically and only if it does not exist.
     *
     * @throws FileAlreadyExistsException when it exists (another writer got there first); nothing changed
     */
    void createNew(String name, DurableFiles.Writer content) throws IOException;

    /** Replaces (or creates) a small file atomically. */
    void replace(String name, byte[] content) throws IOException;

    /** Deletes the file if it is there. */
    void deleteIfExists(String name) throws IOException;

    /** Opens the snapshot {@code name} (mapped). */
    HotSnapshot openSnapshot(String name) throws IOException;

    /**
     * Writes a snapshot {@code name}: {@code writer} writes it (durably, as {@link SeenFiles#writeSnapshot} does)
     * to the local path given and returns it opened; on an object store that path is a temporary file, uploaded
     * whole before this returns.
     */
    HotSnapshot writeSnapshot(String name, SnapshotWriter writer) throws IOException;

    /** Writes a snapshot to a local file and opens it. */
    @FunctionalInterface
    interface SnapshotWriter {
        HotSnapshot write(Path file) throws IOException;
    }

    /** The local folder: exactly the behaviour the source always had. */
    record Local(Path dir) implements StateFolder {
        public Local {
            Objects.requireNonNull(dir, "dir");
        }

        @Override
        public String display() {
            return dir.toString();
        }

        @Override
        public String display(String name) {
            return dir.resolve(name).toString();
        }

        @Override
        public void create() throws IOException {
            Files.createDirectories(dir);
        }

        @Override
        public boolean exists() {
            return Files.isDirectory(dir);
        }

        @Override
        public List<String> names() throws IOException {
            List<String> out = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                for (Path p : ds) {
                    out.add(p.getFileName().toString());
                }
            }
            return out;
        }

        @Override
        public boolean exists(String name) {
            return Files.exists(dir.resolve(name));
        }

        @Override
        public InputStream open(String name) throws IOException {
            Path file = dir.resolve(name);
            MetadataLogFiles.checkRegularFile(file); // a folder or a link to /dev/zero is no log file
            return Files.newInputStream(file);
        }

        @Override
        public void createNew(String name, DurableFiles.Writer content) throws IOException {
            DurableFiles.createNew(dir.resolve(name), content);
        }

        @Override
        public void replace(String name, byte[] content) throws IOException {
            DurableFiles.replace(dir.resolve(name), out -> out.write(content));
        }

        @Override
        public void deleteIfExists(String name) throws IOException {
            Files.deleteIfExists(dir.resolve(name));
        }

        @Override
        public HotSnapshot openSnapshot(String name) throws IOException {
            return HotSnapshot.open(dir.resolve(name));
        }

        @Override
        public HotSnapshot writeSnapshot(String name, SnapshotWriter writer) throws IOException {
            return writer.write(dir.resolve(name));
        }
    }

    /** A prefix on an object store. */
    record Stored(Storage storage, String folder) implements StateFolder {
        public Stored {
            Objects.requireNonNull(storage, "storage");
            Objects.requireNonNull(folder, "folder");
        }

        private String uri(String name) {
            return folder + name;
        }

        @Override
        public String display() {
            return folder;
        }

        @Override
        public String display(String name) {
            return uri(name);
        }

        @Override
        public void create() {
            // An object store has no folders: the prefix exists once a file is written under it.
        }

        @Override
        public boolean exists() {
            return true;
        }

        @Override
        public List<String> names() throws IOException {
            List<String> out = new ArrayList<>();
            storage.list(folder, null, o -> {
                String rest = o.uri().substring(folder.length());
                if (!rest.isEmpty() && rest.indexOf('/') < 0) {
                    out.add(rest);
                }
                return true;
            });
            return out;
        }

        @Override
        public boolean exists(String name) throws IOException {
            return storage.status(uri(name)).isPresent();
        }

        @Override
        public InputStream open(String name) throws IOException {
            return storage.open(uri(name), null);
        }

        @Override
        public void createNew(String name, DurableFiles.Writer content) throws IOException {
            // Streamed, published whole at close with If-None-Match: * (a batch may log a million files).
            WholeObjectOutput out = storage.create(uri(name), false);
            boolean published = false;
            try {
                content.writeTo(out);
                out.close();
                published = true;
            } finally {
                if (!published) {
                    out.abort();
                }
            }
        }

        @Override
        public void replace(String name, byte[] content) throws IOException {
            WholeObjectOutput out = storage.create(uri(name), true);
            boolean published = false;
            try {
                out.write(content);
                out.close();
                published = true;
            } finally {
                if (!published) {
                    out.abort();
                }
            }
        }

        @Override
        public void deleteIfExists(String name) throws IOException {
            storage.delete(uri(name));
        }

        @Override
        public HotSnapshot openSnapshot(String name) throws IOException {
            Path tmp = Files.createTempFile("sluice-seen-files-", HotSnapshot.SUFFIX);
            try {
                try (InputStream in = storage.open(uri(name), null)) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                return HotSnapshot.open(tmp);
            } finally {
                // The mapping outlives the file: nothing is left on the local disk.
                Files.deleteIfExists(tmp);
            }
        }

        @Override
        public HotSnapshot writeSnapshot(String name, SnapshotWriter writer) throws IOException {
            Path tmp = Files.createTempFile("sluice-seen-files-", HotSnapshot.SUFFIX);
            try {
                HotSnapshot s = writer.write(tmp);
                // Replacing is safe: only the lease holder writes here, and a snapshot of log offset N written
                // again (after a crash before the old log files went) holds the same entries.
                WholeObjectOutput out = storage.create(uri(name), true);
                boolean published = false;
                try {
                    Files.copy(tmp, out);
                    out.close();
                    published = true;
                } finally {
                    if (!published) {
                        out.abort();
                    }
                }
                return s;
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
