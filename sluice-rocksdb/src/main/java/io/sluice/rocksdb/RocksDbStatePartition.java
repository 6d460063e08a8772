package io.sluice.rocksdb;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.state.StateEntry;
import io.sluice.core.state.StatePartition;
import io.sluice.core.state.StateStore;
import io.sluice.core.state.StateStoreConf;
import io.sluice.core.state.StateStoreId;
import io.sluice.core.state.StateStoreMetrics;
import org.rocksdb.Checkpoint;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * One state partition in RocksDB. The working database lives in a local temporary folder (deleted on close); the
 * checkpoint folder {@code state/<op>/<partition>/} holds, as Spark's {@code RocksDBFileManager} lays it out:
 * <ul>
 *   <li>{@code SSTs/<number>-<uuid>.sst}: each SST file of the database, copied once when a commit first needs
 *       it (SST files never change, so later versions reuse the copy; the uuid keeps a re-run's new file of the
 *       same number apart from the first run's);</li>
 *   <li>{@code <version>.zip}: the database's other files (MANIFEST, CURRENT, OPTIONS) and {@code metadata}, a
 *       text file: {@code v1}, {@code numKeys=<n>}, then one line {@code sst <local name> <SSTs/ name> <bytes>} per
 *       SST file the version needs (Spark's is JSON: the layout is Sluice's own and Spark does not read it).</li>
 * </ul>
 * Loading version N reuses the open database when it holds N (the usual next batch), and otherwise rebuilds the
 * local folder from {@code N.zip} and the SST files it lists. Writes go to the database directly without its
 * write-ahead log: a commit flushes the memtable and checkpoints; an abort after a write leaves the database dirty,
 * so the next load rebuilds it from the checkpoint. Each commit writes a whole version ({@code N.zip}); Spark's
 * changelog checkpointing ({@code N.changelog}) is not implemented.
 */
final class RocksDbStatePartition implements StatePartition {
    private static final Logger LOG = LoggerFactory.getLogger(RocksDbStatePartition.class);
    private static final String METADATA = "metadata";
    private static final String SST_DIR = "SSTs";

    static {
        RocksDB.loadLibrary();
    }

    /** An SST file of a version: its name in the database folder, in {@code SSTs/}, and its size. */
    private record Sst(String localName, String dfsName, long size) {
    }

    /** A version's {@code metadata}. */
    private record Metadata(long numKeys, List<Sst> ssts) {
    }

    private final StateStoreId id;
    private final StateStoreConf conf;
    private final Path dir;
    private final Path local;
    private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
    private Options options;
    private RocksDB db;
    /** The version the open database holds, unchanged since; -1 when it must be rebuilt before use. */
    private long dbVersion = -1;
    /** The SST files of the open database that already have a copy in {@code SSTs/}, by local name. */
    private final Map<String, Sst> uploaded = new HashMap<>();
    private final Map<Long, Set<String>> referencedByVersion = new HashMap<>();
    private long numKeys;
    private Store current;
    private int loads;
    private int reuses;

    RocksDbStatePartition(StateStoreId id, StateStoreConf conf) throws IOException {
        this.id = id;
        this.conf = conf;
        this.dir = conf.dir().toAbsolutePath();
        this.local = Files.createTempDirectory("sluice-rocksdb-" + id.operatorId() + "-" + id.partitionId() + "-");
    }

    @Override
    public StateStoreId id() {
        return id;
    }

    @Override
    public StateStore load(long version) throws IOException {
        if (current != null && !current.hasCommitted()) {
            current.abort();
        }
        current = null;
        loads++;
        if (db != null && dbVersion == version) {
            reuses++;
        } else {
            rebuild(version);
        }
        current = new Store(version);
        return current;
    }

    /** Replaces the local database with version {@code version} of the checkpoint (empty for 0). */
    private void rebuild(long version) throws IOException {
        closeDb();
        deleteRecursively(local);
        Files.createDirectories(local);
        uploaded.clear();
        if (version == 0) {
            numKeys = 0;
        } else {
            Path zip = dir.resolve(version + ".zip");
            Metadata meta = unzip(zip, local);
            for (Sst sst : meta.ssts()) {
                Path from = dir.resolve(SST_DIR).resolve(sst.dfsName());
                long size;
                try {
                    size = Files.size(from);
                } catch (NoSuchFileException e) {
                    throw new CorruptCheckpointException(from, "Checkpoint file " + from + " is missing (state "
                            + "version " + version + " of operator " + id.operatorId() + ", partition "
                            + id.partitionId() + " needs it, per " + zip.getFileName() + "). " + advice(), e);
                }
                if (size != sst.size()) {
                    throw CorruptCheckpointException.badFile(from, "it has " + size + " bytes where "
                            + zip.getFileName() + " says " + sst.size(), advice(), null);
                }
                Files.copy(from, local.resolve(sst.localName()));
                uploaded.put(sst.localName(), sst);
            }
            numKeys = meta.numKeys();
        }
        openDb();
        dbVersion = version;
    }

    private static String advice() {
        return "The state of a stateful operator cannot be read back, so the query cannot continue exactly once. "
                + "Restore the file from a copy of the checkpoint, or start the query again on a new "
                + "checkpointLocation.";
    }

    private void openDb() throws IOException {
        options = new Options().setCreateIfMissing(true);
        try {
            db = RocksDB.open(options, local.toString());
        } catch (RocksDBException e) {
            options.close();
            options = null;
            throw new IOException("Cannot open the RocksDB state store in " + local + " (operator " + id.operatorId()
                    + ", partition " + id.partitionId() + "): " + e.getMessage(), e);
        }
    }

    private void closeDb() {
        if (db != null) {
            db.close();
            db = null;
        }
        if (options != null) {
            options.close();
            options = null;
        }
        dbVersion = -1;
    }

    /**
     * For {@link RocksDbStateStoreProvider#numRows}: {@code numKeys} of {@code <dir>/<version>.zip}'s metadata (0 for
     * version 0), read without the database; empty when the file or the line cannot be read.
     */
    static java.util.OptionalLong numKeys(Path dir, long version) {
        if (version == 0) {
            return java.util.OptionalLong.of(0);
        }
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(dir.resolve(version + ".zip")))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (e.getName().equals(METADATA)) {
                    List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
                    if (lines.size() >= 2 && lines.get(0).equals("v1") && lines.get(1).startsWith("numKeys=")) {
                        return java.util.OptionalLong.of(Long.parseLong(lines.get(1).substring("numKeys=".length())));
                    }
                    return java.util.OptionalLong.empty();
                }
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: unknown
        }
        return java.util.OptionalLong.empty();
    }

    /** Extracts a version's zip into {@code into}, returning its metadata. */
    private Metadata unzip(Path zip, Path into) throws IOException {
        Metadata meta = null;
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (e.getName().equals(METADATA)) {
                    meta = parse(zip, new String(in.readAllBytes(), StandardCharsets.UTF_8));
                } else if (!e.getName().contains("/") && !e.getName().contains("\\")) {
                    Files.copy(in, into.resolve(e.getName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (NoSuchFileException e) {
            throw new CorruptCheckpointException(zip, "Checkpoint file " + zip + " is missing (state version "
                    + zip.getFileName().toString().replace(".zip", "") + " of operator " + id.operatorId()
                    + ", partition " + id.partitionId() + " needs it). " + advice(), e);
        } catch (ZipException | java.io.EOFException e) {
            throw CorruptCheckpointException.badFile(zip, "it is not a whole zip file: " + e.getMessage(), advice(),
                    e);
        }
        if (meta == null) {
            throw CorruptCheckpointException.badFile(zip, "it has no " + METADATA + " entry", advice(), null);
        }
        return meta;
    }

    private Metadata parse(Path zip, String text) {
        List<String> lines = text.lines().toList();
        if (lines.size() < 2 || !lines.get(0).equals("v1") || !lines.get(1).startsWith("numKeys=")) {
            throw CorruptCheckpointException.badFile(zip, "its " + METADATA + " entry does not start with v1 and "
                    + "numKeys=", advice(), null);
        }
        try {
            long keys = Long.parseLong(lines.get(1).substring("numKeys=".length()));
            List<Sst> ssts = new ArrayList<>();
            for (String line : lines.subList(2, lines.size())) {
                String[] f = line.split(" ");
                if (f.length != 4 || !f[0].equals("sst")) {
                    throw new NumberFormatException("bad line '" + line + "'");
                }
                ssts.add(new Sst(f[1], f[2], Long.parseLong(f[3])));
            }
            return new Metadata(keys, ssts);
        } catch (NumberFormatException e) {
            throw CorruptCheckpointException.badFile(zip, "its " + METADATA + " entry cannot be read: "
                    + e.getMessage(), advice(), e);
        }
    }

    private static String format(Metadata meta) {
        StringBuilder sb = new StringBuilder("v1\nnumKeys=").append(meta.numKeys()).append('\n');
        for (Sst s : meta.ssts()) {
            sb.append("sst ").append(s.localName()).append(' ').append(s.dfsName()).append(' ').append(s.size())
                    .append('\n');
        }
        return sb.toString();
    }

    @Override
    public void maintenance() throws IOException {
        TreeMap<Long, Path> versions = versions();
        if (versions.isEmpty()) {
            return;
        }
        long newest = versions.lastKey();
        long oldestKept = newest - conf.minBatchesToRetain() + 1;
        Set<String> referenced = new HashSet<>();
        for (Map.Entry<Long, Path> v : versions.entrySet()) {
            if (v.getKey() < oldestKept) {
                Files.deleteIfExists(v.getValue());
                referencedByVersion.remove(v.getKey());
            } else {
                referenced.addAll(referenced(v.getKey(), v.getValue()));
            }
        }
        Path ssts = dir.resolve(SST_DIR);
        if (Files.isDirectory(ssts)) {
            try (Stream<Path> s = Files.list(ssts)) {
                for (Path f : s.toList()) {
                    String name = f.getFileName().toString();
                    if (!referenced.contains(name)) {
                        Files.deleteIfExists(f);
                        uploaded.values().removeIf(u -> u.dfsName().equals(name));
                    }
                }
            }
        }
    }

    private Set<String> referenced(long version, Path zip) throws IOException {
        Set<String> names = referencedByVersion.get(version);
        if (names == null) {
            names = new HashSet<>();
            try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
                for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                    if (e.getName().equals(METADATA)) {
                        for (Sst s : parse(zip, new String(in.readAllBytes(), StandardCharsets.UTF_8)).ssts()) {
                            names.add(s.dfsName());
                        }
                    }
                }
            }
            referencedByVersion.put(version, names);
        }
        return names;
    }

    /** The committed versions ({@code N.zip}) by number. */
    private TreeMap<Long, Path> versions() throws IOException {
        TreeMap<Long, Path> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> {
                String n = p.getFileName().toString();
                if (n.endsWith(".zip")) {
                    try {
                        out.put(Long.parseLong(n.substring(0, n.length() - 4)), p);
                    } catch (NumberFormatException ignored) {
                        // not a version
                    }
                }
            });
        }
        return out;
    }

    @Override
    public void close() {
        if (current != null && !current.hasCommitted()) {
            current.abort();
        }
        current = null;
        closeDb();
        writeOptions.close();
        try {
            deleteRecursively(local);
        } catch (IOException e) {
            LOG.warn("Could not delete the RocksDB working folder {}: {}", local, e.toString());
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    private final class Store implements StateStore {
        private final long version;
        private boolean committed;
        private boolean aborted;
        private final List<RocksIterator> iterators = new ArrayList<>();
        private final Map<String, Long> metrics = new TreeMap<>();
        private long gets;
        private long puts;

        Store(long version) {
            this.version = version;
        }

        private void checkOpen() {
            if (committed || aborted) {
                throw new IllegalStateException("State store version " + version + " of operator "
                        + id.operatorId() + ", partition " + id.partitionId() + " is already "
                        + (committed ? "committed" : "aborted"));
            }
        }

        @Override
        public long version() {
            return version;
        }

        @Override
        public byte[] get(byte[] key) {
            checkOpen();
            gets++;
            try {
                return db.get(key);
            } catch (RocksDBException e) {
                throw new IllegalStateException("RocksDB get failed: " + e.getMessage(), e);
            }
        }

        @Override
        public void put(byte[] key, byte[] value) {
            checkOpen();
            puts++;
            try {
                // Spark counts keys the same way (trackTotalNumberOfRows): a lookup before each write.
                if (db.get(key) == null) {
                    numKeys++;
                }
                dbVersion = -1; // the database no longer holds the loaded version as committed
                db.put(writeOptions, key, value);
            } catch (RocksDBException e) {
                throw new IllegalStateException("RocksDB put failed: " + e.getMessage(), e);
            }
        }

        @Override
        public void remove(byte[] key) {
            checkOpen();
            try {
                if (db.get(key) != null) {
                    numKeys--;
                    dbVersion = -1;
                    db.delete(writeOptions, key);
                }
            } catch (RocksDBException e) {
                throw new IllegalStateException("RocksDB delete failed: " + e.getMessage(), e);
            }
        }

        @Override
        public Iterator<StateEntry> iterator() {
            checkOpen();
            RocksIterator it = db.newIterator();
            iterators.add(it);
            it.seekToFirst();
            return new Iterator<>() {
                private byte[] last;

                @Override
                public boolean hasNext() {
                    boolean more = it.isValid();
                    if (!more && iterators.remove(it)) {
                        it.close();
                    }
                    return more;
                }

                @Override
                public StateEntry next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    StateEntry e = new StateEntry(it.key(), it.value());
                    last = e.key();
                    it.next();
                    return e;
                }

                @Override
                public void remove() {
                    if (last == null) {
                        throw new IllegalStateException("next() has not been called");
                    }
                    Store.this.remove(last);
                    last = null;
                }
            };
        }

        @Override
        public long numKeys() {
            return numKeys;
        }

        @Override
        public long commit() throws IOException {
            checkOpen();
            closeIterators();
            long next = version + 1;
            Path snapshot = local.resolveSibling(local.getFileName() + "-checkpoint-" + next);
            deleteRecursively(snapshot);
            try {
                long f0 = System.nanoTime();
                try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                    db.flush(flush);
                }
                long c0 = System.nanoTime();
                try (Checkpoint cp = Checkpoint.create(db)) {
                    cp.createCheckpoint(snapshot.toString());
                }
                long s0 = System.nanoTime();
                Files.createDirectories(dir.resolve(SST_DIR));
                List<Sst> ssts = new ArrayList<>();
                Map<String, Path> others = new LinkedHashMap<>();
                long copied = 0;
                long reused = 0;
                long bytesCopied = 0;
                long sstBytes = 0;
                List<Path> files;
                try (Stream<Path> s = Files.list(snapshot)) {
                    files = s.sorted(Comparator.comparing(Path::toString)).toList();
                }
                Map<String, Sst> stillUsed = new HashMap<>();
                for (Path f : files) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".sst")) {
                        long size = Files.size(f);
                        sstBytes += size;
                        Sst known = uploaded.get(name);
                        if (known == null || known.size() != size) {
                            known = new Sst(name, name.substring(0, name.length() - 4) + "-" + UUID.randomUUID()
                                    + ".sst", size);
                            copyDurably(f, dir.resolve(SST_DIR).resolve(known.dfsName()));
                            copied++;
                            bytesCopied += size;
                        } else {
                            reused++;
                        }
                        ssts.add(known);
                        stillUsed.put(name, known);
                    } else {
                        others.put(name, f);
                    }
                }
                Metadata meta = new Metadata(numKeys, ssts);
                writeZip(dir.resolve(next + ".zip"), others, meta);
                referencedByVersion.put(next, new HashSet<>(ssts.stream().map(Sst::dfsName).toList()));
                uploaded.clear();
                uploaded.putAll(stillUsed);
                long end = System.nanoTime();
                metrics.put("rocksdbCommitFlushLatency", (c0 - f0) / 1_000_000);
                metrics.put("rocksdbCommitCheckpointLatency", (s0 - c0) / 1_000_000);
                metrics.put("rocksdbCommitFileSyncLatencyMs", (end - s0) / 1_000_000);
                metrics.put("rocksdbFilesCopied", copied);
                metrics.put("rocksdbFilesReused", reused);
                metrics.put("rocksdbBytesCopied", bytesCopied);
                metrics.put("rocksdbSstFileSize", sstBytes);
            } catch (RocksDBException e) {
                dbVersion = -1;
                throw new IOException("RocksDB checkpoint of state version " + next + " (operator " + id.operatorId()
                        + ", partition " + id.partitionId() + ") failed: " + e.getMessage(), e);
            } catch (IOException | RuntimeException e) {
                dbVersion = -1;
                throw e;
            } finally {
                deleteRecursively(snapshot);
            }
            committed = true;
            dbVersion = next;
            return next;
        }

        @Override
        public void abort() {
            if (committed || aborted) {
                return;
            }
            aborted = true;
            closeIterators();
            // A write already marked the database as no longer the loaded version (put, remove): a store that was
            // only read (start() loads and aborts every partition) leaves it for the next load to reuse.
        }

        private void closeIterators() {
            for (RocksIterator it : iterators) {
                it.close();
            }
            iterators.clear();
        }

        @Override
        public boolean hasCommitted() {
            return committed;
        }

        @Override
        public StateStoreMetrics metrics() {
            long memory = 0;
            Map<String, Long> custom = new TreeMap<>(metrics);
            custom.put("rocksdbGetCount", gets);
            custom.put("rocksdbPutCount", puts);
            custom.put("rocksdbLoadCount", (long) loads);
            custom.put("rocksdbLoadReusedCount", (long) reuses);
            if (db != null) {
                try {
                    memory = db.getLongProperty("rocksdb.cur-size-all-mem-tables")
                            + db.getLongProperty("rocksdb.estimate-table-readers-mem");
                } catch (RocksDBException e) {
                    memory = 0;
                }
            }
            return new StateStoreMetrics(numKeys, Math.max(memory, 1), custom);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Files

    /** Copies to {@code to} through a temporary file, fsynced, then moved into place. */
    private static void copyDurably(Path from, Path to) throws IOException {
        Path tmp = to.resolveSibling("." + to.getFileName() + ".tmp");
        Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
        fsync(tmp);
        move(tmp, to);
    }

    private static void writeZip(Path zip, Map<String, Path> files, Metadata meta) throws IOException {
        Path tmp = zip.resolveSibling("." + zip.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp); ZipOutputStream z = new ZipOutputStream(out)) {
            for (Map.Entry<String, Path> f : files.entrySet()) {
                z.putNextEntry(new ZipEntry(f.getKey()));
                Files.copy(f.getValue(), z);
                z.closeEntry();
            }
            z.putNextEntry(new ZipEntry(METADATA));
            z.write(format(meta).getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
        }
        fsync(tmp);
        move(tmp, zip);
        fsync(zip.getParent());
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void fsync(Path p) throws IOException {
        try (FileChannel c = FileChannel.open(p, Files.isDirectory(p) ? StandardOpenOption.READ
                : StandardOpenOption.WRITE)) {
            c.force(true);
        } catch (IOException e) {
            if (!Files.isDirectory(p)) {
                throw e;
            }
            // some file systems cannot fsync a folder: the files themselves are synced
        }
    }

    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
