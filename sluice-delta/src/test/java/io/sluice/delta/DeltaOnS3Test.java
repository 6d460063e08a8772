package io.sluice.delta;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.internal.util.Utils;
import io.sluice.api.Row;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import io.sluice.s3.server.SharedLocalS3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Delta tables on S3 (the shared local S3 server), through Kernel's FileIO over Sluice's Storage: sink then source
 * for s3a:// and s3://, a re-run batch applied once, two writers racing for one version, and the commit file written
 * with put-if-absent.
 */
class DeltaOnS3Test {
    private static final Sluice SLUICE = Sluice.builder().parallelism(2).build();
    private static final StructType SCHEMA = StructType.fromDDL("id bigint, region string");

    @TempDir
    Path tmp;
    private String bucket;

    @AfterAll
    static void close() {
        SLUICE.close();
    }

    @BeforeEach
    void setUp() {
        bucket = "delta-" + UUID.randomUUID().toString().substring(0, 18);
        try (S3Client c = S3Client.builder().endpointOverride(URI.create(SharedLocalS3Server.get().endpoint()))
                .forcePathStyle(true).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create()).build()) {
            c.createBucket(b -> b.bucket(bucket));
        }
    }

    private static Map<String, String> storage() {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("fs.s3a.endpoint", SharedLocalS3Server.get().endpoint());
        c.put("fs.s3a.path.style.access", "true");
        c.put("fs.s3a.access.key", "test-access-key");
        c.put("fs.s3a.secret.key", "test-secret");
        return c;
    }

    private static List<Row> read(String uri) throws Exception {
        return SLUICE.read().format("delta").options(storage()).load(uri).collectAsList();
    }

    private void sinkThenSource(String uri, boolean streamBack) throws Exception {
        MemoryStream in = MemoryStream.create(SCHEMA);
        try {
            StreamingQuery q = SLUICE.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("delta").options(storage()).partitionBy("region")
                    .option("checkpointLocation", tmp.resolve("w").toString()).start(uri);
            in.addData(Row.of(1L, "eu"), Row.of(2L, "us"));
            q.processAllAvailable();
            in.addData(Row.of(3L, "eu"));
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        try (DeltaTable t = DeltaTable.open(uri, storage())) {
            DeltaLogFiles log = new DeltaLogFiles(t);
            assertThat(log.versions().keySet()).containsExactly(0L, 1L);
            assertThat(log.actions(1)).filteredOn(a -> a.has("add"))
                    .extracting(a -> a.get("add").get("path").asText().substring(0, 10)).containsExactly("region=eu/");
        }
        assertThat(read(uri)).containsExactlyInAnyOrder(Row.of(1L, "eu"), Row.of(2L, "us"), Row.of(3L, "eu"));
        if (!streamBack) {
            return;
        }
        String mem = "delta_s3_" + UUID.randomUUID().toString().replace('-', '_');
        try {
            StreamingQuery out = SLUICE.readStream().format("delta").options(storage()).load(uri).writeStream()
                    .format("memory").queryName(mem).option("checkpointLocation", tmp.resolve("r").toString())
                    .trigger(Trigger.availableNow()).start();
            out.awaitTermination();
            assertThat(MemorySink.rows(mem)).containsExactlyInAnyOrder(Row.of(1L, "eu"), Row.of(2L, "us"),
                    Row.of(3L, "eu"));
        } finally {
            MemorySink.clear(mem);
        }
    }

    @Test
    void theSinkWritesAnS3aTableThatTheSourceStreamsBack() throws Exception {
        sinkThenSource("s3a://" + bucket + "/lake/events", true);
    }

    /** The S3 settings given once to the engine (as Spark's session conf): the sink and the source take them. */
    @Test
    void engineWideSettingsReachTheSinkAndTheSource() throws Exception {
        Sluice.Builder b = Sluice.builder().parallelism(2);
        storage().forEach((k, v) -> b.config(k.endsWith(".key") ? "spark.hadoop." + k : k, v));
        String uri = "s3a://" + bucket + "/engine/events";
        String mem = "delta_s3_engine_" + UUID.randomUUID().toString().replace('-', '_');
        try (Sluice sluice = b.build()) {
            MemoryStream in = MemoryStream.create(SCHEMA);
            try {
                StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load()
                        .writeStream().format("delta")
                        .option("checkpointLocation", tmp.resolve("w").toString()).start(uri);
                in.addData(Row.of(7L, "eu"), Row.of(8L, "us"));
                q.processAllAvailable();
                q.stop();
            } finally {
                in.unregister();
            }
            StreamingQuery out = sluice.readStream().format("delta").load(uri).writeStream().format("memory")
                    .queryName(mem).option("checkpointLocation", tmp.resolve("r").toString())
                    .trigger(Trigger.availableNow()).start();
            out.awaitTermination();
            assertThat(out.exception()).isEmpty();
            assertThat(MemorySink.rows(mem)).containsExactlyInAnyOrder(Row.of(7L, "eu"), Row.of(8L, "us"));
        } finally {
            MemorySink.clear(mem);
        }
    }

    @Test
    void aCatalogWhoseWarehouseIsOnS3WritesAndReadsTablesByName() throws Exception {
        Sluice.Builder b = Sluice.builder().parallelism(2)
                .config("spark.sql.catalog.lake", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.sql.catalog.lake.warehouse", "s3a://" + bucket + "/warehouse/");
        storage().forEach(b::config);
        String mem = "delta_s3_names_" + UUID.randomUUID().toString().replace('-', '_');
        try (Sluice sluice = b.build()) {
            assertThatThrownBy(() -> sluice.readStream().table("lake.db.events"))
                    .hasMessageStartingWith("[TABLE_OR_VIEW_NOT_FOUND] The table or view `lake`.`db`.`events` "
                            + "cannot be found.");
            MemoryStream in = MemoryStream.create(SCHEMA);
            try {
                StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load()
                        .writeStream().option("checkpointLocation", tmp.resolve("w").toString())
                        .toTable("lake.db.events");
                in.addData(Row.of(1L, "eu"), Row.of(2L, "us"));
                q.processAllAvailable();
                q.stop();
            } finally {
                in.unregister();
            }
            try (Storage s = Storages.of("s3a://" + bucket + "/", storage())) {
                assertThat(s.status("s3a://" + bucket + "/warehouse/db/events/_delta_log/00000000000000000000.json"))
                        .isPresent();
            }
            StreamingQuery out = sluice.readStream().table("lake.db.events").writeStream().format("memory")
                    .queryName(mem).option("checkpointLocation", tmp.resolve("r").toString())
                    .trigger(Trigger.availableNow()).start();
            out.awaitTermination();
            assertThat(out.exception()).isEmpty();
            assertThat(MemorySink.rows(mem)).containsExactlyInAnyOrder(Row.of(1L, "eu"), Row.of(2L, "us"));
            assertThat(sluice.read().table("lake.db.events").count()).isEqualTo(2);
            assertThat(sluice.read().table("lake.`s3a://" + bucket + "/warehouse/db/events`").count()).isEqualTo(2);
        } finally {
            MemorySink.clear(mem);
        }
    }

    @Test
    void s3UrisWorkAlike() throws Exception {
        // The same storage serves both schemes: the sink and a bounded read are enough to show it.
        sinkThenSource("s3://" + bucket + "/events", false);
    }

    @Test
    void aReRunBatchIsSkippedAndTwoWritersRacingForAVersionNeverBothCommitIt() throws Exception {
        String t = "s3a://" + bucket + "/race";
        String app = UUID.randomUUID().toString();
        commit(new DeltaSink(DeltaTable.open(t, storage()), SCHEMA, List.of(), app), 0, Row.of(1L, "eu"));
        BatchWriter again = new DeltaSink(DeltaTable.open(t, storage()), SCHEMA, List.of(), app).beginBatch(0);
        write(again, Row.of(1L, "eu"));   // the re-run of batch 0 after a crash before the checkpoint's commit
        assertThat(again.numOutputRows()).isZero();

        // Three writers start from version 0: two copies of one query's batch 1 and another query's batch 0.
        BatchWriter a = new DeltaSink(DeltaTable.open(t, storage()), SCHEMA, List.of(), app).beginBatch(1);
        BatchWriter b = new DeltaSink(DeltaTable.open(t, storage()), SCHEMA, List.of(), app).beginBatch(1);
        BatchWriter other = new DeltaSink(DeltaTable.open(t, storage()), SCHEMA, List.of(), "other").beginBatch(0);
        write(a, Row.of(2L, "a"));
        write(b, Row.of(2L, "a"));      // version 1 exists (put-if-absent refused it): the txn says done
        write(other, Row.of(3L, "o"));  // version 1 exists: retried on top as version 2
        assertThat(a.numOutputRows()).isEqualTo(1);
        assertThat(b.numOutputRows()).isZero();
        List<String> txns = new ArrayList<>();
        try (DeltaTable table = DeltaTable.open(t, storage())) {
            DeltaLogFiles log = new DeltaLogFiles(table);
            assertThat(log.versions().keySet()).containsExactly(0L, 1L, 2L);
            for (long v : log.versions().keySet()) {
                for (JsonNode x : log.actions(v)) {
                    if (x.has("txn")) {
                        txns.add(x.get("txn").get("appId").asText() + ":" + x.get("txn").get("version").asLong());
                    }
                }
            }
        }
        assertThat(txns).containsExactly(app + ":0", app + ":1", "other:0");
        assertThat(read(t)).containsExactlyInAnyOrder(Row.of(1L, "eu"), Row.of(2L, "a"), Row.of(3L, "o"));
    }

    @Test
    void aCommitFileIsWrittenOnlyIfAbsent() throws Exception {
        try (Storage s = Storages.of("s3a://" + bucket + "/", storage())) {
            FileIO io = new DeltaStorageFileIO(s, Map.of());
            String commit = "s3a://" + bucket + "/t/_delta_log/00000000000000000000.json";
            io.newOutputFile(commit).writeAtomically(Utils.toCloseableIterator(List.of("{\"a\":1}").iterator()),
                    false);
            assertThatThrownBy(() -> io.newOutputFile(commit).writeAtomically(
                    Utils.toCloseableIterator(List.of("{\"b\":2}").iterator()), false))
                    .isInstanceOf(FileAlreadyExistsException.class);
            assertThat(new String(s.readAll(commit, 100), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}\n");
            List<String> listed = new ArrayList<>();
            try (var it = io.listFrom("s3a://" + bucket + "/t/_delta_log/00000000000000000000.checkpoint.parquet")) {
                it.forEachRemaining(f -> listed.add(f.getPath()));
            }
            assertThat(listed).containsExactly(commit);
            assertThatThrownBy(() -> io.listFrom("s3a://" + bucket + "/none/_delta_log/0.json"))
                    .isInstanceOf(java.io.FileNotFoundException.class);
        }
    }

    private static void commit(DeltaSink sink, long batch, Row... rows) throws Exception {
        write(sink.beginBatch(batch), rows);
    }

    private static void write(BatchWriter w, Row... rows) throws Exception {
        PartitionWriter pw = w.partitionWriter(0);
        for (Row r : rows) {
            pw.write(r);
        }
        w.commit(java.util.Arrays.asList(pw.commit()));
    }
}
