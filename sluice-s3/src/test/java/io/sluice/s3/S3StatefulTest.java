package io.sluice.s3;

import io.sluice.api.Row;
import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Stateful queries (a windowed count with a watermark, dropDuplicates) whose checkpoint, state included, is on the
 * real S3-compatible server: exact rows across restarts, the state objects Spark's layout names, purging, a corrupt
 * delta object, and the refusal of a store that keeps its state on the local disk only.
 */
class S3StatefulTest {

    private S3Client client;
    private String bucket;
    private String chk;
    /** The JSON files written to {@code in/} so far. */
    private int files;
    private String table;
    private final List<Sluice> engines = new ArrayList<>();

    @BeforeEach
    void setUp() {
        client = S3TestSupport.client();
        bucket = S3TestSupport.newBucket("state");
        chk = "s3a://" + bucket + "/chk";
        table = S3TestSupport.tableName("t");
    }

    @AfterEach
    void tearDown() {
        engines.forEach(Sluice::close);
        client.close();
    }

    /** An engine reaching the server, with {@code extra} settings; each restart gets a new one, as a new process. */
    private Sluice engine(Map<String, String> extra) {
        Sluice.Builder b = Sluice.builder().parallelism(2);
        S3TestSupport.sparkHadoopConf(b);
        extra.forEach(b::config);
        Sluice s = b.build();
        engines.add(s);
        return s;
    }

    private static Instant t(int seconds) {
        return Instant.parse("2026-01-01T10:00:00Z").plusSeconds(seconds);
    }

    private static Row ev(String id, int second) {
        return Row.of(id, t(second), 1L);
    }

    private static Row win(int start, int end, long count) {
        return Row.of(Row.of(t(start), t(end)), count);
    }

    /** The JSON files on S3 under {@code in/}: a source whose state is on the S3 checkpoint too. */
    private StreamFrame stream(Sluice sluice) {
        return sluice.readStream().format("json").schema("id string, ts timestamp, amount long")
                .load("s3a://" + bucket + "/in");
    }

    private StreamFrame windowedCount(Sluice sluice) {
        return stream(sluice).withWatermark("ts", "10 seconds").groupBy(window(col("ts"), "10 seconds")).count();
    }

    private StreamingQuery start(StreamFrame frame, String mode) {
        return start(frame, mode, 100);
    }

    private StreamingQuery start(StreamFrame frame, String mode, int minBatchesToRetain) {
        return frame.writeStream().format("memory").queryName(table).outputMode(mode)
                .option("checkpointLocation", chk).option("minBatchesToRetain", minBatchesToRetain).start();
    }

    /** Writes the rows as one new JSON object under {@code in/}, and lets the query read it. */
    private void add(StreamingQuery q, Row... rows) throws Exception {
        write(rows);
        q.processAllAvailable();
    }

    private void write(Row... rows) {
        StringBuilder json = new StringBuilder();
        for (Row r : rows) {
            json.append("{\"id\":\"").append(r.get(0)).append("\",\"ts\":\"").append(r.get(1))
                    .append("\",\"amount\":").append(r.get(2)).append("}\n");
        }
        String key = String.format("in/%04d.json", files++);
        S3TestSupport.put(client, bucket, key, json.toString());
    }

    private Map<Long, List<Row>> batches() {
        Map<Long, List<Row>> out = new TreeMap<>();
        MemorySink.batches(table).forEach((k, v) -> {
            List<Row> sorted = new ArrayList<>(v);
            sorted.sort(Comparator.comparing(Row::toString));
            out.put(k, sorted);
        });
        return out;
    }

    /** The keys under {@code chk/<prefix>}, relative to it, in listing order. */
    private List<String> keys(String prefix) {
        String full = "chk/" + prefix;
        return S3TestSupport.keys(client, bucket, full).stream().map(k -> k.substring(full.length())).toList();
    }

    @Test
    void aWindowedCountOnAnS3CheckpointGivesExactRowsAcrossRestartsAndPurgesOldVersions() throws Exception {
        // A snapshot every 2 deltas, 2 versions kept: the restarts load from snapshot objects, and purging shows.
        Map<String, String> settings = Map.of("spark.sql.streaming.stateStore.minDeltasForSnapshot", "2");
        Sluice first = engine(settings);
        StreamingQuery q = start(windowedCount(first), "append", 2);
        add(q, ev("a", 3), ev("b", 7), ev("c", 14));     // batch 0; then wm = 10:00:04 -> no-data batch 1
        q.stop();
        first.close();

        Sluice second = engine(settings);
        q = start(windowedCount(second), "append", 2);
        add(q, ev("d", 25));                              // batch 2 (wm 04); then wm = 10:00:15 -> batch 3 emits [0,10)
        q.stop();
        second.close();

        Sluice third = engine(settings);
        q = start(windowedCount(third), "append", 2);
        add(q, ev("late", 1), ev("e", 16));               // batch 4: 10:00:01 is late (window end 10 <= 15)
        long total = q.lastProgress().stateOperators().get(0).numRowsTotal();
        long late = q.lastProgress().stateOperators().get(0).numRowsDroppedByWatermark();
        q.stop();

        assertThat(batches()).isEqualTo(Map.of(0L, List.of(), 1L, List.of(), 2L, List.of(),
                3L, List.of(win(0, 10, 2L)), 4L, List.of()));
        assertThat(total).isEqualTo(2); // [10,20) and [20,30)
        assertThat(late).isEqualTo(1);
        assertThat(keys("state/0/_metadata/")).containsExactly("metadata", "schema");
        // Versions 1..5, snapshots at 2 and 4; 4 and 5 must stay loadable: 4.snapshot and 5.delta are what they need.
        for (int p = 0; p < 4; p++) {
            assertThat(keys("state/0/" + p + "/")).as("partition " + p)
                    .containsExactly("4.delta", "4.snapshot", "5.delta");
        }
        assertThat(keys("state/")).allMatch(k -> k.startsWith("0/")).hasSize(2 + 4 * 3);

        // One more run carries on from the purged state: [10,20) closes with its 2 rows once the watermark passes 20.
        Sluice fourth = engine(settings);
        q = start(windowedCount(fourth), "append", 2);
        add(q, ev("f", 40));                              // batch 5; wm -> 30: no-data batch 6 emits [10,20), [20,30)
        q.stop();
        assertThat(batches().get(6L)).containsExactly(win(10, 20, 2L), win(20, 30, 1L));
    }

    @Test
    void dropDuplicatesOnAnS3CheckpointKeepsTheFirstRowOfEachKeyAcrossRestarts() throws Exception {
        Sluice first = engine(Map.of());
        StreamingQuery q = start(stream(first).dropDuplicates("id"), "append");
        add(q, ev("a", 1), ev("b", 2), ev("a", 3));
        q.stop();
        first.close();

        Sluice second = engine(Map.of());
        q = start(stream(second).dropDuplicates("id"), "append");
        add(q, ev("b", 4), ev("c", 5));
        q.stop();
        second.close();

        Sluice third = engine(Map.of());
        q = start(stream(third).dropDuplicates("id"), "append");
        add(q, ev("c", 6), ev("d", 7));
        long total = q.lastProgress().stateOperators().get(0).numRowsTotal();
        q.stop();

        assertThat(batches()).isEqualTo(Map.of(0L, List.of(ev("a", 1), ev("b", 2)), 1L, List.of(ev("c", 5)),
                2L, List.of(ev("d", 7))));
        assertThat(total).isEqualTo(4);
        for (int p = 0; p < 4; p++) {
            assertThat(keys("state/0/" + p + "/")).containsExactly("1.delta", "2.delta", "3.delta");
        }
        assertThat(S3TestSupport.get(client, bucket, "chk/state/0/_metadata/metadata"))
                .isEqualTo("v1\n{\"operatorInfo\":{\"operatorId\":0,\"operatorName\":\"dedupe\"},"
                        + "\"stateStoreInfo\":[{\"storeName\":\"default\",\"numColsPrefixKey\":0,"
                        + "\"numPartitions\":4}]}");

        // The operator in the checkpoint is checked on S3 as locally: a query without it is refused.
        Sluice fourth = engine(Map.of());
        assertThatThrownBy(() -> start(stream(fourth), "append"))
                .hasMessage("Streaming stateful operator name does not match with the operator in state metadata. "
                        + "This likely to happen when user adds/removes/changes stateful operator of existing "
                        + "streaming query. Stateful operators in the metadata: [(OperatorId: 0 -> OperatorName: "
                        + "dedupe)]; Stateful operators in current batch: [].");
        assertThatThrownBy(() -> start(stream(fourth).groupBy("id").count(), "update"))
                .hasMessageEndingWith("Stateful operators in current batch: [(OperatorId: 0 -> OperatorName: "
                        + "stateStoreSave)].");
    }

    @Test
    void aCorruptDeltaObjectFailsStartNamingTheObjectAndTheWayOut() throws Exception {
        Sluice first = engine(Map.of());
        StreamingQuery q = start(stream(first).groupBy("id").count(), "update");
        add(q, ev("a", 1), ev("b", 1), ev("c", 1), ev("d", 1), ev("e", 1));
        q.stop();
        first.close();
        // A partition whose first delta holds rows (an empty one is 15 bytes).
        S3Object delta = client.listObjectsV2Paginator(r -> r.bucket(bucket).prefix("chk/state/0/")).contents()
                .stream().filter(o -> o.key().endsWith("/1.delta") && o.size() > 20).findFirst().orElseThrow();
        byte[] good = S3TestSupport.bytes(client, bucket, delta.key());
        client.putObject(r -> r.bucket(bucket).key(delta.key()),
                RequestBody.fromBytes(new byte[]{'S', 'L', 'S', 'T', 'D', 1, 1, 0}));

        Sluice second = engine(Map.of());
        String uri = "s3a://" + bucket + "/" + delta.key();
        assertThatThrownBy(() -> start(stream(second).groupBy("id").count(), "update"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + uri + " is corrupt or incomplete (it is truncated). The state of a "
                        + "stateful operator cannot be read back, so the query cannot continue exactly once. Restore "
                        + "the file from a copy of the checkpoint, or start the query again on a new "
                        + "checkpointLocation.")
                .satisfies(e -> assertThat(((CorruptCheckpointException) e).location()).isEqualTo(uri));
        // A missing one is named too (a listing and a GET: no local file to check).
        client.deleteObject(r -> r.bucket(bucket).key(delta.key()));
        String partition = delta.key().split("/")[3];
        assertThatThrownBy(() -> start(stream(second).groupBy("id").count(), "update"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + uri + " is missing (state version 1 of operator 0, partition "
                        + partition + " needs it, and there is no snapshot before it). The state cannot be rebuilt: "
                        + "restore the file from a copy of the checkpoint, or start the query again on a new "
                        + "checkpointLocation.");
        // The lease was released: with the object restored, the query carries on at once.
        client.putObject(r -> r.bucket(bucket).key(delta.key()), RequestBody.fromBytes(good));
        StreamingQuery q2 = start(stream(second).groupBy("id").count(), "update");
        add(q2, ev("a", 2));
        q2.stop();
        assertThat(batches().get(1L)).containsExactly(Row.of("a", 2L));
    }

    @Test
    void theRocksDbStoreIsRefusedOnAnS3CheckpointBeforeTheQueryStarts() {
        String rocks = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
        Sluice sluice = engine(Map.of("spark.sql.streaming.stateStore.providerClass", rocks));
        write(ev("a", 1));
        assertThatThrownBy(() -> start(stream(sluice).dropDuplicates("id"), "append"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid value '" + rocks + "' for spark.sql.streaming.stateStore.providerClass: that "
                        + "state store keeps its state on the local disk only, and checkpointLocation " + chk
                        + " is on an object store, where the state must be kept with the rest of the checkpoint to "
                        + "survive a restart on another machine. Use the default in-memory store (leave "
                        + "spark.sql.streaming.stateStore.providerClass unset, or set it to "
                        + "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider) or a local "
                        + "checkpointLocation.");
        assertThat(keys("state/")).isEmpty();
        assertThat(keys("offsets/")).isEmpty();
    }
}
