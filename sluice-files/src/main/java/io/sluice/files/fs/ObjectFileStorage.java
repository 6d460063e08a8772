package io.sluice.files.fs;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.io.LocalPaths;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * {@link FileStorage} on an object store ({@code s3://}, {@code s3a://}: any scheme a
 * {@link io.sluice.api.io.StorageProvider} serves), so that the file source's listing, globs, partition folders,
 * formats and cleanup run unchanged on it.
 *
 * <p>Paths: the file source works on {@link Path}s; an object {@code s3a://bucket/a/b.json} is the path
 * {@code /s3a:@N/bucket/a/b.json} of the default file system, where {@code s3a:@N} names this storage instance.
 * Such a path is only a name: nothing on the local disk is ever touched through it ({@link #owner(Path)} routes
 * the formats' reads here), and a local path never starts with a component ending in {@code :@N} (a path option
 * with a scheme is never a local path: {@link LocalPaths}). Key segments are path components, so a key with
 * {@code //} or a trailing {@code /} is not a file (directory markers are skipped).
 *
 * <p>Reads are pinned to the version tag (S3's ETag) seen when the object was last listed: an object replaced in
 * place after it was listed fails its read with {@link io.sluice.api.io.VersionChangedException} instead of being
 * read with new bytes. A listing is one flat prefix listing (no delimiter), in key order.
 */
public final class ObjectFileStorage implements FileStorage, AutoCloseable {
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final Map<String, ObjectFileStorage> OPEN = new ConcurrentHashMap<>();
    static final int LOOKUPS = 16;

    private final Storage storage;
    private final String scheme;
    private final String token;
    private final Map<String, String> tags = new ConcurrentHashMap<>();
    private final AtomicLong listCalls = new AtomicLong();
    private final AtomicLong keysListed = new AtomicLong();
    /** Requests (pages) of the prefix listings counted in {@link #listCalls}, status look-ups left out. */
    private final AtomicLong listRequests = new AtomicLong();
    /** Runs {@link #existing}'s look-ups and the read-ahead's fetches: made on first use, stopped by {@link #close()}. */
    private ExecutorService ioPool;
    /** The read-ahead each file to be opened belongs to ({@link #readAhead}). */
    private final Map<String, ObjectReadAhead> readAheads = new ConcurrentHashMap<>();

    private ObjectFileStorage(Storage storage, String scheme) {
        this.storage = storage;
        this.scheme = scheme;
        this.token = scheme + ":@" + IDS.incrementAndGet();
        OPEN.put(token, this);
    }

    /**
     * The storage for a path option's value: the local disk for a plain path or {@code file:} URI, else an object
     * store found by its scheme, with {@code conf} (the source's options, which may hold {@code fs.s3a.*}
     * settings, overlaid on the engine's configuration). The caller closes what it gets (closing the local one
     * does nothing).
     *
     * @throws InvalidOptionException when no module serves the scheme, naming the option and the module to add
     */
    public static FileStorage forPath(String option, String raw, Map<String, String> conf) {
        if (Storages.isLocal(raw)) {
            return FileStorage.local();
        }
        Storages.check(option, raw, Thread.currentThread().getContextClassLoader());
        try {
            String scheme = LocalPaths.scheme(raw).orElseThrow();
            return new ObjectFileStorage(Storages.of(raw, Storages.conf(Map.of(), conf)), scheme);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** The object storage a path of {@link #path(String)} belongs to, if it is one of an open storage. */
    static Optional<ObjectFileStorage> owner(Path path) {
        if (!path.isAbsolute() || path.getNameCount() == 0) {
            return Optional.empty();
        }
        String first = path.getName(0).toString();
        if (first.indexOf(":@") < 0) {
            return Optional.empty();
        }
        return Optional.ofNullable(OPEN.get(first));
    }

    /** Closes an object storage; does nothing for the local one. */
    public static void closeQuietly(FileStorage s) {
        if (s instanceof ObjectFileStorage o) {
            o.close();
        }
    }

    private boolean isObject(Path p) {
        return p.isAbsolute() && p.getNameCount() >= 2 && p.getName(0).toString().equals(token);
    }

    @Override
    public Path parse(String option, String raw) {
        if (Storages.isLocal(raw)) {
            return LocalPaths.of(option, raw);
        }
        String s = LocalPaths.scheme(raw).orElseThrow();
        if (!sameFamily(s)) {
            throw new InvalidOptionException(option, raw, "Invalid value '" + raw + "' for option '" + option
                    + "': the source reads " + scheme + "://; give a path of the same store, or a local one", true);
        }
        return path(raw);
    }

    private boolean sameFamily(String other) {
        String o = other.toLowerCase(Locale.ROOT);
        return o.equals(scheme) || ((o.equals("s3") || o.equals("s3a")) && (scheme.equals("s3")
                || scheme.equals("s3a")));
    }

    @Override
    public String uri(Path path) {
        if (!isObject(path)) {
            return FileStorage.local().uri(path);
        }
        StringBuilder sb = new StringBuilder(scheme).append("://");
        for (int i = 1; i < path.getNameCount(); i++) {
            if (i > 1) {
                sb.append('/');
            }
            sb.append(path.getName(i));
        }
        return sb.toString();
    }

    @Override
    public Path path(String uri) {
        int sep = uri.indexOf("://");
        if (sep < 0 || Storages.isLocal(uri)) {
            return FileStorage.local().path(uri);
        }
        String rest = uri.substring(sep + 3);
        while (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        if (rest.isEmpty() || rest.startsWith("/")) {
            throw new IllegalArgumentException("No bucket in " + uri + ": give " + scheme + "://BUCKET/path");
        }
        return Paths.get("/" + token + "/" + rest);
    }

    @Override
    public String display(Path path) {
        return uri(path);
    }

    /** The object URI with a {@code /} at the end: the prefix of what is "in" the folder. */
    private String folder(Path dir) {
        return Storages.asFolder(uri(dir));
    }

    /**
     * The look-ups {@value #LOOKUPS} at a time: each is a request of about a round trip (tens of milliseconds on
     * S3), so a batch of a thousand files checked one after another would wait tens of seconds.
     */
    @Override
    public boolean[] existing(List<Path> paths) {
        boolean[] out = new boolean[paths.size()];
        java.util.Arrays.fill(out, true);
        if (paths.size() <= 1) {
            return paths.isEmpty() ? out : FileStorage.super.existing(paths);
        }
        List<Future<Boolean>> pending = new ArrayList<>(paths.size());
        ExecutorService pool = ioPool();
        for (Path p : paths) {
            pending.add(pool.submit(() -> status(p).isPresent()));
        }
        try {
            for (int i = 0; i < out.length; i++) {
                try {
                    out[i] = pending.get(i).get();
                } catch (ExecutionException e) {
                    out[i] = true; // cannot tell: the reader will say what is wrong with it
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            java.util.Arrays.fill(out, true);
        } finally {
            pending.forEach(f -> f.cancel(true));
        }
        return out;
    }

    private synchronized ExecutorService ioPool() {
        if (!OPEN.containsKey(token)) {
            throw new IllegalStateException(this + " is closed");
        }
        if (ioPool == null) {
            AtomicInteger n = new AtomicInteger();
            ioPool = Executors.newFixedThreadPool(LOOKUPS, r -> {
                Thread t = new Thread(r, "sluice-" + scheme + "-io-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return ioPool;
    }

    @Override
    public Optional<FileStatus> status(Path path) throws IOException {
        if (!isObject(path)) {
            return FileStorage.local().status(path);
        }
        if (path.getNameCount() == 2) {
            // A bucket: a folder, once a listing shows it is there (a missing bucket fails, naming it). A look-up,
            // not one of the prefix listings the metrics count.
            storage.anyUnder(folder(path));
            return Optional.of(new FileStatus(path, true, 0, 0));
        }
        Optional<StoredObject> o = storage.status(uri(path));
        if (o.isPresent()) {
            tags.putIfAbsent(o.get().uri(), o.get().versionTag());
            return Optional.of(toStatus(path, o.get()));
        }
        return storage.anyUnder(folder(path)) ? Optional.of(new FileStatus(path, true, 0, 0)) : Optional.empty();
    }

    private FileStatus toStatus(Path path, StoredObject o) {
        return new FileStatus(path, false, o.size(), o.lastModified());
    }

    private void countedList(String prefix, Storage.ListVisitor visitor) throws IOException {
        countedList(prefix, null, visitor);
    }

    private void countedList(String prefix, String startAfter, Storage.ListVisitor visitor) throws IOException {
        listCalls.incrementAndGet();
        storage.list(prefix, startAfter, o -> {
            keysListed.incrementAndGet();
            return visitor.visit(o);
        });
    }

    @Override
    public List<FileStatus> list(Path directory) throws IOException {
        if (!isObject(directory)) {
            return FileStorage.local().list(directory);
        }
        String prefix = folder(directory);
        Map<String, FileStatus> children = new LinkedHashMap<>();
        long requestsBefore = storage.listRequests();
        try {
            listChildren(directory, prefix, children);
        } finally {
            listRequests.addAndGet(storage.listRequests() - requestsBefore);
        }
        if (children.isEmpty() && directory.getNameCount() > 2) {
            throw new NoSuchFileException(uri(directory));
        }
        return new ArrayList<>(children.values());
    }

    private void listChildren(Path directory, String prefix, Map<String, FileStatus> children) throws IOException {
        countedList(prefix, o -> {
            String rel = o.uri().substring(prefix.length());
            int slash = rel.indexOf('/');
            if (slash < 0) {
                tags.putIfAbsent(o.uri(), o.versionTag());
                children.put(rel, toStatus(directory.resolve(rel), o));
            } else if (slash > 0) {
                children.putIfAbsent(rel.substring(0, slash) + "/",
                        new FileStatus(directory.resolve(rel.substring(0, slash)), true, 0, 0));
            }
            return true;
        });
    }

    /** One flat listing of the prefix instead of a listing per folder: S3 has no folders to walk. */
    @Override
    public void walk(Path root, Predicate<String> accept, Consumer<FileStatus> files) throws IOException {
        walk(root, null, accept, files);
    }

    @Override
    public boolean listsFromKey() {
        return true;
    }

    /**
     * From {@code startAfter} (a URI under {@code root}), when not null: S3's {@code StartAfter}, so a listing
     * costs the keys after it only. A root that names a single object is then not looked up again (it was listed
     * by the listing that set {@code startAfter}).
     */
    @Override
    public void walk(Path root, String startAfter, Predicate<String> accept, Consumer<FileStatus> files)
            throws IOException {
        if (!isObject(root)) {
            FileStorage.local().walk(root, accept, files);
            return;
        }
        String prefix = folder(root);
        boolean[] any = {false};
        long requestsBefore = storage.listRequests();
        try {
            walkPrefix(root, prefix, startAfter, accept, files, any);
        } finally {
            listRequests.addAndGet(storage.listRequests() - requestsBefore);
        }
        if (!any[0] && root.getNameCount() > 2 && startAfter == null) {
            Optional<StoredObject> single = storage.status(uri(root));
            if (single.isPresent()) {
                tags.putIfAbsent(single.get().uri(), single.get().versionTag());
                files.accept(toStatus(root, single.get()));
            }
        }
    }

    private void walkPrefix(Path root, String prefix, String startAfter, Predicate<String> accept,
                            Consumer<FileStatus> files, boolean[] any) throws IOException {
        countedList(prefix, startAfter, o -> {
            any[0] = true;
            String rel = o.uri().substring(prefix.length());
            String[] parts = rel.split("/", -1);
            for (String part : parts) {
                if (part.isEmpty() || !accept.test(part)) {
                    return true; // a hidden folder or file (or an empty segment): not data
                }
            }
            tags.putIfAbsent(o.uri(), o.versionTag());
            files.accept(toStatus(root.resolve(rel), o));
            return true;
        });
    }

    @Override
    public InputStream open(Path path) throws IOException {
        if (!isObject(path)) {
            return FileStorage.local().open(path);
        }
        String uri = uri(path);
        ObjectReadAhead ahead = readAheads.remove(uri);
        if (ahead != null) {
            InputStream fetched = ahead.open(uri);
            if (fetched != null) {
                return fetched;
            }
        }
        return storage.open(uri, tags.get(uri));
    }

    /**
     * Fetches the next files of the reader ahead of it ({@link ObjectReadAhead}: up to {@value ObjectReadAhead#FILES}
     * files and {@value ObjectReadAhead#BYTES} bytes), on the storage's {@value #LOOKUPS} I/O threads.
     */
    @Override
    public ReadAhead readAhead(List<FileToRead> files) {
        List<String> uris = new ArrayList<>(files.size());
        List<Long> sizes = new ArrayList<>(files.size());
        for (FileToRead f : files) {
            if (isObject(f.path())) {
                uris.add(uri(f.path()));
                sizes.add(f.size());
            }
        }
        if (uris.size() < 2) {
            return ReadAhead.NONE; // the first file is streamed: nothing would be fetched ahead
        }
        ObjectReadAhead ahead = new ObjectReadAhead(uris, sizes.stream().mapToLong(Long::longValue).toArray(),
                uri -> storage.open(uri, tags.get(uri)), ioPool());
        for (String uri : uris) {
            readAheads.put(uri, ahead);
        }
        ahead.start();
        return () -> {
            ahead.close();
            for (String uri : ahead.uris()) {
                readAheads.remove(uri, ahead);
            }
        };
    }

    /**
     * Random access to an object ({@link RangedInput}), pinned to the version tag it was listed with (or, for an
     * object not listed through this storage, the one its status gives now).
     *
     * @throws java.nio.file.NoSuchFileException when there is no object
     * @throws io.sluice.api.io.VersionChangedException when it was replaced since it was listed
     */
    RangedInput openRanged(Path path) throws IOException {
        String uri = uri(path);
        Optional<StoredObject> now = storage.status(uri);
        if (now.isEmpty()) {
            throw new NoSuchFileException(uri);
        }
        String listed = tags.get(uri);
        if (listed != null && !listed.equals(now.get().versionTag())) {
            throw new io.sluice.api.io.VersionChangedException(uri, listed, now.get().versionTag());
        }
        return new RangedInput(storage, uri, now.get().versionTag(), now.get().size());
    }

    /**
     * Copy then delete (an object store has no rename), to an object of the same store or to the local disk. A
     * target left by a copy whose delete did not happen (a crash between them) is replaced: a restart that cleans
     * the file again finishes the move.
     */
    @Override
    public void move(Path source, Path target) throws IOException {
        if (!isObject(source)) {
            FileStorage.local().move(source, target);
            return;
        }
        String from = uri(source);
        if (isObject(target)) {
            storage.copy(from, uri(target));
        } else {
            Path parent = target.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path tmp = Files.createTempFile(parent, "." + target.getFileName(), ".sluice-tmp");
            try {
                try (InputStream in = storage.open(from, tags.get(from))) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        storage.delete(from);
        tags.remove(from);
    }

    @Override
    public boolean delete(Path path) throws IOException {
        if (!isObject(path)) {
            return FileStorage.local().delete(path);
        }
        String uri = uri(path);
        tags.remove(uri);
        return storage.delete(uri);
    }

    /**
     * Drops the version tag listed for {@code path}: the source calls this for a listed file it has seen, so that
     * the tags held are those of files still to be read, not of every object ever listed (1.2 M objects under a
     * prefix held ~300 MB of tags before).
     */
    @Override
    public void forget(Path path) {
        if (isObject(path)) {
            tags.remove(uri(path));
        }
    }

    /** The version tags held now for objects under {@code uriPrefix}, across the open object storages (tests). */
    static long tagsHeld(String uriPrefix) {
        return OPEN.values().stream().flatMap(o -> o.tags.keySet().stream()).filter(u -> u.startsWith(uriPrefix))
                .count();
    }

    /** The prefix listings (walks and folder listings), not the look-ups of {@link #status}. */
    @Override
    public Map<String, Long> listingCounts() {
        return Map.of("numListCalls", listCalls.get(), "numListRequests", listRequests.get(),
                "numKeysListed", keysListed.get());
    }

    @Override
    public void close() {
        OPEN.remove(token);
        ExecutorService pool;
        synchronized (this) {
            pool = ioPool;
        }
        if (pool != null) {
            pool.shutdownNow();
            try {
                pool.awaitTermination(10, TimeUnit.SECONDS); // a look-up ends within its request's timeout
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            storage.close();
        } catch (IOException e) {
            // nothing is written through the client at close
        }
    }

    @Override
    public String toString() {
        return "ObjectFileStorage[" + scheme + ", " + storage + "]";
    }
}
