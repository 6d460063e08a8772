package io.sluice.core.state;

import io.sluice.core.CorruptCheckpointException;
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

class MemoryStateStoreTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private StatePartition open(Path dir, int minDeltas, int retain) throws Exception {
        return StateStoreProviders.find(StateStoreProviders.DEFAULT, getClass().getClassLoader())
                .open(new StateStoreId(0, 3), new StateStoreConf(dir, minDeltas, retain, Map.of()));
    }

    private static Map<String, String> contents(StateStore store) {
        Map<String, String> out = new HashMap<>();
        for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
            StateEntry e = it.next();
            out.put(s(e.key()), s(e.value()));
        }
        return out;
    }

    private TreeSet<String> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void batchNLoadsVersionNAndCommitsNPlus1AsSparkNumbersThem() throws Exception {
        Path dir = tmp.resolve("state/0/3");
        try (StatePartition p = open(dir, 10, 100)) {
            StateStore v0 = p.load(0);
            assertThat(v0.numKeys()).isZero();
            v0.put(b("a"), b("1"));
            v0.put(b("b"), b("2"));
            assertThat(v0.commit()).isEqualTo(1);
            StateStore v1 = p.load(1);
            v1.put(b("a"), b("10"));
            v1.remove(b("b"));
            v1.put(b("c"), b("3"));
            assertThat(v1.commit()).isEqualTo(2);
        }
        assertThat(files(dir)).containsExactly("1.delta", "2.delta");
        try (StatePartition p = open(dir, 10, 100)) { // a restart reads the files
            assertThat(contents(p.load(2))).isEqualTo(Map.of("a", "10", "c", "3"));
            assertThat(contents(p.load(1))).isEqualTo(Map.of("a", "1", "b", "2"));
            assertThat(p.load(0).numKeys()).isZero();
        }
    }

    @Test
    void abortWritesNothingAndAReRunReplacesTheNextVersion() throws Exception {
        Path dir = tmp.resolve("s");
        try (StatePartition p = open(dir, 10, 100)) {
            StateStore v0 = p.load(0);
            v0.put(b("k"), b("x"));
            v0.commit();
            StateStore v1 = p.load(1);
            v1.put(b("k"), b("lost"));
            v1.abort();
            assertThat(files(dir)).containsExactly("1.delta");
            assertThat(s(p.load(1).get(b("k")))).isEqualTo("x");
            // A batch re-run after a crash loads version 0 again and writes 1 again.
            StateStore again = p.load(0);
            again.put(b("k"), b("y"));
            again.commit();
        }
        try (StatePartition p = open(dir, 10, 100)) {
            assertThat(s(p.load(1).get(b("k")))).isEqualTo("y");
        }
    }

    @Test
    void snapshotsEveryMinDeltasAndPurgesWhatMinBatchesToRetainNoLongerNeeds() throws Exception {
        Path dir = tmp.resolve("s");
        try (StatePartition p = open(dir, 3, 2)) {
            for (int v = 0; v < 7; v++) {
                StateStore s = p.load(v);
                s.put(b("k" + v), b("v" + v));
                if (v > 0) {
                    s.remove(b("k" + (v - 1)));
                }
                s.commit();
                p.maintenance();
            }
        }
        // Versions 1..7; snapshots at 3 and 6; 7 and 6 must stay loadable, and 6.snapshot is all they need.
        assertThat(files(dir)).containsExactly("6.delta", "6.snapshot", "7.delta");
        try (StatePartition p = open(dir, 3, 2)) {
            assertThat(contents(p.load(6))).isEqualTo(Map.of("k5", "v5"));
            assertThat(contents(p.load(7))).isEqualTo(Map.of("k6", "v6"));
            assertThatThrownBy(() -> p.load(5)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("1.delta is missing");
        }
    }

    @Test
    void aCorruptFileFailsNamingTheFileAndTheWayOut() throws Exception {
        Path dir = tmp.resolve("s");
        try (StatePartition p = open(dir, 10, 100)) {
            StateStore s = p.load(0);
            s.put(b("key"), b("value"));
            s.commit();
        }
        Path delta = dir.resolve("1.delta");
        byte[] bytes = Files.readAllBytes(delta);
        bytes[bytes.length - 12] ^= 0x40; // a byte of the value
        Files.write(delta, bytes);
        try (StatePartition p = open(dir, 10, 100)) {
            assertThatThrownBy(() -> p.load(1)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessage("Checkpoint file " + delta + " is corrupt or incomplete (its checksum does not match "
                            + "its content). The state of a stateful operator cannot be read back, so the query "
                            + "cannot continue exactly once. Restore the file from a copy of the checkpoint, or "
                            + "start the query again on a new checkpointLocation.");
        }
        Files.write(delta, java.util.Arrays.copyOf(bytes, 9));
        try (StatePartition p = open(dir, 10, 100)) {
            assertThatThrownBy(() -> p.load(1)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("(it is truncated)");
        }
    }

    @Test
    void unknownProviderNameIsRefusedWithTheNamesAvailable() {
        assertThatThrownBy(() -> StateStoreProviders.find("com.example.Nope", getClass().getClassLoader()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid value 'com.example.Nope' for spark.sql.streaming.stateStore.providerClass: no "
                        + "state store provider of that name. Available: "
                        + "io.sluice.core.state.MemoryStateStoreProvider");
        assertThat(StateStoreProviders.find("io.sluice.core.state.MemoryStateStoreProvider",
                getClass().getClassLoader())).isInstanceOf(MemoryStateStoreProvider.class);
    }

    @Test
    void metricsCountKeysAndCacheUse() throws Exception {
        try (StatePartition p = open(tmp.resolve("m"), 10, 100)) {
            StateStore s = p.load(0);
            s.put(b("a"), b("1"));
            s.commit();
            StateStore s1 = p.load(1);
            StateStoreMetrics m = s1.metrics();
            assertThat(m.numKeys()).isEqualTo(1);
            assertThat(m.memoryUsedBytes()).isPositive();
            assertThat(m.customMetrics()).containsEntry("loadedMapCacheHitCount", 1L)
                    .containsEntry("loadedMapCacheMissCount", 1L);
            s1.abort();
        }
    }

    @Test
    void numRowsReadsASmallStatesFilesAndLeavesALargeOneUnknown() throws Exception {
        Path dir = tmp.resolve("state/0/3");
        try (StatePartition p = open(dir, 2, 100)) {
            StateStore v0 = p.load(0);
            v0.put(b("a"), b("1"));
            v0.put(b("b"), b("2"));
            v0.commit();
            p.maintenance();
            StateStore v1 = p.load(1);
            v1.remove(b("a"));
            v1.put(b("c"), b("3"));
            v1.put(b("d"), b("4"));
            v1.commit();
            p.maintenance();
            StateStore v2 = p.load(2);
            v2.put(b("e"), b("5"));
            v2.commit();
            p.maintenance();
        }
        assertThat(files(dir)).containsExactly("1.delta", "2.delta", "2.snapshot", "3.delta");
        StateStoreProvider provider = StateStoreProviders.find(StateStoreProviders.DEFAULT,
                getClass().getClassLoader());
        assertThat(provider.numRows(dir, 0)).hasValue(0);
        assertThat(provider.numRows(dir, 1)).hasValue(2);
        assertThat(provider.numRows(dir, 2)).hasValue(3);
        assertThat(provider.numRows(dir, 3)).hasValue(4); // 2.snapshot and 3.delta
        assertThat(provider.numRows(dir, 4)).isEmpty();  // no such version
        long needed = Files.size(dir.resolve("2.snapshot")) + Files.size(dir.resolve("3.delta"));
        assertThat(MemoryStatePartition.numRows(dir, 3, needed)).hasValue(4);
        assertThat(MemoryStatePartition.numRows(dir, 3, needed - 1)).isEmpty();
    }
}
