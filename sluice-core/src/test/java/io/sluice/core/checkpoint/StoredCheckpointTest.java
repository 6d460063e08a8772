package io.sluice.core.checkpoint;

import io.sluice.core.CheckpointLockedException;
import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.ManualClock;
import io.sluice.core.storage.MemoryStorage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A checkpoint on an object store (the in-memory one): files created exclusively, the lease, the refusals. */
class StoredCheckpointTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final MemoryStorage store = MemoryStorage.fresh();
    private final String root = store.uri("chk/q1");

    @Test
    void writesEveryFileExclusivelyAndRecoversFromThem() {
        String id;
        try (Checkpoint c = Checkpoint.open(store, root, clock)) {
            id = c.queryId();
            assertThat(c.offsetLog().add(0, new OffsetSeq(0, 5, Map.of(), java.util.List.of("{\"a\":1}")))).isTrue();
            assertThat(c.offsetLog().add(0, new OffsetSeq(0, 6, Map.of(), java.util.List.of("{\"a\":2}")))).isFalse();
            assertThat(c.commitLog().add(0, new CommitMetadata(0))).isTrue();
            assertThat(c.offsetLog().fileFor(0)).isEqualTo(root + "/offsets/0");
            assertThat(c.location()).isEqualTo(root);
            assertThat(c.sourceLocation(1)).isEqualTo(root + "/sources/1");
        }
        assertThat(store.keys()).containsExactly("chk/q1/.lease", "chk/q1/commits/0", "chk/q1/metadata",
                "chk/q1/offsets/0");
        assertThat(new String(store.get("chk/q1/offsets/0"), StandardCharsets.UTF_8)).startsWith("v1\n");
        try (Checkpoint again = Checkpoint.open(store, root, clock)) {
            assertThat(again.queryId()).isEqualTo(id);
            assertThat(again.recover()).isInstanceOf(RecoveryPlan.Resume.class);
            again.offsetLog().add(1, new OffsetSeq(0, 7, Map.of(), java.util.List.of("{\"a\":3}")));
            again.offsetLog().add(2, new OffsetSeq(0, 8, Map.of(), java.util.List.of("{\"a\":4}")));
            again.purge(2, 1);
            assertThat(again.offsetLog().batchIds()).containsExactly(1L, 2L);
        }
    }

    @Test
    void aSecondQueryFailsAtOnceWhileTheLeaseIsHeld() {
        try (Checkpoint first = Checkpoint.open(store, root, clock)) {
            assertThatThrownBy(() -> Checkpoint.open(store, root, clock))
                    .isInstanceOf(CheckpointLockedException.class)
                    .hasMessageStartingWith("Checkpoint " + root + " is in use by another running query (lease "
                            + root + "/.lease held by owner ")
                    .hasMessageContaining(" until 1970-01-01T00:17:40Z). Stop that query first, or use a different "
                            + "checkpointLocation; if that query crashed, its lease expires at that time");
        }
        // Released at close: the next run starts at once.
        Checkpoint.open(store, root, clock).close();
    }

    @Test
    void aCrashedOwnersLeaseIsTakenOverOnlyAfterItExpires() {
        store.put("chk/q1/.lease", ("{\"owner\":\"dead\",\"pid\":42,\"host\":\"h\",\"expires\":\"x\",\"expiresMs\":"
                + (clock.millis() + 60_000) + "}").getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> Checkpoint.open(store, root, clock)).isInstanceOf(CheckpointLockedException.class)
                .hasMessageContaining("held by owner dead (pid 42 on h) until 1970-01-01T00:17:40Z");
        clock.advance(60_001);
        try (Checkpoint c = Checkpoint.open(store, root, clock)) {
            assertThat(new String(store.get("chk/q1/.lease"), StandardCharsets.UTF_8)).doesNotContain("dead");
            assertThat(c.commitLog().add(0, new CommitMetadata(0))).isTrue();
        }
    }

    @Test
    void theLeaseIsRenewedBeforeWritesAndALostLeaseStopsWrites() {
        try (Checkpoint c = Checkpoint.open(store, root, clock)) {
            byte[] before = store.get("chk/q1/.lease");
            clock.advance(30_000); // past a third of the lease: the next write renews it
            c.offsetLog().add(0, new OffsetSeq(0, 5, Map.of(), java.util.List.of("{}")));
            assertThat(store.get("chk/q1/.lease")).isNotEqualTo(before);
            assertThat(new String(store.get("chk/q1/.lease"), StandardCharsets.UTF_8))
                    .contains("\"expiresMs\":" + (clock.millis() + 60_000));
            // Another query took it over (as after a long pause of this one): this one must not write on.
            store.put("chk/q1/.lease", "{\"owner\":\"other\",\"expiresMs\":9999999999999}"
                    .getBytes(StandardCharsets.UTF_8));
            clock.advance(30_000);
            assertThatThrownBy(() -> c.commitLog().add(0, new CommitMetadata(0)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("This query lost the lease " + root + "/.lease of checkpoint " + root
                            + " (another query replaced it");
            assertThat(store.keys()).doesNotContain("chk/q1/commits/0");
        }
        assertThat(new String(store.get("chk/q1/.lease"), StandardCharsets.UTF_8)).contains("other");
    }

    @Test
    void theStateStorageChecksTheLeaseBeforeEveryWriteAndReadsFreely() throws Exception {
        try (Checkpoint c = Checkpoint.open(store, root, clock)) {
            io.sluice.api.io.Storage state = c.stateStorage();
            String delta = root + "/state/0/0/1.delta";
            try (var out = state.create(delta, true)) {
                out.write(new byte[]{1, 2});
            }
            assertThat(store.get("chk/q1/state/0/0/1.delta")).containsExactly(1, 2);
            store.put("chk/q1/.lease", "{\"owner\":\"other\",\"expiresMs\":9999999999999}"
                    .getBytes(StandardCharsets.UTF_8));
            clock.advance(30_000); // the next write renews the lease, and finds it taken over
            assertThatThrownBy(() -> state.create(root + "/state/0/0/2.delta", true))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("This query lost the lease " + root + "/.lease of checkpoint " + root
                            + " (another query replaced it");
            assertThatThrownBy(() -> state.delete(delta)).isInstanceOf(IllegalStateException.class);
            assertThat(state.readAll(delta, 10)).containsExactly(1, 2); // reads need no lease
            assertThat(store.keys()).doesNotContain("chk/q1/state/0/0/2.delta").contains("chk/q1/state/0/0/1.delta");
        }
    }

    @Test
    void aLocalCheckpointsStateStorageIsTheLocalDisk(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        try (Checkpoint c = Checkpoint.open(dir.resolve("chk"))) {
            assertThat(c.stateStorage()).isSameAs(io.sluice.api.io.Storages.local());
        }
    }

    @Test
    void aStoreThatIgnoresConditionalWritesIsRefused() {
        store.ignoreConditionalWrites(true);
        assertThatThrownBy(() -> Checkpoint.open(store, root, clock))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Checkpoint location " + root + " is on a store that does not honour "
                        + "conditional writes: a second exclusive create of " + root + "/.sluice-probe-")
                .hasMessageEndingWith(" overwrote it (If-None-Match: * is ignored). A checkpoint needs "
                        + "create-if-absent (PUT with If-None-Match: *) and compare-and-swap (PUT with If-Match) so "
                        + "that two queries can never both write a batch; AWS S3 supports both since 2024. Use a "
                        + "store that does, or a local checkpointLocation.");
        assertThat(store.keys()).isEmpty(); // nothing written but the probe, which is deleted
    }

    @Test
    void aCorruptFileIsNamedByItsUri() {
        try (Checkpoint c = Checkpoint.open(store, root, clock)) {
            store.put("chk/q1/offsets/0", "garbage".getBytes(StandardCharsets.UTF_8));
            assertThatThrownBy(c::recover).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageStartingWith("Checkpoint file " + root + "/offsets/0 is corrupt or incomplete (line 1 "
                            + "should be the version \"v1\" but is \"garbage\")")
                    .extracting(e -> ((CorruptCheckpointException) e).location()).isEqualTo(root + "/offsets/0");
        }
    }
}
