package io.sluice.core.checkpoint;

import io.sluice.api.io.Storage;
import io.sluice.api.io.WholeObjectOutput;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A checkpoint's storage for the files the engine writes beside its logs (operator state): reads go straight
 * through; every write and delete first runs the lease check, as {@link Folder} does for the logs, so a query that
 * lost its checkpoint's lease writes nothing beside the query that took it over. Closing it closes nothing: the
 * storage belongs to whoever opened the checkpoint.
 */
final class LeaseGuardedStorage implements Storage {
    private final Storage storage;
    private final Runnable beforeWrite;

    LeaseGuardedStorage(Storage storage, Runnable beforeWrite) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.beforeWrite = Objects.requireNonNull(beforeWrite, "beforeWrite");
    }

    @Override
    public Optional<Path> localPath(String uri) {
        return storage.localPath(uri);
    }

    @Override
    public Optional<io.sluice.api.io.StoredObject> status(String uri) throws IOException {
        return storage.status(uri);
    }

    @Override
    public void list(String prefix, String startAfter, ListVisitor visitor) throws IOException {
        storage.list(prefix, startAfter, visitor);
    }

    @Override
    public InputStream open(String uri, String versionTag) throws IOException {
        return storage.open(uri, versionTag);
    }

    @Override
    public InputStream open(String uri, long offset, long length, String versionTag) throws IOException {
        return storage.open(uri, offset, length, versionTag);
    }

    @Override
    public byte[] readAll(String uri, long maxBytes) throws IOException {
        return storage.readAll(uri, maxBytes);
    }

    @Override
    public boolean createExclusive(String uri, byte[] content) throws IOException {
        beforeWrite.run();
        return storage.createExclusive(uri, content);
    }

    @Override
    public Optional<String> replaceIfVersion(String uri, byte[] content, String expectedTag) throws IOException {
        beforeWrite.run();
        return storage.replaceIfVersion(uri, content, expectedTag);
    }

    /** Checked when the output is made: the object is published at its close, a moment later. */
    @Override
    public WholeObjectOutput create(String uri, boolean overwrite) throws IOException {
        beforeWrite.run();
        return storage.create(uri, overwrite);
    }

    @Override
    public void copy(String from, String to) throws IOException {
        beforeWrite.run();
        storage.copy(from, to);
    }

    @Override
    public boolean delete(String uri) throws IOException {
        beforeWrite.run();
        return storage.delete(uri);
    }

    @Override
    public long listRequests() {
        return storage.listRequests();
    }
}
