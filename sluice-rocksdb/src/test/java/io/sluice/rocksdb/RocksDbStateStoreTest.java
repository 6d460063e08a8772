package io.sluice.rocksdb;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.state.StateEntry;
import io.sluice.core.state.StatePartition;
import io.sluice.core.state.StateStore;
import io.sluice.core.state.StateStoreConf;
import io.sluice.core.state.StateStoreId;
import io.sluice.core.state.StateStoreMetrics;
import io.sluice.core.state.StateStoreProviders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The RocksDB store against the state store contract, found as Spark's provider name is. */
class RocksDbStateStoreTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private StatePartition open(Path dir, int retain) throws Exception {
        return StateStoreProviders.find(RocksDbStateStoreProvider.SPARK_NAME, getClass().getClassLoader())
                .open(new StateStoreId(0, 3), new StateStoreConf(dir, 10, retain, Map.of()));
    }

    private static Map<String, String> contents(StateStore store) {
        Map<String, String> out = new HashMap<>();
        for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
            StateEntry e = it.next();
            out.put(s(e.key()), s(e.value()));
        }
        return out;
    }

    private static TreeSet<String> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void bothNamesFindTheStore() {
        assertThat(StateStoreProviders.find("io.sluice.rocksdb.RocksDbStateStoreProvider",
                getClass().getClassLoader())).isInstanceOf(RocksDbStateStoreProvider.class);
        assertThat(StateStoreProviders.find(
                "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
                getClass().getClassLoader())).isInstanceOf(RocksDbStateStoreProvider.class);
    }

    @Test
    void aStoreOnlyReadThenAbortedLeavesTheDatabaseForTheNextLoadAndOneWrittenDoesNot() throws Exception {
        Path dir = tmp.resolve("s");
        try (StatePartition p = open(dir, 100)) {
            StateStore v0 = p.load(0);
            v0.put(b("a"), b("1"));
            v0.commit();
        }
        try (StatePartition p = open(dir, 100)) {
            StateStore read = p.load(1); // as start() does: load the first batch's version, then abort
            assertThat(s(read.get(b("a")))).isEqualTo("1");
            read.abort();
            StateStore written = p.load(1); // reused: nothing was written
            written.put(b("a"), b("2"));
            written.abort();
            StateStore again = p.load(1); // rebuilt: the aborted write is in the database
            assertThat(s(again.get(b("a")))).isEqualTo("1");
            assertThat(again.metrics().customMetrics()).containsEntry("rocksdbLoadCount", 3L)
                    .containsEntry("rocksdbLoadReusedCount", 1L);
        }
    }

    @Test
    void batchNLoadsVersionNAndCommitsNPlus1AsZipsAndSharedSstFiles() throws Exception {
        Path dir = tmp.resolve("state/0/3");
        try (StatePartition p = open(dir, 100)) {
            StateStore v0 = p.load(0);
            assertThat(v0.numKeys()).isZero();
            v0.put(b("a"), b("1"));
            v0.put(b("b"), b("2"));
            v0.put(b("b"), b("2b"));
            assertThat(v0.numKeys()).isEqualTo(2);
            assertThat(s(v0.get(b("b")))).isEqualTo("2b"); // reads see the batch's own writes
            assertThat(v0.commit()).isEqualTo(1);
            StateStore v1 = p.load(1);
            assertThat(contents(v1)).isEqualTo(Map.of("a", "1", "b", "2b"));
            v1.put(b("a"), b("10"));
            v1.remove(b("b"));
            v1.remove(b("absent"));
            v1.put(b("c"), b("3"));
            assertThat(v1.commit()).isEqualTo(2);
            StateStoreMetrics m = v1.metrics();
            assertThat(m.numKeys()).isEqualTo(2);
            assertThat(m.customMetrics()).containsEntry("rocksdbFilesCopied", 1L)
                    .containsEntry("rocksdbFilesReused", 1L).containsEntry("rocksdbLoadReusedCount", 1L);
        }
        assertThat(files(dir)).containsExactly("1.zip", "2.zip", "SSTs");
        assertThat(files(dir.resolve("SSTs"))).hasSize(2).allMatch(n -> n.matches("[0-9]+-[0-9a-f-]{36}\\.sst"));
        try (StatePartition p = open(dir, 100)) { // a restart rebuilds the database from the checkpoint
            StateStore v2 = p.load(2);
            assertThat(contents(v2)).isEqualTo(Map.of("a", "10", "c", "3"));
            assertThat(v2.numKeys()).isEqualTo(2);
            assertThat(contents(p.load(1))).isEqualTo(Map.of("a", "1", "b", "2b"));
            assertThat(p.load(0).numKeys()).isZero();
        }
    }

    @Test
    void abortWritesNothingAndAReRunReplacesTheNextVersion() throws Exception {
        Path dir = tmp.resolve("s");
        try (StatePartition p = open(dir, 100)) {
            StateStore v0 = p.load(0);
            v0.put(b("k"), b("x"));
            v0.commit();
            StateStore v1 = p.load(1);
            v1.put(b("k"), b("lost"));
            v1.put(b("new"), b("lost"));
            v1.abort();
            assertThat(files(dir)).containsExactly("1.zip", "SSTs");
            StateStore again1 = p.load(1);
            assertThat(contents(again1)).isEqualTo(Map.of("k", "x"));
            assertThat(again1.numKeys()).isEqualTo(1);
            // A batch re-run after a crash loads version 0 again and writes 1 again.
            StateStore again = p.load(0);
            assertThat(again.numKeys()).isZero();
            again.put(b("k"), b("y"));
            again.commit();
        }
        try (StatePartition p = open(dir, 100)) {
            assertThat(contents(p.load(1))).isEqualTo(Map.of("k", "y"));
        }
    }

    @Test
    void iteratorRemoveDeletesAndMaintenancePurgesOldVersionsAndTheirSstFiles() throws Exception {
        Path dir = tmp.resolve("s");
        try (StatePartition p = open(dir, 2)) {
            for (int v = 0; v < 6; v++) {
                StateStore s = p.load(v);
                for (Iterator<StateEntry> it = s.iterator(); it.hasNext(); ) {
                    it.next();
                    it.remove(); // evict everything older, as a watermark would
                }
                s.put(b("k" + v), b("v" + v));
                assertThat(s.numKeys()).isEqualTo(1);
                s.commit();
                p.maintenance();
            }
        }
        assertThat(files(dir)).containsExactly("5.zip", "6.zip", "SSTs");
        try (StatePartition p = open(dir, 2)) {
            assertThat(contents(p.load(6))).isEqualTo(Map.of("k5", "v5"));
            assertThat(contents(p.load(5))).isEqualTo(Map.of("k4", "v4"));
            assertThatThrownBy(() -> p.load(4)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessage("Checkpoint file " + dir.toAbsolutePath().resolve("4.zip") + " is missing (state "
                            + "version 4 of operator 0, partition 3 needs it). The state of a stateful operator "
                            + "cannot be read back, so the query cannot continue exactly once. Restore the file from "
                            + "a copy of the checkpoint, or start the query again on a new checkpointLocation.");
        }
        // Exactly the SST files versions 5 and 6 list are left (how many that is depends on whether RocksDB's
        // background compaction ran before the commits, so the set is compared, not a count).
        java.util.Set<String> kept = new java.util.TreeSet<>();
        for (String v : java.util.List.of("5.zip", "6.zip")) {
            try (java.util.zip.ZipInputStream in = new java.util.zip.ZipInputStream(
                    Files.newInputStream(dir.resolve(v)))) {
                for (java.util.zip.ZipEntry e; (e = in.getNextEntry()) != null; ) {
                    if (e.getName().equals("metadata")) {
                        new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                                .filter(l -> l.startsWith("sst ")).forEach(l -> kept.add(l.split(" ")[2].replace("SSTs/", "")));
                    }
                }
            }
        }
        java.util.Set<String> left = new java.util.TreeSet<>();
        try (Stream<Path> s = Files.list(dir.resolve("SSTs"))) {
            s.forEach(f -> left.add(f.getFileName().toString()));
        }
        assertThat(kept).isNotEmpty();
        assertThat(left).isEqualTo(kept);
    }

    @Test
    void aMissingOrDamagedFileFailsNamingTheFile() throws Exception {
        Path dir = tmp.resolve("s");
        try (StatePartition p = open(dir, 100)) {
            StateStore s = p.load(0);
            s.put(b("key"), b("value"));
            s.commit();
        }
        Path sst;
        try (Stream<Path> s = Files.list(dir.resolve("SSTs"))) {
            sst = s.findFirst().orElseThrow().toAbsolutePath();
        }
        Files.write(sst, new byte[] {1, 2, 3});
        try (StatePartition p = open(dir, 100)) {
            assertThatThrownBy(() -> p.load(1)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageStartingWith("Checkpoint file " + sst + " is corrupt or incomplete (it has 3 bytes "
                            + "where 1.zip says ");
        }
        Files.delete(sst);
        try (StatePartition p = open(dir, 100)) {
            assertThatThrownBy(() -> p.load(1)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageStartingWith("Checkpoint file " + sst + " is missing (state version 1 of operator 0, "
                            + "partition 3 needs it, per 1.zip).");
        }
        Path zip = dir.resolve("1.zip");
        Files.write(zip, new byte[] {'P', 'K', 3});
        try (StatePartition p = open(dir, 100)) {
            assertThatThrownBy(() -> p.load(1)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("is corrupt or incomplete");
        }
    }

    @Test
    void stateLargerThanTheMemtableSurvivesARestart() throws Exception {
        Path dir = tmp.resolve("big");
        int n = 50_000;
        try (StatePartition p = open(dir, 100)) {
            StateStore s = p.load(0);
            for (int i = 0; i < n; i++) {
                s.put(b("key-" + i), b("value-" + i));
            }
            s.commit();
            StateStore s1 = p.load(1);
            for (int i = 0; i < n; i += 2) {
                s1.remove(b("key-" + i));
            }
            s1.commit();
        }
        try (StatePartition p = open(dir, 100)) {
            StateStore s = p.load(2);
            assertThat(s.numKeys()).isEqualTo(n / 2);
            assertThat(s(s.get(b("key-1")))).isEqualTo("value-1");
            assertThat(s.get(b("key-2"))).isNull();
            assertThat(contents(s)).hasSize(n / 2);
        }
    }
}
