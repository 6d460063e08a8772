package io.sluice.files.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The few file-system operations the file source needs, kept behind one interface so that object stores can be
 * added later beside the local file system ({@link #local()}). Paths are {@link java.nio.file.Path}s so a store
 * with a NIO provider fits in; everything a checkpoint records about a file is its {@link #uri(Path)}.
 *
 * <p>Implementations are thread-safe. Nothing here is atomic across calls: a listing is a snapshot that may be
 * stale by the time it is used, and callers must cope with entries that vanish.
 */
public interface FileStorage {

    /** The local file system through {@code java.nio.file}. */
    static FileStorage local() {
        return LocalFileStorage.INSTANCE;
    }

    /**
     * The canonical URI string of a path, as written to the seen-files log and compared to identify a file:
     * Spark's form, e.g. {@code file:///data/in/a%20b.json} for a local file. Equal paths give equal strings.
     */
    String uri(Path path);

    /** The path a {@link #uri(Path)} string (or a Spark log's {@code file:/...} variant of it) names. */
    Path path(String uri);

    /** How the path is shown in descriptions, as Spark's qualified Hadoop path: {@code file:/data/in}. */
    String display(Path path);

    /** The status of a file or directory, or empty when nothing exists there. Symbolic links are followed. */
    Optional<FileStatus> status(Path path) throws IOException;

    /**
     * The direct children of a directory with their status, in no particular order. Children that vanish while
     * listing are left out.
     *
     * @throws java.nio.file.NoSuchFileException when the directory does not exist
     */
    List<FileStatus> list(Path directory) throws IOException;

    /**
     * Every file under {@code root} (or {@code root} itself when it is a file), descending into sub-directories
     * whose name {@code accept} accepts, and passing on files whose name it accepts. Special files (FIFOs,
     * sockets, devices: {@link FileStatus#special()}) are passed on too, marked, for the caller to skip and count.
     * A root that does not exist yields nothing. Object stores override this with a flat prefix listing.
     */
    default void walk(Path root, Predicate<String> accept, Consumer<FileStatus> files) throws IOException {
        Optional<FileStatus> s = status(root);
        if (s.isEmpty()) {
            return;
        }
        if (!s.get().directory()) {
            files.accept(s.get());
            return;
        }
        walkChildren(root, accept, files);
    }

    /**
     * Whether each of {@code paths} exists now, in order: {@link #status} of each. A look-up that fails counts as
     * existing (whoever reads the file will report what is wrong with it), and so does every path when the caller
     * is interrupted meanwhile (its interrupt status is kept). The local disk looks them up one after another; an
     * object store, where each is a request, several at a time.
     */
    default boolean[] existing(List<Path> paths) {
        boolean[] out = new boolean[paths.size()];
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = status(paths.get(i)).isPresent();
            } catch (IOException e) {
                out[i] = true;
            }
        }
        return out;
    }

    /**
     * Tells the storage that the file a listing gave will not be read through it (the source has read it already,
     * or skips it), so that what the storage keeps per listed file (an object store's version tag) is dropped.
     * A later listing of the file records it again. Does nothing by default.
     */
    default void forget(Path path) {
    }

    /**
     * Whether {@link #walk(Path, String, Predicate, Consumer)} honours its {@code startAfter}: an object store's
     * flat listing in key order (S3's ListObjectsV2 {@code StartAfter}). The local disk has no listing order to
     * start from and lists everything.
     */
    default boolean listsFromKey() {
        return false;
    }

    /**
     * As {@link #walk(Path, Predicate, Consumer)}, listing only the files whose URI sorts after {@code startAfter}
     * in the store's key order when {@link #listsFromKey()} (else, or when it is null, every file), for the file
     * source's incremental listing. Files are given in key order then.
     */
    default void walk(Path root, String startAfter, Predicate<String> accept, Consumer<FileStatus> files)
            throws IOException {
        walk(root, accept, files);
    }

    private void walkChildren(Path dir, Predicate<String> accept, Consumer<FileStatus> files) throws IOException {
        List<FileStatus> children;
        try {
            children = list(dir);
        } catch (java.nio.file.NoSuchFileException e) {
            return; // removed while walking
        }
        for (FileStatus c : children) {
            if (!accept.test(c.name())) {
                continue;
            }
            if (c.directory()) {
                walkChildren(c.path(), accept, files);
            } else {
                files.accept(c);
            }
        }
    }

    /**
     * Parses a path option's value ({@code path}, {@code sourceArchiveDir}) into a path of this storage. The local
     * disk refuses a scheme other than {@code file:} ({@link io.sluice.api.io.LocalPaths}); an object store
     * accepts its own URIs and local paths (an archive on disk).
     */
    default Path parse(String option, String raw) {
        return io.sluice.api.io.LocalPaths.of(option, raw);
    }

    /**
     * Counts of listing work since this storage was made, for the source's metrics: on an object store
     * {@code numListCalls} (prefix listings, each one or more requests of up to 1,000 keys) and
     * {@code numKeysListed}. None on the local disk.
     */
    default java.util.Map<String, Long> listingCounts() {
        return java.util.Map.of();
    }

    /** A file a reader will open, with the size its listing gave. */
    record FileToRead(Path path, long size) {
    }

    /** What {@link #readAhead} started; closing it drops every file fetched and not opened. Idempotent. */
    interface ReadAhead extends AutoCloseable {
        /** Nothing fetched ahead. */
        ReadAhead NONE = () -> { };

        @Override
        void close();
    }

    /**
     * Says that one reader will open these files with {@link #open}, in this order, each once and whole, so that
     * the storage may fetch the next ones while the reader works on the current one. A hint: every {@link #open}
     * gives the same bytes, or fails the same way (a missing file, a version changed since the listing), as
     * without it. The caller closes the handle when the reader is done. The local disk fetches nothing ahead; an
     * object store fetches a few files ahead, within a memory budget (see {@code ObjectFileStorage}).
     */
    default ReadAhead readAhead(List<FileToRead> files) {
        return ReadAhead.NONE;
    }

    /** Opens a file for reading. The stream's reads are interruptible (an interrupt closes it). */
    InputStream open(Path path) throws IOException;

    /**
     * Moves a file to {@code target}, creating the target's parent directories. Fails if {@code target} exists;
     * never replaces a file.
     */
    void move(Path source, Path target) throws IOException;

    /** Deletes a file; false when it did not exist. */
    boolean delete(Path path) throws IOException;
}
