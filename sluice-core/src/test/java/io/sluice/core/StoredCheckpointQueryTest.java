package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Row;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import io.sluice.api.types.StructType;
import io.sluice.core.storage.MemoryStorage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Queries whose checkpointLocation is on an object store (the in-memory {@code mem://} one). */
class StoredCheckpointQueryTest {

    private final String table = "t_" + UUID.randomUUID().toString().replace('-', '_');
    private final ManualClock clock = new ManualClock(100_000);
    private final Sluice sluice = Sluice.builder().clock(clock).parallelism(2).build();
    private final MemoryStorage store = MemoryStorage.fresh();
    private final String chk = store.uri("chk/rate");

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(table);
    }

    private DataStreamWriter rate() {
        return sluice.readStream().format("rate").option("rowsPerSecond", 3).option("numPartitions", 1).load()
                .writeStream().format("memory").queryName(table).option("checkpointLocation", chk)
                .trigger(Trigger.processingTime(1000));
    }

    @Test
    void aQueryRunsAndResumesOnACheckpointOnTheStore() {
        StreamingQuery q = rate().start();
        clock.advance(2_000);
        await().until(() -> MemorySink.rows(table).size() == 6);
        q.stop();
        assertThat(store.keys()).contains("chk/rate/metadata", "chk/rate/offsets/0", "chk/rate/commits/0",
                "chk/rate/sources/0/0", "chk/rate/.lease");
        assertThat(q.checkpointLocation()).isEmpty();

        clock.advance(1_000);
        StreamingQuery again = rate().start();
        await().until(() -> MemorySink.rows(table).size() == 9);
        again.stop();
        assertThat(MemorySink.rows(table).stream().map(r -> r.getLong(1)).sorted().toList())
                .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        assertThat(MemorySink.rows(table).stream().filter(r -> r.getLong(1) == 6L).findFirst().orElseThrow()
                .getTimestamp(0)).isEqualTo(Instant.ofEpochMilli(102_000));
    }

    @Test
    void aSecondQueryOnTheSameStoredCheckpointFailsAtOnce() {
        StreamingQuery q = rate().start();
        try {
            assertThatThrownBy(() -> sluice.readStream().format("rate").load().writeStream().format("memory")
                    .queryName(table + "_2").option("checkpointLocation", chk).start())
                    .isInstanceOf(CheckpointLockedException.class)
                    .hasMessageStartingWith("Checkpoint " + chk + " is in use by another running query (lease "
                            + chk + "/.lease held by owner ");
        } finally {
            q.stop();
        }
    }

    @Test
    void aSchemeWithoutItsModuleIsRefusedBeforeStartNamingTheModule() {
        assertThatThrownBy(() -> sluice.readStream().format("rate").load().writeStream().format("memory")
                .queryName(table).option("checkpointLocation", "s3a://lake/chk/orders_v1").start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value 's3a://lake/chk/orders_v1' for option 'checkpointLocation': the scheme "
                        + "'s3a' of s3a://lake/chk/orders_v1 has no storage on the class path: add the module "
                        + "sluice-s3 (its jar, or its plugin jar for the sluice CLI)");
    }

    @Test
    void aSourceThatKeepsStateOnlyLocallyIsRefusedOnAStoredCheckpoint() {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("id long"));
        try {
            input.addData(Row.of(1L));
            assertThatThrownBy(() -> sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("memory").queryName(table).option("checkpointLocation", chk).start())
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessage("Invalid value '" + chk + "' for option 'checkpointLocation': the source 'memory' "
                            + "(source 0) keeps its checkpoint state in a local folder only, and this checkpoint is "
                            + "on an object store; give a local checkpointLocation for a query reading it");
            assertThat(store.keys()).isEmpty();
        } finally {
            input.unregister();
        }
    }

    private void onceCountingByParity() throws Exception {
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3).load()
                .selectExpr("value % 2 AS k").groupBy("k").count().writeStream().format("memory").queryName(table)
                .outputMode("update").trigger(Trigger.once()).option("checkpointLocation", chk).start();
        q.awaitTermination();
        assertThat(q.exception()).isEmpty();
    }

    @Test
    void aStatefulQueryKeepsItsStateOnTheStoreAndARestartContinuesFromIt() throws Exception {
        onceCountingByParity(); // batch 0: values 0, 1, 2
        onceCountingByParity(); // batch 1: values 3, 4, 5, counted on the state read back from the store
        assertThat(MemorySink.batches(table).get(1L).stream().map(Row::toString).sorted().toList())
                .containsExactly(Row.of(0L, 3L).toString(), Row.of(1L, 3L).toString());
        assertThat(store.keys()).contains("chk/rate/state/0/_metadata/metadata", "chk/rate/state/0/_metadata/schema");
        for (int p = 0; p < 4; p++) {
            assertThat(store.keys()).contains("chk/rate/state/0/" + p + "/1.delta", "chk/rate/state/0/" + p
                    + "/2.delta");
        }
    }

    @Test
    void aStoreIgnoringConditionalWritesIsRefusedAtStart() {
        store.ignoreConditionalWrites(true);
        assertThatThrownBy(() -> rate().start()).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Checkpoint location " + chk + " is on a store that does not honour "
                        + "conditional writes: a second exclusive create of ");
        assertThat(store.keys()).isEmpty();
    }
}
