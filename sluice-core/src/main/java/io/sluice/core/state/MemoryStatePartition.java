package io.sluice.core.state;

import io.sluice.api.io.Storage;
import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.checkpoint.Folder;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * One partition of {@link MemoryStateStoreProvider}: the last committed version kept in memory, so the next batch
 * loads it without reading a file (as Spark's provider caches its loaded maps); files are read only after a
 * restart or to load an older version.
 *
 * <p>Files, in the partition's folder (a checkpoint {@link Folder}: local files, or objects on a store):
 * {@code <v>.delta}, the changes from version v-1 to v (written by the commit of v), and {@code <v>.snapshot}, the
 * whole state at v. Both are: the magic {@code SLST}, a kind byte ({@code D} delta,
 * {@code S} snapshot), a format byte (1), then records (kind byte {@code 1} put: key length (int), key, value length
 * (int), value; {@code 2} remove: key length, key), then an end byte {@code 0} and the CRC-32 (long, big-endian)
 * of every byte before it. Written whole (locally to a temporary file, fsynced and renamed into place; on an object
 * store one object published at close), so a file is whole or absent, and replaced by a re-run of its version; a
 * file that fails these checks is corrupt.
 */
final class MemoryStatePartition implements StatePartition {
    private static final byte[] MAGIC = {'S', 'L', 'S', 'T'};
    private static final byte DELTA = 'D';
    private static final byte SNAPSHOT = 'S';
    private static final byte FORMAT = 1;
    private static final byte PUT = 1;
    private static final byte REMOVE = 2;
    private static final byte END = 0;
    private static final String DELTA_SUFFIX = ".delta";
    private static final String SNAPSHOT_SUFFIX = ".snapshot";
    /** Rough bytes per entry beyond key and value: the map node, two arrays' headers, the key wrapper. */
    private static final long ENTRY_OVERHEAD = 96;

    private final StateStoreId id;
    private final StateStoreConf conf;
    private final Folder files;
    /** The last version committed or loaded, and its state; null when none is in memory. */
    private long cachedVersion = -1;
    private HashMap<Key, byte[]> cached;
    private Store open;
    private long cacheHits;
    private long cacheMisses;

    MemoryStatePartition(StateStoreId id, StateStoreConf conf) {
        this.id = id;
        this.conf = conf;
        // No lease check of the folder's own: conf.storage() is the checkpoint's state storage, which checks.
        this.files = conf.isLocal() ? Folder.local(conf.dir()) : Folder.stored(conf.storage(), conf.location());
    }

    @Override
    public StateStoreId id() {
        return id;
    }

    @Override
    public StateStore load(long version) throws IOException {
        if (version < 0) {
            throw new IllegalArgumentException("Negative state version " + version);
        }
        if (open != null) {
            open.abort();
        }
        HashMap<Key, byte[]> base;
        if (cached != null && cachedVersion == version) {
            cacheHits++;
            base = cached;
        } else {
            cacheMisses++;
            base = readVersion(version);
            cached = base;
            cachedVersion = version;
        }
        open = new Store(version, new HashMap<>(base));
        return open;
    }

    /**
     * For {@link MemoryStateStoreProvider#numRows}: the keys of {@code version} in {@code dir}, read from its files
     * when they total at most {@code maxBytes}; empty when they are more, or missing, or unreadable.
     */
    static OptionalLong numRows(Path dir, long version, long maxBytes) {
        return numRows(new StateStoreConf(dir, 1, 1, Map.of()), version, maxBytes);
    }

    /** {@link #numRows(Path, long, long)} for the partition at {@code location} on {@code storage}. */
    static OptionalLong numRows(Storage storage, String location, long version, long maxBytes) {
        return numRows(StateStoreConf.on(storage, location, 1, 1, Map.of()), version, maxBytes);
    }

    private static OptionalLong numRows(StateStoreConf conf, long version, long maxBytes) {
        try {
            MemoryStatePartition p = new MemoryStatePartition(new StateStoreId(0, 0), conf);
            Long snap = version == 0 ? null : versions(p.files.names(), SNAPSHOT_SUFFIX).floor(version);
            long bytes = snap == null ? 0 : p.files.size(name(snap, SNAPSHOT_SUFFIX));
            for (long v = snap == null ? 1 : snap + 1; v <= version && bytes <= maxBytes; v++) {
                bytes += p.files.size(name(v, DELTA_SUFFIX));
            }
            return bytes > maxBytes ? OptionalLong.empty() : OptionalLong.of(p.readVersion(version).size());
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** Reads a version from the files: the newest snapshot at or before it, then the deltas after that. */
    private HashMap<Key, byte[]> readVersion(long version) throws IOException {
        HashMap<Key, byte[]> map = new HashMap<>();
        if (version == 0) {
            return map;
        }
        long from = 0;
        TreeSet<Long> snapshots = versions(files.names(), SNAPSHOT_SUFFIX);
        Long snap = snapshots.floor(version);
        if (snap != null) {
            read(name(snap, SNAPSHOT_SUFFIX), SNAPSHOT, map);
            from = snap;
        }
        for (long v = from + 1; v <= version; v++) {
            String delta = name(v, DELTA_SUFFIX);
            try {
                read(delta, DELTA, map);
            } catch (NoSuchFileException e) {
                throw files.missing(delta, "Checkpoint file " + files.show(delta) + " is missing (state version "
                        + version + " of operator " + id.operatorId() + ", partition " + id.partitionId()
                        + " needs it" + (snap == null ? ", and there is no snapshot before it" : " after "
                        + name(snap, SNAPSHOT_SUFFIX)) + "). The state cannot be rebuilt: restore the "
                        + "file from a copy of the checkpoint, or start the query again on a new checkpointLocation.");
            }
        }
        return map;
    }

    /**
     * Reads one file into {@code into}.
     *
     * @throws NoSuchFileException when the file does not exist (before anything is read)
     */
    private void read(String file, byte kind, Map<Key, byte[]> into) throws IOException {
        CRC32 crc = new CRC32();
        try (InputStream raw = new BufferedInputStream(files.open(file), 1 << 16);
             DataInputStream in = new DataInputStream(new CheckedInputStream(raw, crc))) {
            byte[] magic = new byte[4];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC) || in.readByte() != kind) {
                throw corrupt(file, "it is not a Sluice state " + (kind == DELTA ? "delta" : "snapshot") + " file",
                        null);
            }
            byte format = in.readByte();
            if (format != FORMAT) {
                throw corrupt(file, "its format " + format + " is not the format 1 this version reads", null);
            }
            while (true) {
                byte rec = in.readByte();
                if (rec == END) {
                    long expected = crc.getValue();
                    long stored = new DataInputStream(raw).readLong(); // the checksum is not part of itself
                    if (stored != expected) {
                        throw corrupt(file, "its checksum does not match its content", null);
                    }
                    if (raw.read() != -1) {
                        throw corrupt(file, "it has bytes after its end", null);
                    }
                    return;
                }
                if (rec != PUT && rec != REMOVE) {
                    throw corrupt(file, "it holds an unknown record kind " + rec, null);
                }
                Key key = new Key(readBytes(in, file));
                if (rec == PUT) {
                    into.put(key, readBytes(in, file));
                } else {
                    into.remove(key);
                }
            }
        } catch (EOFException e) {
            throw corrupt(file, "it is truncated", e);
        }
    }

    private byte[] readBytes(DataInputStream in, String file) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 1 << 30) {
            throw corrupt(file, "it holds a record length of " + n, null);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    private CorruptCheckpointException corrupt(String file, String problem, Throwable cause) {
        return files.badFile(file, problem, "The state of a stateful operator cannot be read "
                + "back, so the query cannot continue exactly once. Restore the file from a copy of the checkpoint, "
                + "or start the query again on a new checkpointLocation.", cause);
    }

    private static String name(long version, String suffix) {
        return version + suffix;
    }

    /** The versions of the files with this suffix among the folder's file names. */
    private static TreeSet<Long> versions(List<String> names, String suffix) {
        TreeSet<Long> out = new TreeSet<>();
        for (String name : names) {
            long v = versionOf(name);
            if (v >= 0 && name.equals(name(v, suffix))) { // exactly as written: not 05.delta, nor 5.x.delta
                out.add(v);
            }
        }
        return out;
    }

    @FunctionalInterface
    private interface Records {
        void writeTo(DataOutputStream out) throws IOException;
    }

    private void writeFile(String name, byte kind, Records records) throws IOException {
        files.create(); // here, not at open: a partition only read (numRows) leaves no folder behind
        files.replace(name, out -> {
            CRC32 crc = new CRC32();
            DataOutputStream data = new DataOutputStream(new CheckedOutputStream(out, crc));
            data.write(MAGIC);
            data.writeByte(kind);
            data.writeByte(FORMAT);
            records.writeTo(data);
            data.writeByte(END);
            data.flush();
            DataOutputStream tail = new DataOutputStream(out);
            tail.writeLong(crc.getValue());
            tail.flush();
        });
    }

    @Override
    public void maintenance() throws IOException {
        if (cached == null || cachedVersion <= 0) {
            return;
        }
        // One listing serves both steps (on an object store each is a request).
        List<String> names = files.names();
        TreeSet<Long> snapshots = versions(names, SNAPSHOT_SUFFIX);
        Long last = snapshots.floor(cachedVersion);
        long since = last == null ? 0 : last;
        if (cachedVersion - since >= conf.minDeltasForSnapshot() && !snapshots.contains(cachedVersion)) {
            HashMap<Key, byte[]> state = cached;
            writeFile(name(cachedVersion, SNAPSHOT_SUFFIX), SNAPSHOT, out -> {
                for (Map.Entry<Key, byte[]> e : state.entrySet()) {
                    out.writeByte(PUT);
                    out.writeInt(e.getKey().bytes.length);
                    out.write(e.getKey().bytes);
                    out.writeInt(e.getValue().length);
                    out.write(e.getValue());
                }
            });
            snapshots.add(cachedVersion);
        }
        // Keep what loading any of the last minBatchesToRetain versions needs: the newest snapshot at or before
        // the oldest of them, and every file after it.
        long oldestKept = cachedVersion - conf.minBatchesToRetain() + 1;
        Long base = snapshots.floor(oldestKept);
        if (base == null) {
            return;
        }
        for (String name : names) {
            long v = versionOf(name);
            if (v >= 0 && v < base) {
                files.delete(name);
            }
        }
    }

    private static long versionOf(String name) {
        int dot = name.indexOf('.');
        if (dot <= 0 || !(name.endsWith(DELTA_SUFFIX) || name.endsWith(SNAPSHOT_SUFFIX))) {
            return -1;
        }
        String digits = name.substring(0, dot);
        return digits.chars().allMatch(Character::isDigit) && digits.length() < 19 ? Long.parseLong(digits) : -1;
    }

    @Override
    public void close() {
        if (open != null) {
            open.abort();
        }
        cached = null;
    }

    /** A key compared by content. */
    private static final class Key {
        final byte[] bytes;
        final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private final class Store implements StateStore {
        final long version;
        final HashMap<Key, byte[]> map;
        /** This batch's changes, in key order of first change; a null value is a removal. */
        final HashMap<Key, byte[]> changes = new HashMap<>();
        boolean done;
        boolean committed;

        Store(long version, HashMap<Key, byte[]> map) {
            this.version = version;
            this.map = map;
        }

        @Override
        public long version() {
            return version;
        }

        @Override
        public byte[] get(byte[] key) {
            return map.get(new Key(key));
        }

        @Override
        public void put(byte[] key, byte[] value) {
            checkOpen();
            Key k = new Key(java.util.Objects.requireNonNull(key, "key"));
            map.put(k, java.util.Objects.requireNonNull(value, "value"));
            changes.put(k, value);
        }

        @Override
        public void remove(byte[] key) {
            checkOpen();
            Key k = new Key(key);
            if (map.remove(k) != null || changes.containsKey(k)) {
                changes.put(k, null);
            }
        }

        @Override
        public Iterator<StateEntry> iterator() {
            Iterator<Map.Entry<Key, byte[]>> it = map.entrySet().iterator();
            return new Iterator<>() {
                Key last;

                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public StateEntry next() {
                    if (!it.hasNext()) {
                        throw new NoSuchElementException();
                    }
                    Map.Entry<Key, byte[]> e = it.next();
                    last = e.getKey();
                    return new StateEntry(e.getKey().bytes, e.getValue());
                }

                @Override
                public void remove() {
                    checkOpen();
                    it.remove();
                    changes.put(last, null);
                }
            };
        }

        @Override
        public long numKeys() {
            return map.size();
        }

        @Override
        public long commit() throws IOException {
            checkOpen();
            writeFile(name(version + 1, DELTA_SUFFIX), DELTA, out -> {
                for (Map.Entry<Key, byte[]> e : changes.entrySet()) {
                    byte[] k = e.getKey().bytes;
                    if (e.getValue() == null) {
                        out.writeByte(REMOVE);
                        out.writeInt(k.length);
                        out.write(k);
                    } else {
                        out.writeByte(PUT);
                        out.writeInt(k.length);
                        out.write(k);
                        out.writeInt(e.getValue().length);
                        out.write(e.getValue());
                    }
                }
            });
            done = true;
            committed = true;
            cached = map;
            cachedVersion = version + 1;
            return version + 1;
        }

        @Override
        public void abort() {
            done = true;
        }

        @Override
        public boolean hasCommitted() {
            return committed;
        }

        @Override
        public StateStoreMetrics metrics() {
            long bytes = 0;
            for (Map.Entry<Key, byte[]> e : map.entrySet()) {
                bytes += e.getKey().bytes.length + e.getValue().length + ENTRY_OVERHEAD;
            }
            return new StateStoreMetrics(map.size(), bytes, Map.of(
                    "loadedMapCacheHitCount", cacheHits,
                    "loadedMapCacheMissCount", cacheMisses,
                    "stateOnCurrentVersionSizeBytes", bytes));
        }

        private void checkOpen() {
            if (done) {
                throw new IllegalStateException("State store " + files.show() + " version " + version + " was already "
                        + (committed ? "committed" : "aborted"));
            }
        }
    }
}
