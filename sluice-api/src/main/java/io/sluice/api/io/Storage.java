package io.sluice.api.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Storage addressed by URI strings: the local disk ({@code file:} URIs and plain paths) or an object store
 * ({@code s3://}, {@code s3a://}...). {@link Storages#of} finds the one for a URI. Used by the engine's checkpoint,
 * the file sink and the file source, so that they run unchanged on any store.
 *
 * <p>The model is an object store's: a flat namespace of objects named by their URI, with no folders. A
 * "folder" is a prefix ending in {@code /}; objects whose key ends in {@code /} (directory markers some tools and
 * servers write) are not objects here: {@link #status} and {@link #list} never return them. On the local disk a
 * URI names a file; folders are created as needed by writes and are never listed themselves.
 *
 * <p>What a caller may rely on, for every implementation:
 * <ul>
 *   <li><b>Thread-safe.</b> One instance serves every thread of a query.</li>
 *   <li><b>Atomic visibility.</b> Every write ({@link #createExclusive}, {@link #replaceIfVersion},
 *       {@link #create} at close, {@link #copy}) makes the object visible whole or not at all: a reader, in this
 *       or another process, sees no object (or the previous one) or the whole new content, never a part.</li>
 *   <li><b>Read-after-write.</b> Once a write returns, {@link #status}, {@link #open} and {@link #list} in any
 *       process see it (AWS S3 is strongly consistent since December 2020, listing included).</li>
 *   <li><b>Durability after return.</b> A write that returned survives a crash of the process (local: fsync of the
 *       file and its folder).</li>
 *   <li><b>Listing order.</b> {@link #list} gives objects in ascending order of the key's UTF-8 bytes, as S3's
 *       ListObjectsV2 does; for ASCII names that is {@link String#compareTo} order.</li>
 *   <li><b>Conditional writes</b> ({@link #createExclusive}, {@link #replaceIfVersion}, {@link #create} with
 *       {@code overwrite = false}) are atomic on the store: of two processes racing, exactly one wins. Some
 *       S3-compatible servers accept the headers and ignore them; {@link #probeConditionalWrites} finds out, and
 *       the engine refuses to put a checkpoint on such a store.</li>
 *   <li><b>Errors.</b> A missing object is {@link java.nio.file.NoSuchFileException} (naming the URI); a read
 *       pinned to a version that changed is {@link VersionChangedException}; everything else is an
 *       {@link IOException} whose message names the URI and never a secret. Transient failures (S3's 503, a dropped
 *       connection) are retried inside the implementation before an exception is thrown.</li>
 * </ul>
 *
 * <p>A storage may hold a client with threads or connections: whoever got it from {@link Storages#of} closes it.
 */
public interface Storage extends AutoCloseable {

    /** Receives listed objects; returns false to stop the listing early. */
    @FunctionalInterface
    interface ListVisitor {
        boolean visit(StoredObject object) throws IOException;
    }

    /**
     * The local path a URI of this storage names, when this is the local disk: lets callers keep local-only
     * behaviour (file locks, {@code java.nio} reads). Empty for object stores.
     */
    default Optional<Path> localPath(String uri) {
        return Optional.empty();
    }

    /** The status of the object at {@code uri}, or empty when there is none (a prefix or folder is not one). */
    Optional<StoredObject> status(String uri) throws IOException;

    /**
     * Every object whose URI starts with {@code prefix}, at any depth (a flat listing, S3's ListObjectsV2 without a
     * delimiter), in the order the class comment gives, starting after {@code startAfter} when it is not null.
     * Directory markers (keys ending in {@code /}) and, on the local disk, folders are left out. A prefix under
     * which nothing exists lists nothing (no error). Objects created or deleted while listing may or may not be
     * seen. To list a folder's content give a prefix ending in {@code /}.
     *
     * @param startAfter a full URI (of the same scheme and authority as {@code prefix}); only objects after it in
     *                   listing order are visited, as S3's {@code StartAfter}
     */
    void list(String prefix, String startAfter, ListVisitor visitor) throws IOException;

    /**
     * Whether {@link #list(String, String, ListVisitor)} of {@code prefix} would visit at least one object (a
     * folder's existence, on an object store). The default lists until the first object; an object store asks for
     * a small page rather than a full one.
     */
    default boolean anyUnder(String prefix) throws IOException {
        boolean[] any = {false};
        list(prefix, null, o -> {
            any[0] = true;
            return false;
        });
        return any[0];
    }

    /** {@link #list(String, String, ListVisitor)} from the start, into a list. */
    default List<StoredObject> list(String prefix) throws IOException {
        List<StoredObject> out = new ArrayList<>();
        list(prefix, null, o -> out.add(o));
        return out;
    }

    /**
     * Opens the object for reading, whole.
     *
     * @param versionTag the {@link StoredObject#versionTag()} the caller saw (the read fails with
     *                   {@link VersionChangedException} if the object has another when opened; one replaced while
     *                   the stream is read either fails a later read with it or is not seen, the old version then
     *                   being read whole: never a mix), or null to read whatever is there
     * @throws java.nio.file.NoSuchFileException when there is no object
     */
    InputStream open(String uri, String versionTag) throws IOException;

    /**
     * Opens {@code length} bytes of the object from {@code offset} (fewer at the end of the object; none past it).
     * Pinned to {@code versionTag} as {@link #open(String, String)} is.
     */
    InputStream open(String uri, long offset, long length, String versionTag) throws IOException;

    /**
     * Reads an object whole into memory, refusing one of more than {@code maxBytes} bytes (with an
     * {@link IOException} naming the URI and its size).
     *
     * @throws java.nio.file.NoSuchFileException when there is no object
     */
    default byte[] readAll(String uri, long maxBytes) throws IOException {
        try (InputStream in = open(uri, null)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw new IOException(uri + " is more than " + maxBytes + " bytes, more than can be read here");
            }
            return bytes;
        }
    }

    /**
     * Creates the object with {@code content} if no object exists at {@code uri}, atomically: of any number of
     * writers racing, in any processes, exactly one gets true and its content is the one kept; the others get false
     * and change nothing. Local: temp file then hard link (never a replacing rename); S3: PUT with
     * {@code If-None-Match: *} (412 → false; 409, a concurrent conditional write, is retried).
     *
     * @return true when this call created it, false when an object existed
     */
    boolean createExclusive(String uri, byte[] content) throws IOException;

    /**
     * Replaces the object at {@code uri} with {@code content} only if its version tag is still
     * {@code expectedTag}, atomically (S3: PUT with {@code If-Match}), for leases and other compare-and-set state.
     * Local: atomic among the callers of one JVM and at most best-effort across processes (the local checkpoint
     * keeps a file lock instead).
     *
     * @return the new version tag, or empty when the object has another tag or no longer exists (nothing changed)
     */
    Optional<String> replaceIfVersion(String uri, byte[] content, String expectedTag) throws IOException;

    /**
     * An output for a large object, visible whole only when the output is closed (see {@link WholeObjectOutput}).
     *
     * @param overwrite true to replace an existing object at close; false to fail at close with
     *                  {@link java.nio.file.FileAlreadyExistsException} if one exists then (atomically, as
     *                  {@link #createExclusive})
     */
    WholeObjectOutput create(String uri, boolean overwrite) throws IOException;

    /**
     * Copies the object at {@code from} to {@code to} (same storage), replacing any object at {@code to}; the copy
     * is visible whole or not at all. There is no rename on S3: a move is a copy then a delete, and a crash between
     * them leaves both, which a caller must be ready to find.
     *
     * @throws java.nio.file.NoSuchFileException when there is no object at {@code from}
     */
    void copy(String from, String to) throws IOException;

    /**
     * Deletes the object at {@code uri}.
     *
     * @return false when there was none (on stores that cannot tell cheaply, true may be returned for a missing
     *         object: callers use the result for counts and messages only)
     */
    boolean delete(String uri) throws IOException;

    /**
     * Checks that this store honours conditional writes, by trying them under {@code folderUri} (a prefix ending in
     * {@code /} that the caller may write, e.g. a checkpoint's folder): it creates a probe object
     * {@code .sluice-probe-<uuid>} with {@link #createExclusive} (must be true), again (must be false, the content
     * unchanged), then {@link #replaceIfVersion} with a wrong tag (must be empty) and with the right one (must
     * succeed), and deletes the probe. A store that accepts {@code If-None-Match} and {@code If-Match} and ignores
     * them (some S3-compatible servers) fails it. Costs a few requests: call it once when a checkpoint is opened.
     *
     * @return empty when conditional writes work, or what went wrong, as a clause for a message
     *         ({@code "a second exclusive create of ... succeeded"})
     */
    default Optional<String> probeConditionalWrites(String folderUri) throws IOException {
        String probe = Storages.child(folderUri, ".sluice-probe-" + UUID.randomUUID());
        byte[] first = "first".getBytes(StandardCharsets.US_ASCII);
        try {
            if (!createExclusive(probe, first)) {
                return Optional.of("an exclusive create of the new object " + probe + " reported it as existing");
            }
            if (createExclusive(probe, "second".getBytes(StandardCharsets.US_ASCII))
                    || !java.util.Arrays.equals(readAll(probe, 64), first)) {
                return Optional.of("a second exclusive create of " + probe + " overwrote it (If-None-Match: * is "
                        + "ignored)");
            }
            Optional<StoredObject> st = status(probe);
            if (st.isEmpty()) {
                return Optional.of("the object " + probe + " was not found right after it was written");
            }
            if (replaceIfVersion(probe, "third".getBytes(StandardCharsets.US_ASCII), st.get().versionTag() + "x")
                    .isPresent()) {
                return Optional.of("a conditional replace of " + probe + " with a wrong version tag succeeded "
                        + "(If-Match is ignored)");
            }
            if (replaceIfVersion(probe, "fourth".getBytes(StandardCharsets.US_ASCII), st.get().versionTag())
                    .isEmpty()) {
                return Optional.of("a conditional replace of " + probe + " with its own version tag failed");
            }
            return Optional.empty();
        } finally {
            delete(probe);
        }
    }

    /**
     * Listing requests (S3's ListObjectsV2, one per page of up to 1,000 keys) this storage has sent since it was
     * made, for the file source's listing-cost metrics. 0 where a listing is not a request (the local disk).
     */
    default long listRequests() {
        return 0;
    }

    /** Releases the client's connections and threads, if any. Default: nothing to release. */
    @Override
    default void close() throws IOException {
    }
}
