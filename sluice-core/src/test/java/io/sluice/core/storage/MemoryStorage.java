package io.sluice.core.storage;

import io.sluice.api.io.Storage;
import io.sluice.api.io.StorageProvider;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.VersionChangedException;
import io.sluice.api.io.WholeObjectOutput;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-memory object store for tests, served for the scheme {@code mem://<bucket>/<key>} through
 * {@link Provider} (registered in the test resources), so the engine is tested on a non-local store without S3.
 * One store per bucket name, shared by every {@code Storages.of} in the JVM (as a real bucket is shared by
 * processes). Like S3: a flat key space in UTF-8 byte order, keys ending in {@code /} are directory markers and
 * never listed, version tags change on every write.
 *
 * <p>{@link #ignoreConditionalWrites(boolean)} makes it behave like an S3-compatible server that accepts
 * {@code If-None-Match} and {@code If-Match} and ignores them (every write wins).
 */
public final class MemoryStorage implements Storage {

    private static final Map<String, MemoryStorage> BUCKETS = new ConcurrentHashMap<>();
    private static final AtomicLong VERSIONS = new AtomicLong();

    private record Obj(byte[] bytes, long lastModified, String tag) {
    }

    private final String bucket;
    private final ConcurrentSkipListMap<String, Obj> objects = new ConcurrentSkipListMap<>(
            Comparator.comparing((String k) -> k.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));
    private volatile boolean ignoreConditionalWrites;
    private volatile long now = 1_700_000_000_000L;
    /** How many writes (of any kind) were made: lets tests assert an operation wrote nothing. */
    private final AtomicLong writes = new AtomicLong();
    /** The {@link #status} look-ups per key: an object store's request each. */
    private final Map<String, AtomicLong> statusCalls = new ConcurrentHashMap<>();
    /** The reads ({@link #open} calls, GETs on a store) per key. */
    private final Map<String, AtomicLong> openCalls = new ConcurrentHashMap<>();
    /** Runs in each {@link #status} call before it answers (tests that need look-ups to meet). */
    private volatile IoAction beforeStatus = () -> { };

    /** An action that may fail as a request does. */
    @FunctionalInterface
    public interface IoAction {
        void run() throws IOException;
    }

    private MemoryStorage(String bucket) {
        this.bucket = bucket;
    }

    /** The store of {@code bucket}, created empty on first use. */
    public static MemoryStorage bucket(String bucket) {
        return BUCKETS.computeIfAbsent(bucket, MemoryStorage::new);
    }

    /** A new empty bucket with a unique name: {@code mem://<name>/}. */
    public static MemoryStorage fresh() {
        return bucket("b" + VERSIONS.incrementAndGet() + "-" + System.nanoTime());
    }

    /** The URI of {@code key} in this bucket. */
    public String uri(String key) {
        return "mem://" + bucket + "/" + key;
    }

    /** Every write wins, as on a server that ignores conditional headers. */
    public MemoryStorage ignoreConditionalWrites(boolean ignore) {
        this.ignoreConditionalWrites = ignore;
        return this;
    }

    /** The keys stored, in listing order. */
    public Set<String> keys() {
        return objects.keySet();
    }

    /** The content of {@code key}, or null. */
    public byte[] get(String key) {
        Obj o = objects.get(key);
        return o == null ? null : o.bytes.clone();
    }

    /** Puts an object without conditions (e.g. a directory marker), as another tool would. */
    public void put(String key, byte[] bytes) {
        objects.put(key, obj(bytes));
    }

    public long writes() {
        return writes.get();
    }

    /** How many {@link #status} look-ups {@code key} had. */
    public long statusCalls(String key) {
        AtomicLong n = statusCalls.get(key);
        return n == null ? 0 : n.get();
    }

    /** How many reads ({@link #open} calls) {@code key} had. */
    public long openCalls(String key) {
        AtomicLong n = openCalls.get(key);
        return n == null ? 0 : n.get();
    }

    /** Runs {@code action} in every {@link #status} call, before it answers. */
    public MemoryStorage beforeStatus(IoAction action) {
        this.beforeStatus = action;
        return this;
    }

    private Obj obj(byte[] bytes) {
        writes.incrementAndGet();
        return new Obj(bytes.clone(), now++, "\"" + VERSIONS.incrementAndGet() + "\"");
    }

    private String key(String uri) throws IOException {
        String prefix = "mem://" + bucket + "/";
        if (!uri.startsWith(prefix)) {
            throw new IOException(uri + " is not in the bucket mem://" + bucket);
        }
        return uri.substring(prefix.length());
    }

    private Obj existing(String uri) throws IOException {
        String k = key(uri);
        Obj o = k.endsWith("/") ? null : objects.get(k);
        if (o == null) {
            throw new NoSuchFileException(uri);
        }
        return o;
    }

    @Override
    public Optional<StoredObject> status(String uri) throws IOException {
        String k = key(uri);
        statusCalls.computeIfAbsent(k, x -> new AtomicLong()).incrementAndGet();
        beforeStatus.run();
        Obj o = k.endsWith("/") ? null : objects.get(k);
        return o == null ? Optional.empty() : Optional.of(new StoredObject(uri, o.bytes.length, o.lastModified, o.tag));
    }

    @Override
    public void list(String prefix, String startAfter, ListVisitor visitor) throws IOException {
        String p = key(prefix);
        String from = startAfter == null ? p : key(startAfter);
        for (Map.Entry<String, Obj> e : objects.tailMap(from, startAfter == null).entrySet()) {
            String k = e.getKey();
            if (!k.startsWith(p)) {
                if (compare(k, p) > 0) {
                    break;
                }
                continue;
            }
            if (k.endsWith("/")) {
                continue; // a directory marker
            }
            Obj o = e.getValue();
            if (!visitor.visit(new StoredObject(uri(k), o.bytes.length, o.lastModified, o.tag))) {
                return;
            }
        }
    }

    private static int compare(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public InputStream open(String uri, String versionTag) throws IOException {
        return open(uri, 0, Long.MAX_VALUE, versionTag);
    }

    @Override
    public InputStream open(String uri, long offset, long length, String versionTag) throws IOException {
        openCalls.computeIfAbsent(key(uri), x -> new AtomicLong()).incrementAndGet();
        Obj o = existing(uri);
        if (versionTag != null && !versionTag.equals(o.tag)) {
            throw new VersionChangedException(uri, versionTag, o.tag);
        }
        int from = (int) Math.min(offset, o.bytes.length);
        int to = (int) Math.min(o.bytes.length, from + Math.min(length, Integer.MAX_VALUE));
        return new ByteArrayInputStream(o.bytes, from, to - from);
    }

    @Override
    public boolean createExclusive(String uri, byte[] content) throws IOException {
        String k = key(uri);
        if (ignoreConditionalWrites) {
            objects.put(k, obj(content));
            return true;
        }
        return objects.putIfAbsent(k, obj(content)) == null;
    }

    @Override
    public Optional<String> replaceIfVersion(String uri, byte[] content, String expectedTag) throws IOException {
        String k = key(uri);
        Obj next = obj(content);
        if (ignoreConditionalWrites) {
            objects.put(k, next);
            return Optional.of(next.tag);
        }
        Obj[] replaced = new Obj[1];
        objects.computeIfPresent(k, (key, old) -> {
            if (old.tag.equals(expectedTag)) {
                replaced[0] = next;
                return next;
            }
            return old;
        });
        return Optional.ofNullable(replaced[0]).map(Obj::tag);
    }

    @Override
    public WholeObjectOutput create(String uri, boolean overwrite) throws IOException {
        String k = key(uri);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        return new WholeObjectOutput() {
            private boolean done;

            @Override
            public void write(int b) {
                buf.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                buf.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                if (done) {
                    return;
                }
                done = true;
                if (overwrite || ignoreConditionalWrites) {
                    objects.put(k, obj(buf.toByteArray()));
                } else if (objects.putIfAbsent(k, obj(buf.toByteArray())) != null) {
                    throw new FileAlreadyExistsException(uri, null, "the object already exists");
                }
            }

            @Override
            public void abort() {
                done = true;
            }
        };
    }

    @Override
    public void copy(String from, String to) throws IOException {
        Obj o = existing(from);
        objects.put(key(to), obj(o.bytes));
    }

    @Override
    public boolean delete(String uri) throws IOException {
        return objects.remove(key(uri)) != null;
    }

    /** Serves {@code mem://}. */
    public static final class Provider implements StorageProvider {
        @Override
        public Set<String> schemes() {
            return Set.of("mem");
        }

        @Override
        public Storage open(String uri, Map<String, String> conf) {
            String rest = uri.substring("mem://".length());
            int slash = rest.indexOf('/');
            String bucket = slash < 0 ? rest : rest.substring(0, slash);
            if (bucket.isEmpty()) {
                throw new IllegalArgumentException(uri + " names no bucket: mem://<bucket>/<key> is accepted");
            }
            return bucket(bucket);
        }
    }
}
